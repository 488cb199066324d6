// BEGIN IMMEDIATE without sleeping on the event loop, and without holding the connection while another process
// writes. While another process holds the file's write lock (--workers, an operator's script), SQLite's busy handler
// sleeps in the calling thread, 1, 2, 5, 10 ms and on, up to busy_timeout: the whole event loop stopped with it, and
// under --workers at 10,000 users that was most of the time each process spent in BEGIN and COMMIT. Here BEGIN
// IMMEDIATE is tried with no busy handler and, while the lock is held elsewhere, the caller lets go of the connection
// (gate.ts: every read waiting on it runs) and tries again after a timer, for as long as busy_timeout allowed. Holding
// the gate across those waits kept a third of each process's reads queued behind the other process's commits
// (bench/RESULTS.md, "`--workers 2`: reads while the other process writes").
import { BUSY_TIMEOUT_MS, type Db } from './database.ts';

/** Waits between tries grow to this: a commit elsewhere takes about a millisecond, a checkpoint longer. */
const MAX_RETRY_MS = 8;
const RESTORE_BUSY_TIMEOUT = `PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`;

/** Thrown by a try's BEGIN while another process holds the write lock: nothing was begun, the try may be made again. */
export class LockBusy extends Error {
  constructor(busy: Error) {
    super('storage: another process holds the write lock', { cause: busy });
  }
}

/** Opens the write transaction of one try: throws LockBusy while the lock is held elsewhere, SQLITE_BUSY on the last try. */
export type Begin = () => void;

export class WriteLock {
  private readonly begin;
  private readonly db: Db;

  constructor(db: Db) {
    this.db = db;
    this.begin = db.prepare('BEGIN IMMEDIATE');
  }

  /**
   * Makes tries until one gets the lock: `attempt` takes the connection (the gate) and calls `begin` before anything
   * else, so a LockBusy from it means nothing was done, and it lets go of the connection as it fails. Between tries
   * the loop and every other call run; once busy_timeout has passed, the last try's begin throws SQLite's SQLITE_BUSY
   * (a 503 for the request), through the attempt's own failure path.
   */
  async whenFree<T>(attempt: (begin: Begin) => Promise<T>): Promise<T> {
    const deadline = performance.now() + BUSY_TIMEOUT_MS;
    for (let retryMs = 1; ; retryMs = Math.min(retryMs * 2, MAX_RETRY_MS)) {
      const lastTry = performance.now() >= deadline;
      try {
        return await attempt(() => this.tryBegin(lastTry));
      } catch (error) {
        if (!(error instanceof LockBusy)) throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, retryMs));
    }
  }

  private tryBegin(lastTry: boolean): void {
    // Not prepared once: SQLite applies busy_timeout when the PRAGMA is compiled, not when a prepared one is run again.
    // exec compiles it for a tenth of what db.pragma() costs (2.6 against 22 µs the pair): this runs for every write.
    this.db.exec('PRAGMA busy_timeout = 0');
    try {
      this.begin.run();
    } catch (error) {
      if ((error as { code?: unknown }).code === 'SQLITE_BUSY' && !lastTry) throw new LockBusy(error as Error);
      throw error;
    } finally {
      this.db.exec(RESTORE_BUSY_TIMEOUT);
    }
  }
}
