// The one place a session's end reaches its event streams: call it after the commit that deleted the sessions.
import type { AppServices } from '../context.ts';

/**
 * Ends the open streams and long polls of these (deleted) sessions on this process at once; other processes end
 * theirs at their next session check (the hub's tick, within 15 s: docs/protocol.md §9.7). Logout, ending a
 * session from the sessions page, erasure and deactivation all end sessions through here.
 */
export function endSessionStreams(services: AppServices, sessionIds: readonly string[]): void {
  for (const sessionId of sessionIds) services.events.endSession(sessionId);
}
