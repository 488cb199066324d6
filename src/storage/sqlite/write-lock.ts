// BEGIN IMMEDIATE without sleeping on the event loop. While another process holds the file's write lock (--workers,
// an operator's script), SQLite's busy handler sleeps in the calling thread, 1, 2, 5, 10 ms and on, up to
// busy_timeout: the whole event loop stopped with it, and under --workers at 10,000 users that was most of the time
// each process spent in BEGIN and COMMIT. Here BEGIN IMMEDIATE is tried with no busy handler and, while the lock is
// held elsewhere, tried again after a timer, the loop serving meanwhile, for as long as busy_timeout allowed.
import { BUSY_TIMEOUT_MS, type Db } from './database.ts';

/** Waits between tries grow to this: a commit elsewhere takes about a millisecond, a checkpoint longer. */
const MAX_RETRY_MS = 8;
const RESTORE_BUSY_TIMEOUT = `PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`;

export class WriteLock {
  private readonly begin;
  private readonly db: Db;

  constructor(db: Db) {
    this.db = db;
    this.begin = db.prepare('BEGIN IMMEDIATE');
  }

  /**
   * Opens a write transaction, waiting (off the loop) while another process holds the lock; throws SQLite's
   * SQLITE_BUSY (a 503 for the request) once busy_timeout has passed.
   */
  async beginImmediate(): Promise<void> {
    const deadline = performance.now() + BUSY_TIMEOUT_MS;
    for (let retryMs = 1; ; retryMs = Math.min(retryMs * 2, MAX_RETRY_MS)) {
      const busy = this.tryBegin();
      if (busy === undefined) return;
      if (performance.now() >= deadline) throw busy;
      await new Promise((resolve) => setTimeout(resolve, retryMs));
    }
  }

  /** Undefined when the transaction is open, else the SQLITE_BUSY error; any other error is thrown. */
  private tryBegin(): Error | undefined {
    // Not prepared once: SQLite applies busy_timeout when the PRAGMA is compiled, not when a prepared one is run again.
    // exec compiles it for a tenth of what db.pragma() costs (2.6 against 22 µs the pair): this runs for every write.
    this.db.exec('PRAGMA busy_timeout = 0');
    try {
      this.begin.run();
      return undefined;
    } catch (error) {
      if ((error as { code?: unknown }).code === 'SQLITE_BUSY') return error as Error;
      throw error;
    } finally {
      this.db.exec(RESTORE_BUSY_TIMEOUT);
    }
  }
}
