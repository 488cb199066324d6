// The event log, and the fixed-window counters of the limits.
import type { EventPurge, EventRecord, NewEvent } from './rows.ts';

/** The event log (docs/protocol.md §9.1): appended in the transaction of its change, read by id. */
export interface EventRepository {
  /** Only through a Tx: the event commits or rolls back with the change it describes. Answers its id. */
  append(event: NewEvent): Promise<number>;
  /** Events with an id above afterId, in id order, at most limit. */
  readAfter(afterId: number, limit: number): Promise<EventRecord[]>;
  /** Events of these types with an id in (afterId, throughId], in id order (the hub's walk back to a resume point). */
  readTypesBetween(afterId: number, throughId: number, types: readonly string[]): Promise<EventRecord[]>;
  /** Only through a Tx, with the event that removes them: deletes the earlier events the purge names; answers how many. */
  purge(purge: EventPurge): Promise<number>;
  /** The highest id ever given (0 for none), even when every event was pruned. */
  newestId(): Promise<number>;
  /** The highest id pruned so far: a resume id below it may have missed events. */
  prunedThrough(): Promise<number>;
  chatIdsOfUser(userId: string): Promise<string[]>;
  /** Deletes at most `chunk` of the oldest events created before cutoff, in its own transaction; answers how many. */
  pruneChunk(cutoff: number, chunk: number): Promise<number>;
}

/** Fixed-window counters (rate limits, failed logins): shared by every process that shares the database. */
export interface RateCounterRepository {
  /** Counts one hit on `key` and answers the window it fell in; a new window starts when the last one ended. */
  hit(key: string, windowMs: number, now: number): Promise<{ count: number; resetAt: number }>;
  /** The hits of the key's current window (0 when it has none or it ended), counting none. */
  count(key: string, now: number): Promise<number>;
  /** Takes back one hit of the current window (a request that turned out not to count). */
  undo(key: string): Promise<void>;
  /** Forgets the key's window (a successful login clears its failures). */
  clear(key: string): Promise<void>;
}
