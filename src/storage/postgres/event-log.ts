// The event log and the rate counters on PostgreSQL, both shared by every server on the database.
import type { EventPurge, EventRecord, EventRepository, NewEvent, RateCounterRepository } from '../store.ts';
import type { Sql } from './connection.ts';
import { LOCK_NAMESPACE } from './migrate.ts';
import { INSERT_DELIVERY_SQL } from '../outbound-sql.ts';
import { goesToWebhooks, OUTGOING_HOOKS_SQL, webhookDeliveries, type OutgoingHook } from '../webhook-fan-out.ts';

/** The advisory lock that orders event appends (see append). */
export const EVENT_APPEND_LOCK = 2;

const INSERT_EVENT = 'INSERT INTO events (type, chat_id, only_user_id, also_user_ids, subject_id, created_at, data)';
const INSERT_EVENT_SQL = `${INSERT_EVENT} VALUES (?, ?, ?, ?, ?, ?, ?)`;
/** The same, after the append lock: the lock's one row is made first, then the event's row from it. */
const LOCKED_INSERT_EVENT_SQL = `WITH locked AS (SELECT pg_advisory_xact_lock(?, ?)) ${INSERT_EVENT} SELECT ?, ?, ?, ?, ?, ?::bigint, ? FROM locked`;

const COLUMNS = 'id, type, chat_id AS "chatId", only_user_id AS "onlyUserId", also_user_ids AS "alsoUserIds", subject_id AS "subjectId", created_at AS "createdAt", data';

/** What one transaction knows of its own appends. */
export interface TxEvents {
  appended: number;
}

export class PgEventLog implements EventRepository {
  private readonly sql: Sql;
  private readonly tx: TxEvents | undefined;
  private readonly recordEvents: boolean;
  private readonly inTransaction: <T>(work: (sql: Sql) => Promise<T>) => Promise<T>;

  /**
   * `tx` is undefined outside a transaction: then only reads are allowed. `inTransaction` runs a function in a
   * transaction of its own (pruning).
   */
  constructor(sql: Sql, tx: TxEvents | undefined, recordEvents: boolean, inTransaction: <T>(work: (sql: Sql) => Promise<T>) => Promise<T>) {
    this.sql = sql;
    this.tx = tx;
    this.recordEvents = recordEvents;
    this.inTransaction = inTransaction;
  }

  /**
   * Identity ids are handed out when a row is inserted, but transactions commit in any order: a reader that saw
   * id 11 committed could later find 10 committing behind its cursor, and skip it for ever. So a transaction
   * takes a transaction-level advisory lock with its first append (in its INSERT, before the row and its id are
   * made) and holds it until it ends: appends,
   * and so commits of events, happen one transaction at a time in id order, on every server sharing the database.
   * Every id a reader sees is then preceded by every smaller id that will ever commit.
   */
  async append(event: NewEvent): Promise<number> {
    if (this.tx === undefined) throw new Error('events.append needs a transaction: the event commits with its change');
    if (!this.recordEvents) return 0;
    const also = event.alsoUserIds && event.alsoUserIds.length > 0 ? JSON.stringify(event.alsoUserIds) : null;
    const values = [event.type, event.chatId, event.onlyUserId ?? null, also, event.subjectId ?? null, event.createdAt, JSON.stringify(event.data)];
    // The first append takes the lock in the same statement, before the row (and its id) is made: one round trip.
    const row = this.tx.appended === 0
      ? await this.sql.one<{ id: number }>(`${LOCKED_INSERT_EVENT_SQL} RETURNING id`, [LOCK_NAMESPACE, EVENT_APPEND_LOCK, ...values])
      : await this.sql.one<{ id: number }>(`${INSERT_EVENT_SQL} RETURNING id`, values);
    this.tx.appended += 1;
    // docs/protocol.md §16.4: the event's webhook deliveries, in its transaction and under the append lock.
    if (goesToWebhooks(event)) {
      for (const delivery of webhookDeliveries(Number(row!.id), event, await this.sql.rows<OutgoingHook>(OUTGOING_HOOKS_SQL, [event.chatId]))) {
        await this.sql.run(INSERT_DELIVERY_SQL, [delivery.kind, delivery.targetId, delivery.eventId, delivery.payload, delivery.createdAt, delivery.createdAt]);
      }
    }
    return row!.id;
  }

  readAfter(afterId: number, limit: number): Promise<EventRecord[]> {
    return this.sql.rows(`SELECT ${COLUMNS} FROM events WHERE id > ? ORDER BY id LIMIT ?`, [afterId, limit]);
  }

  readTypesBetween(afterId: number, throughId: number, types: readonly string[]): Promise<EventRecord[]> {
    return this.sql.rows(`SELECT ${COLUMNS} FROM events WHERE id > ? AND id <= ? AND type = ANY(?::text[]) ORDER BY id`, [afterId, throughId, types]);
  }

  /** Inside the transaction of the event that removes them (the index on (chat_id, subject_id) finds them: a message's by both, a chat's by its prefix). */
  purge(purge: EventPurge): Promise<number> {
    if (this.tx === undefined) throw new Error('events.purge needs a transaction: it commits with the event that removes them');
    // Only the conditions that hold, so the planner sees `subject_id = $n` and picks its index.
    let text = 'DELETE FROM events WHERE chat_id = ? AND id < ?';
    const values: unknown[] = [purge.chatId, purge.beforeId];
    if (purge.subjectId !== null) {
      text += ' AND subject_id = ?';
      values.push(purge.subjectId);
    }
    if (purge.types !== null) {
      text += ' AND type = ANY(?::text[])';
      values.push(purge.types);
    }
    return this.sql.count(text, values);
  }

  /** The highest committed id; after pruning everything, the log remembers how far it pruned. */
  async newestId(): Promise<number> {
    const row = await this.sql.one<{ id: number }>('SELECT greatest((SELECT max(id) FROM events), (SELECT pruned_through FROM event_log WHERE only_row = 1), 0) AS id');
    return row!.id;
  }

  async prunedThrough(): Promise<number> {
    return (await this.sql.one<{ id: number }>('SELECT pruned_through AS id FROM event_log WHERE only_row = 1'))!.id;
  }

  async chatIdsOfUser(userId: string): Promise<string[]> {
    return (await this.sql.rows<{ chatId: string }>('SELECT chat_id AS "chatId" FROM chat_members WHERE user_id = ?', [userId])).map((row) => row.chatId);
  }

  pruneChunk(cutoff: number, chunk: number): Promise<number> {
    return this.inTransaction(async (sql) => {
      const end = (await sql.one<{ id: number | null }>('SELECT max(id) AS id FROM (SELECT id, created_at FROM events ORDER BY id LIMIT ?) oldest WHERE created_at < ?', [chunk, cutoff]))!.id;
      if (end === null) return 0;
      const removed = await sql.count('DELETE FROM events WHERE id <= ?', [end]);
      await sql.run('UPDATE event_log SET pruned_through = greatest(pruned_through, ?) WHERE only_row = 1', [end]);
      return removed;
    });
  }
}

/** Every this many hits, rows of windows that ended are deleted. */
const SWEEP_EVERY = 1000;

export class PgRateCounters implements RateCounterRepository {
  private hits = 0;

  private readonly sql: Sql;

  constructor(sql: Sql) {
    this.sql = sql;
  }

  /** One statement, so servers counting the same key at once both count. */
  async hit(anyKey: string, windowMs: number, now: number): Promise<{ count: number; resetAt: number }> {
    const key = storableKey(anyKey);
    if (++this.hits % SWEEP_EVERY === 0) await this.sql.run('DELETE FROM rate_counters WHERE reset_at <= ?', [now]);
    const row = await this.sql.one<{ count: number; resetAt: number }>(`INSERT INTO rate_counters AS r (key, count, reset_at) VALUES (?, 1, ?::bigint + ?::bigint)
      ON CONFLICT (key) DO UPDATE SET
        count = CASE WHEN r.reset_at <= excluded.reset_at - ?::bigint THEN 1 ELSE r.count + 1 END,
        reset_at = CASE WHEN r.reset_at <= excluded.reset_at - ?::bigint THEN excluded.reset_at ELSE r.reset_at END
      RETURNING count, reset_at AS "resetAt"`, [key, now, windowMs, windowMs, windowMs]);
    return row!;
  }

  async count(key: string, now: number): Promise<number> {
    key = storableKey(key);
    const row = await this.sql.one<{ count: number }>('SELECT count FROM rate_counters WHERE key = ? AND reset_at > ?', [key, now]);
    return row?.count ?? 0;
  }

  async undo(key: string): Promise<void> {
    key = storableKey(key);
    await this.sql.run('UPDATE rate_counters SET count = count - 1 WHERE key = ? AND count > 0', [key]);
  }

  async clear(key: string): Promise<void> {
    key = storableKey(key);
    await this.sql.run('DELETE FROM rate_counters WHERE key = ?', [key]);
  }
}

/**
 * A key as PostgreSQL text can hold it: a key carries what a client sent (a login tried), and text cannot hold NUL.
 * Backslashes are doubled first, so two different keys never become one.
 */
function storableKey(key: string): string {
  return key.includes('\0') || key.includes('\\') ? key.replaceAll('\\', '\\\\').replaceAll('\0', '\\0') : key;
}
