// The hub's own timed work (pings and session checks, the poll of the log, pruning), and the guard that all work
// the hub starts on its own runs under: started with the hub, stopped with it (docs/operations.md).
import { StoreUnavailableError, StoreWriteRefusedError } from '../storage/store.ts';

export class HubTimers {
  private readonly timers: NodeJS.Timeout[] = [];
  private stopped = false;

  private readonly logError: (error: unknown) => void;

  constructor(logError: (error: unknown) => void = logToStderr) {
    this.logError = logError;
  }

  get isStopped(): boolean {
    return this.stopped;
  }

  /** Runs fn every `ms` under the guard; the timer never keeps the process alive. */
  every(ms: number, fn: () => Promise<void> | void): void {
    const timer = setInterval(() => void this.guard(fn()), ms);
    timer.unref();
    this.timers.push(timer);
  }

  /**
   * Work the hub starts on its own (a timer, a wake-up) has no caller to tell of a failure, and no failure of it
   * may end the process (docs/operations.md): it is tried again at the next timer. Once stopped, a read cut short
   * by the closing store is expected; before, anything but a database that cannot be reached for a moment
   * (PostgreSQL restarting, SQLite busy) or that refuses the prune's writes (a full disk: the store noted it,
   * /health says it) is a bug, and goes to the log with its stack.
   */
  async guard(work: Promise<void> | void): Promise<void> {
    try {
      await work;
    } catch (error) {
      if (this.stopped || error instanceof StoreUnavailableError || error instanceof StoreWriteRefusedError) return;
      this.logError(error);
    }
  }

  stop(): void {
    this.stopped = true;
    for (const timer of this.timers) clearInterval(timer);
  }
}

function logToStderr(error: unknown): void {
  process.stderr.write(`event hub: ${(error as Error)?.stack ?? String(error)}\n`);
}
