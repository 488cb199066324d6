// The events table: append an event inside the transaction of its change (and purge what it removes); read the log
// after an id; prune by age.
import type { EventPurge, EventRecord, NewEvent } from '../rows.ts';
import type { Statement } from 'better-sqlite3';
import type { Db } from './database.ts';
import type { QueuedWork } from './queued-work.ts';
import { INSERT_DELIVERY_SQL } from '../outbound-sql.ts';
import { goesToWebhooks, OUTGOING_HOOKS_SQL, webhookDeliveries, type OutgoingHook } from '../webhook-fan-out.ts';

const COLUMNS = 'id, type, chat_id AS chatId, only_user_id AS onlyUserId, also_user_ids AS alsoUserIds, subject_id AS subjectId, created_at AS createdAt, data';

export class EventStore {
  private readonly insert;
  private readonly after;
  private readonly newest;
  private readonly pruned;
  private readonly oldChunkEnd;
  private readonly removeThrough;
  private readonly markPruned;
  private readonly chatsOfUser;
  private readonly outgoingHooks;
  private readonly insertDelivery;
  /** Statements whose text depends on the shape of their arguments (how many types), prepared on first use. */
  private readonly shaped = new Map<string, Statement>();
  /** Ids of the events appended since the last commit or rollback: counted once committed, forgotten when rolled back. */
  private readonly pending: number[] = [];

  private readonly db: Db;
  private readonly recordEvents: boolean;
  private readonly queuedWork: QueuedWork | undefined;

  /** recordEvents false exists only so a benchmark can show what the event write costs a POST (not a flag). */
  constructor(db: Db, recordEvents = true, queuedWork?: QueuedWork) {
    this.db = db;
    this.queuedWork = queuedWork;
    this.recordEvents = recordEvents;
    this.insert = db.prepare('INSERT INTO events (type, chat_id, only_user_id, also_user_ids, subject_id, created_at, data) VALUES (?, ?, ?, ?, ?, ?, ?)');
    this.after = db.prepare(`SELECT ${COLUMNS} FROM events WHERE id > ? ORDER BY id LIMIT ?`);
    // sqlite_sequence remembers the highest id ever given, even when every row was pruned.
    this.newest = db.prepare("SELECT coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'events'), 0) AS id");
    this.pruned = db.prepare('SELECT pruned_through AS id FROM event_log WHERE only_row = 1');
    this.oldChunkEnd = db.prepare('SELECT max(id) AS id FROM (SELECT id, created_at FROM events ORDER BY id LIMIT ?) WHERE created_at < ?');
    this.removeThrough = db.prepare('DELETE FROM events WHERE id <= ?');
    this.markPruned = db.prepare('UPDATE event_log SET pruned_through = max(pruned_through, ?) WHERE only_row = 1');
    this.chatsOfUser = db.prepare('SELECT chat_id AS chatId FROM chat_members WHERE user_id = ?').pluck();
    this.outgoingHooks = db.prepare(OUTGOING_HOOKS_SQL);
    this.insertDelivery = db.prepare(INSERT_DELIVERY_SQL);
  }

  /** Call inside the transaction of the change the event describes; answers the event's id. */
  append(event: NewEvent): number {
    if (!this.recordEvents) return 0;
    const also = event.alsoUserIds && event.alsoUserIds.length > 0 ? JSON.stringify(event.alsoUserIds) : null;
    const result = this.insert.run(event.type, event.chatId, event.onlyUserId ?? null, also, event.subjectId ?? null, event.createdAt, JSON.stringify(event.data));
    const id = Number(result.lastInsertRowid);
    this.pending.push(id);
    // docs/protocol.md §16.4: the event's webhook deliveries, in its transaction.
    if (goesToWebhooks(event)) {
      for (const delivery of webhookDeliveries(id, event, this.outgoingHooks.all(event.chatId) as OutgoingHook[])) {
        this.insertDelivery.run(delivery.kind, delivery.targetId, delivery.eventId, delivery.payload, delivery.createdAt, delivery.createdAt);
        this.queuedWork?.note();
      }
    }
    return id;
  }

  /** Where the uncommitted count stands now; `rollBackTo(mark)` forgets what a rolled-back write appended. */
  mark(): number {
    return this.pending.length;
  }

  rollBackTo(mark: number): void {
    if (mark < this.pending.length) this.pending.length = mark;
  }

  /**
   * After the outermost commit (or rollback): how many events it appended and the newest of their ids (0 for none);
   * the count starts again.
   */
  takeCommitted(): { count: number; newestId: number } {
    const taken = { count: this.pending.length, newestId: this.pending.at(-1) ?? 0 };
    this.pending.length = 0;
    return taken;
  }

  readAfter(afterId: number, limit: number): EventRecord[] {
    return this.after.all(afterId, limit) as EventRecord[];
  }

  readTypesBetween(afterId: number, throughId: number, types: readonly string[]): EventRecord[] {
    const statement = this.prepareShaped(`between ${types.length}`, () => `SELECT ${COLUMNS} FROM events WHERE id > ? AND id <= ? AND type IN (${marks(types.length)}) ORDER BY id`);
    return statement.all(afterId, throughId, ...types) as EventRecord[];
  }

  /** Inside the transaction of the event that removes them (the index on (chat_id, subject_id) finds them: a message's by both, a chat's by its prefix). */
  purge(purge: EventPurge): number {
    const subject = purge.subjectId === null ? '' : ' AND subject_id = ?';
    const types = purge.types === null ? '' : ` AND type IN (${marks(purge.types.length)})`;
    const statement = this.prepareShaped(`purge${subject}${types}`, () => `DELETE FROM events WHERE chat_id = ? AND id < ?${subject}${types}`);
    const args: unknown[] = [purge.chatId, purge.beforeId];
    if (purge.subjectId !== null) args.push(purge.subjectId);
    if (purge.types !== null) args.push(...purge.types);
    return statement.run(...args).changes;
  }

  // A property, not a method: the store's async view wraps every method of the prototype.
  private readonly prepareShaped = (key: string, text: () => string): Statement => {
    let statement = this.shaped.get(key);
    if (!statement) this.shaped.set(key, statement = this.db.prepare(text()));
    return statement;
  };

  newestId(): number {
    return (this.newest.get() as { id: number }).id;
  }

  /** The highest id pruned so far: a resume id below it may have missed events. */
  prunedThrough(): number {
    return (this.pruned.get() as { id: number }).id;
  }

  chatIdsOfUser(userId: string): string[] {
    return this.chatsOfUser.all(userId) as string[];
  }

  /**
   * Deletes at most `chunk` of the oldest events created before cutoff, in id order, and records how far
   * the log is pruned. Answers how many rows went, so the caller can go on in later turns of the loop.
   */
  pruneChunk(cutoff: number, chunk: number): number {
    return this.db.transaction(() => {
      const end = (this.oldChunkEnd.get(chunk, cutoff) as { id: number | null }).id;
      if (end === null) return 0;
      const removed = this.removeThrough.run(end).changes;
      this.markPruned.run(end);
      return removed;
    }).immediate();
  }
}

/** `?, ?, …`: one placeholder per value of an IN list. */
function marks(count: number): string {
  return Array.from({ length: count }, () => '?').join(', ');
}
