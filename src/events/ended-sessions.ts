// Which streams an event ends (docs/protocol.md §9.7): a committed `session.ended` names the sessions that ended, and
// the hub of every process ends their streams when it reads that event from the log, as it reads every event, so a
// deactivation or a logout answered by one process (or one PostgreSQL server) closes the streams held by all of them.
import type { LoggedEvent } from './logged-event.ts';

export const SESSION_ENDED = 'session.ended';

/** Ended sessions remembered for subscribers that attach after the event was read (kept the newest this many). */
const REMEMBERED = 10_000;

/** The session ids a `session.ended` event names ({"userId", "ids"}); none for any other event. */
export function sessionIdsEndedBy(event: Pick<LoggedEvent, 'type' | 'data'>): readonly string[] {
  if (event.type !== SESSION_ENDED) return [];
  const ids = (JSON.parse(event.data) as { ids?: unknown }).ids;
  return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
}

/**
 * The sessions this hub has read an end of. A request authenticated just before its session ended may attach its
 * stream just after the hub read the `session.ended`: attach asks here and ends it at once. Bounded: past the newest
 * REMEMBERED ends, the hub's periodic session check (its tick) is the backstop.
 */
export class EndedSessions {
  private readonly ids = new Set<string>();

  remember(sessionIds: readonly string[]): void {
    for (const id of sessionIds) {
      this.ids.delete(id);
      this.ids.add(id);
    }
    // A Set iterates in insertion order: the first are the oldest.
    for (const id of this.ids) {
      if (this.ids.size <= REMEMBERED) break;
      this.ids.delete(id);
    }
  }

  has(sessionId: string): boolean {
    return this.ids.has(sessionId);
  }
}
