// Group commit: concurrent writes share one transaction (one WAL sync under synchronous=FULL), each in its own
// SAVEPOINT, and every caller hears back only after the shared COMMIT returned, so nothing is acknowledged early.
import type { Db } from './database.ts';

interface PendingWrite {
  work: () => unknown;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

export interface GroupCommitOptions {
  /** A batch this large is committed at once instead of waiting for the end of the event-loop turn. */
  maxBatch?: number;
  /** false: every write commits alone, at once (only for benchmarks that show what grouping gains). */
  groupCommit?: boolean;
  /**
   * Runs after every COMMIT (committed true) and after a failed batch's ROLLBACK (false), with the number of
   * writes in the batch: the metrics count batches, the event streams are woken.
   */
  afterCommit?: (committed: boolean, writes: number) => void;
}

const DEFAULT_MAX_BATCH = 256;

export class GroupCommit {
  private queue: PendingWrite[] = [];
  private scheduled = false;
  private readonly maxBatch: number;
  private readonly grouped: boolean;
  private readonly afterCommit: (committed: boolean, writes: number) => void;

  constructor(private readonly db: Db, options: GroupCommitOptions = {}) {
    this.maxBatch = options.maxBatch ?? DEFAULT_MAX_BATCH;
    this.grouped = options.groupCommit ?? true;
    this.afterCommit = options.afterCommit ?? (() => {});
  }

  /** Writes waiting for the next commit. */
  get pending(): number {
    return this.queue.length;
  }

  /**
   * Queues synchronous work for the next shared transaction. The promise settles after COMMIT: with work's
   * result, or with its exception (then only its own changes were rolled back).
   */
  run<T>(work: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (!this.grouped) {
        this.flush();
      } else if (this.queue.length === this.maxBatch) {
        // A microtask runs once the current stack unwinds, so never inside a caller's own transaction.
        queueMicrotask(() => this.flush());
      } else if (!this.scheduled) {
        this.scheduled = true;
        // setImmediate runs after the poll phase: every request read in this turn joins the batch.
        setImmediate(() => {
          this.scheduled = false;
          this.flush();
        });
      }
    });
  }

  /** Commits everything queued so far, at most maxBatch writes per transaction; a no-op when nothing waits. */
  flush(): void {
    while (this.queue.length > 0) this.commitBatch(this.queue.splice(0, this.maxBatch));
  }

  private commitBatch(batch: PendingWrite[]): void {
    const outcomes: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
    try {
      this.db.exec('BEGIN IMMEDIATE');
      for (const write of batch) outcomes.push(this.runInSavepoint(write.work));
      this.db.exec('COMMIT');
    } catch (error) {
      // BEGIN or COMMIT failed: nothing of this batch is durable, so every caller hears the failure.
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      this.afterCommit(false, batch.length);
      for (const write of batch) write.reject(error);
      return;
    }
    this.afterCommit(true, batch.length);
    batch.forEach((write, index) => {
      const outcome = outcomes[index]!;
      if (outcome.ok) write.resolve(outcome.value);
      else write.reject(outcome.error);
    });
  }

  private runInSavepoint(work: () => unknown): { ok: true; value: unknown } | { ok: false; error: unknown } {
    this.db.exec('SAVEPOINT group_write');
    try {
      const value = work();
      if (value !== null && typeof (value as { then?: unknown })?.then === 'function') {
        throw new TypeError('writeTogether work must be synchronous (it runs inside a transaction)');
      }
      this.db.exec('RELEASE group_write');
      return { ok: true, value };
    } catch (error) {
      // ROLLBACK TO undoes this write only; RELEASE then drops the savepoint, keeping the others' writes.
      this.db.exec('ROLLBACK TO group_write');
      this.db.exec('RELEASE group_write');
      return { ok: false, error };
    }
  }
}
