// Records the attempts of many targets' batches in one write (docs/protocol.md §16.5): a fan-out of 1,000 pushes, each
// to its own subscription, would otherwise be 1,000 commits (1,000 WAL syncs under synchronous=FULL, each on the event
// loop, up to 90 ms each on a busy disk). What finishes within RECORD_WINDOW_MS of the first waiting outcome, up to
// MAX_RECORDS, commits together; each batch hears which of its rows were recorded (a lease lost meanwhile is not). A
// crash before the commit sends those rows again: at most the loop's in-flight cap, whose batches wait here.
import type { AttemptRecord, OutboundRepository } from '../storage/outbound-repository.ts';

/** Rows recorded in one transaction at most. */
export const MAX_RECORDS = 256;
/** How long the first outcome waits for others to share its commit: 20 commits a second at most, per process. */
export const RECORD_WINDOW_MS = 50;

interface Waiting {
  attempts: readonly (AttemptRecord & { id: number })[];
  released: readonly number[];
  resolve(recorded: Set<number>): void;
  reject(error: unknown): void;
}

export class AttemptRecorder {
  private waiting: Waiting[] = [];
  private rows = 0;
  private scheduled = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly queue: OutboundRepository;
  private readonly owner: string;

  constructor(queue: OutboundRepository, owner: string) {
    this.queue = queue;
    this.owner = owner;
  }

  /** Resolves, after the commit that holds them, with the ids of `attempts` that were recorded. */
  record(attempts: readonly (AttemptRecord & { id: number })[], released: readonly number[]): Promise<Set<number>> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ attempts, released, resolve, reject });
      this.rows += attempts.length + released.length;
      if (this.rows >= MAX_RECORDS) void this.flush();
      else if (!this.scheduled) {
        this.scheduled = true;
        this.timer = setTimeout(() => void this.flush(), RECORD_WINDOW_MS);
      }
    });
  }

  /** Commits what waits now (the loop stops: outcomes answered must not be sent again after a graceful restart). */
  flushNow(): void {
    if (this.waiting.length > 0) void this.flush();
  }

  private async flush(): Promise<void> {
    this.scheduled = false;
    clearTimeout(this.timer);
    const batch = this.waiting;
    this.waiting = [];
    this.rows = 0;
    if (batch.length === 0) return;
    try {
      const recorded = new Set(await this.queue.recordAttempts(this.owner, batch.flatMap((item) => item.attempts), batch.flatMap((item) => item.released)));
      for (const item of batch) item.resolve(recorded);
    } catch (error) {
      for (const item of batch) item.reject(error);
    }
  }
}
