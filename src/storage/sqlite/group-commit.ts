// Group commit: concurrent writes share one transaction (one WAL sync under synchronous=FULL), each in its own
// SAVEPOINT, and every caller hears back only after the shared COMMIT returned, so nothing is acknowledged early.
import type { Db } from './database.ts';
import type { Gate } from './gate.ts';
import { durably, type WalSync } from './wal-sync.ts';
import { LockBusy, WriteLock, type Begin } from './write-lock.ts';

interface PendingWrite {
  work: () => Promise<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

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
  /** Maps the error of a failed BEGIN or COMMIT to what each write of the batch is rejected with. */
  batchFailure?: (error: unknown) => unknown;
  /** Commits without the WAL sync on the event loop, then syncs it on the thread pool before anyone hears (wal-sync.ts). */
  walSync?: WalSync;
}

const DEFAULT_MAX_BATCH = 256;

/** The transaction statements, prepared once: each write runs two of them, and parsing them every time cost more than the write. */
function prepareControl(db: Db) {
  const statement = (sql: string): (() => void) => {
    const prepared = db.prepare(sql);
    return () => void prepared.run();
  };
  return {
    commit: statement('COMMIT'),
    rollback: statement('ROLLBACK'),
    savepoint: statement('SAVEPOINT group_write'),
    release: statement('RELEASE group_write'),
    rollbackTo: statement('ROLLBACK TO group_write'),
  };
}

export class GroupCommit {
  private queue: PendingWrite[] = [];
  private readonly sql: ReturnType<typeof prepareControl>;
  private readonly lock: WriteLock;
  private scheduled = false;
  private readonly maxBatch: number;
  private readonly grouped: boolean;
  private readonly afterCommit: (committed: boolean, writes: number) => void;
  private readonly batchFailure: (error: unknown) => unknown;
  private readonly walSync: WalSync | undefined;

  private readonly db: Db;
  private readonly gate: Gate;

  constructor(db: Db, gate: Gate, options: GroupCommitOptions = {}) {
    this.db = db;
    this.gate = gate;
    this.maxBatch = options.maxBatch ?? DEFAULT_MAX_BATCH;
    this.grouped = options.groupCommit ?? true;
    this.afterCommit = options.afterCommit ?? (() => {});
    this.batchFailure = options.batchFailure ?? ((error) => error);
    this.walSync = options.walSync;
    this.sql = prepareControl(db);
    this.lock = new WriteLock(db);
  }

  /** Writes waiting for the next commit. */
  get pending(): number {
    return this.queue.length;
  }

  /**
   * Queues work for the next shared transaction. The promise settles after COMMIT: with work's result, or
   * with its rejection (then only its own changes were rolled back).
   */
  run<T>(work: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (!this.grouped) {
        void this.flush();
      } else if (this.queue.length === this.maxBatch) {
        queueMicrotask(() => void this.flush());
      } else if (!this.scheduled) {
        this.scheduled = true;
        // setImmediate runs after the poll phase: every request read in this turn joins the batch.
        setImmediate(() => {
          this.scheduled = false;
          void this.flush();
        });
      }
    });
  }

  /** Commits everything queued so far, at most maxBatch writes per transaction; resolves at once when nothing waits. */
  async flush(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, this.maxBatch);
      // The gate keeps every other call out while the batch's transaction is open (gate.ts says why); while another
      // process holds the file's write lock, the batch lets go of it between tries (write-lock.ts).
      await this.lock.whenFree((begin) => this.gate.hold(() => this.commitBatch(batch, begin)));
    }
  }

  private async commitBatch(batch: PendingWrite[], begin: Begin): Promise<void> {
    const outcomes: Outcome[] = [];
    try {
      await durably(this.walSync, () => this.runBatch(batch, outcomes, begin));
    } catch (error) {
      // Nothing was begun: the batch is tried again, the connection let go meanwhile.
      if (error instanceof LockBusy) throw error;
      // BEGIN, COMMIT or the sync failed (runBatch rolled back what it began): nothing of this batch is known to be
      // durable, so every caller hears the failure.
      this.afterCommit(false, batch.length);
      const failure = this.batchFailure(error);
      for (const write of batch) write.reject(failure);
      return;
    }
    this.afterCommit(true, batch.length);
    batch.forEach((write, index) => {
      const outcome = outcomes[index]!;
      if (outcome.ok) write.resolve(outcome.value);
      else write.reject(outcome.error);
    });
  }

  /** BEGIN, each write in its savepoint (its outcome noted), COMMIT; a failed BEGIN or COMMIT throws. */
  private async runBatch(batch: PendingWrite[], outcomes: Outcome[], begin: Begin): Promise<void> {
    try {
      begin();
      for (const write of batch) {
        // Each write in its own savepoint (inline: this loop is the hot path of every POST).
        this.sql.savepoint();
        let outcome: Outcome;
        try {
          const value = await write.work();
          this.sql.release();
          outcome = { ok: true, value };
        } catch (error) {
          // ROLLBACK TO undoes this write only; RELEASE then drops the savepoint, keeping the others' writes.
          this.sql.rollbackTo();
          this.sql.release();
          outcome = { ok: false, error };
        }
        outcomes.push(outcome);
      }
      this.sql.commit();
    } catch (error) {
      // Rolled back here, before the level is restored (SQLite will not change it inside a transaction).
      if (this.db.inTransaction) this.sql.rollback();
      throw error;
    }
  }
}
