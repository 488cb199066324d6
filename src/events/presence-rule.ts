// What presence a user has (docs/protocol.md §14.6), from what is known of them: a pure function, one place.

export type Presence = 'online' | 'away' | 'offline';

/** A request this recent makes a user online. */
export const ONLINE_MS = 2 * 60_000;
/** A request this recent (and older than ONLINE_MS) makes a user away; older, offline. */
export const AWAY_MS = 30 * 60_000;
/**
 * After a user's last stream closes they stay online this long: a page that moves to the next page closes its
 * stream and opens another, which must not flap them offline and back.
 */
export const STREAM_GRACE_MS = 10_000;

export interface PresenceFacts {
  /** An open stream on any process. */
  streamOpen: boolean;
  /** The newest request known of them (this process's memory, the database's last_seen_at), or null. */
  lastActivity: number | null;
  /** When their last stream closed, if known: activity before it does not count (closing the page is leaving). */
  leftAt: number | null;
  now: number;
}

export function computePresence(facts: PresenceFacts): Presence {
  if (facts.streamOpen) return 'online';
  const { leftAt, now } = facts;
  if (leftAt !== null && now - leftAt < STREAM_GRACE_MS) return 'online';
  const last = facts.lastActivity;
  if (last === null || (leftAt !== null && last <= leftAt)) return 'offline';
  const idle = now - last;
  if (idle < ONLINE_MS) return 'online';
  return idle < AWAY_MS ? 'away' : 'offline';
}
