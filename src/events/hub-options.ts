// What the event hub is given: the log it reads (the store's event repository) and its settings.
import type { EventRecord } from '../storage/rows.ts';

/** What the hub reads: the store's event repository implements it. */
export interface EventLog {
  readAfter(afterId: number, limit: number): Promise<EventRecord[]>;
  readTypesBetween(afterId: number, throughId: number, types: readonly string[]): Promise<EventRecord[]>;
  prunedThrough(): Promise<number>;
  chatIdsOfUser(userId: string): Promise<string[]>;
  pruneChunk(cutoff: number, chunk: number): Promise<number>;
}

export interface HubOptions {
  log: EventLog;
  /** Runs work on one consistent snapshot of the log (the store's snapshot): membership and ids then agree. */
  snapshot<T>(work: (log: EventLog) => Promise<T>): Promise<T>;
  /** The newest event id when the hub starts: events up to it are history, read only by replay. */
  startAfter: number;
  now: () => number;
  /** Seconds an event stays in the log. */
  retentionSeconds: number;
  /**
   * A stream carries something at least this often (docs/protocol.md §9.2: at most 15 s): the tick runs twice in
   * the interval, pings each stream (which writes a comment only when it carried nothing since the tick before) and
   * checks the sessions whose expiry has come.
   */
  pingMs?: number;
  /** How often the log is read without a wake-up (writes of other processes). */
  pollMs?: number;
  /** How often old events are pruned. */
  pruneMs?: number;
  /** Where an unexpected failure of the hub's own timed work goes (the server's error log); stderr by default. */
  logError?: (error: unknown) => void;
  /**
   * Which of these session ids still hold (exist, not expired), each with its expiry as the store holds it now:
   * until then it holds unless it is ended, which a `session.ended` tells. Streams of the others are closed.
   */
  liveSessions(sessionIds: readonly string[]): Promise<Map<string, number>>;
  /** A user's open streams on this process went from 0 to 1 or from 1 to 0 (presence: events/presence.ts). */
  streamsChanged?(userId: string, open: number): void;
}

/** Events read from the store at once, by the pump and by a replay. */
export const READ_BATCH = 500;
