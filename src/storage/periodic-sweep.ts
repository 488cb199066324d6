// A cleanup the server runs on a timer (unused uploads, finished outbound deliveries): one sweep at a time, its
// failure logged unless the database was away for a moment (the next turn tries again), its timer never holding the
// process open. Tests call sweep() after moving the clock.
import { StoreUnavailableError, StoreWriteRefusedError } from './store.ts';

export interface PeriodicSweepOptions {
  /** Removes what is due; answers how many went. */
  sweep(): Promise<number>;
  everyMs: number;
  logError(error: unknown): void;
}

export class PeriodicSweep {
  private readonly options: PeriodicSweepOptions;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;

  constructor(options: PeriodicSweepOptions) {
    this.options = options;
  }

  start(): void {
    this.timer = setInterval(() => void this.sweepGuarded(), this.options.everyMs);
    this.timer.unref();
  }

  /** Sweeps now, or joins the sweep under way; answers how many went. */
  sweep(): Promise<number> {
    this.running ??= this.options.sweep().finally(() => { this.running = undefined; });
    return this.running;
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private async sweepGuarded(): Promise<void> {
    try {
      await this.sweep();
    } catch (error) {
      if (!(error instanceof StoreUnavailableError || error instanceof StoreWriteRefusedError)) this.options.logError(error);
    }
  }
}
