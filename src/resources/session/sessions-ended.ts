// The event that ends sessions' streams on every process (docs/protocol.md §9.7): written in the transaction that
// deleted the sessions, read from the log by the hub of every process like every event (events/ended-sessions.ts).
import { SESSION_ENDED } from '../../events/ended-sessions.ts';
import { NO_CHAT, type Repositories } from '../../storage/store.ts';
import { forgetPushSubscriptionsOfSessions } from '../push/forget-subscriptions.ts';

/**
 * Appends `session.ended` naming the user's sessions that ended, for that user's streams only; none when none ended.
 * The one end-of-session path: the push subscriptions the sessions made go with them (docs/protocol.md §17.2).
 */
export async function appendSessionsEnded(tx: Repositories, userId: string, sessionIds: readonly string[], now: number): Promise<void> {
  if (sessionIds.length === 0) return;
  await forgetPushSubscriptionsOfSessions(tx, sessionIds);
  await tx.events.append({ type: SESSION_ENDED, chatId: NO_CHAT, onlyUserId: userId, createdAt: now, data: { userId, ids: [...sessionIds] } });
}
