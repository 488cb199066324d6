// Request quota counters in the database, shared by every process on the file (--workers). Its own connection
// with synchronous=OFF: a counter need not survive a power cut, and a write request must not pay a second sync.
import type { RateCounterRepository } from '../store.ts';
import { openDatabase, toStoreError, type Db } from './database.ts';

/** Every this many hits, rows of windows that ended are deleted. */
const SWEEP_EVERY = 1000;

/** SQLite's errors in the store's terms, as the store's own calls map them: a full disk is a 503, not a 500. */
function mapped<T>(statement: () => T): T {
  try {
    return statement();
  } catch (error) {
    throw toStoreError(error);
  }
}

export class SqliteRateCounters implements RateCounterRepository {
  private readonly db: Db;
  private readonly upsert;
  private readonly read;
  private readonly decrement;
  private readonly remove;
  private readonly sweep;
  private hits = 0;

  constructor(path: string) {
    this.db = openDatabase(path, undefined, { synchronous: 'OFF' });
    // One statement, so two processes counting the same key at once both count (SQLite runs it atomically).
    this.upsert = this.db.prepare(`INSERT INTO rate_counters (key, count, reset_at) VALUES (@key, 1, @now + @windowMs)
      ON CONFLICT (key) DO UPDATE SET
        count = CASE WHEN reset_at <= @now THEN 1 ELSE count + 1 END,
        reset_at = CASE WHEN reset_at <= @now THEN @now + @windowMs ELSE reset_at END
      RETURNING count, reset_at AS resetAt`);
    this.read = this.db.prepare('SELECT count FROM rate_counters WHERE key = ? AND reset_at > ?').pluck();
    this.decrement = this.db.prepare('UPDATE rate_counters SET count = count - 1 WHERE key = ? AND count > 0');
    this.remove = this.db.prepare('DELETE FROM rate_counters WHERE key = ?');
    this.sweep = this.db.prepare('DELETE FROM rate_counters WHERE reset_at <= ?');
  }

  // Async only to fit the Store: each is one autocommit statement on this connection, which has no transactions.
  async hit(key: string, windowMs: number, now: number): Promise<{ count: number; resetAt: number }> {
    return mapped(() => {
      if (++this.hits % SWEEP_EVERY === 0) this.sweep.run(now);
      return this.upsert.get({ key, now, windowMs }) as { count: number; resetAt: number };
    });
  }

  async count(key: string, now: number): Promise<number> {
    return mapped(() => (this.read.get(key, now) as number | undefined) ?? 0);
  }

  async undo(key: string): Promise<void> {
    mapped(() => this.decrement.run(key));
  }

  async clear(key: string): Promise<void> {
    mapped(() => this.remove.run(key));
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
