// Deactivating and restoring an account (docs/protocol.md §13.4), and the user.updated event of a change an admin
// makes to a user (role, active): written in the transaction of the change.
import type { RequestContext } from '../context.ts';
import { HttpError } from '../../http/http-error.ts';
import { publicUser } from '../../representations/public-fields.ts';
import { NO_CHAT, type Tx, type UserRow } from '../../storage/store.ts';
import { recordAudit } from '../audit/record.ts';
import { appendSessionsEnded } from '../session/sessions-ended.ts';

/** The answer of a login whose password checked out, on an account an admin deactivated (docs/protocol.md §2.2). */
export function accountDeactivated(): HttpError {
  return new HttpError('ERR_ACCOUNT_DEACTIVATED', 'This account has been deactivated by an admin');
}

/**
 * `active: false` sets deactivatedAt and is audited; the last active admin stays (409). `active: true` restores the
 * account (its sessions stay ended: the user logs in again). Call before the row is written, in its transaction;
 * a deactivation then ends the sessions (endSessionsOf), after the user.updated.
 */
export async function changeActive(tx: Tx, ctx: RequestContext, current: UserRow, next: UserRow, active: boolean): Promise<void> {
  if (!active && current.role === 'admin' && (await tx.users.countActiveAdmins()) <= 1) {
    throw new HttpError('ERR_LAST_ADMIN', 'The last active admin cannot be deactivated: promote another user first',
      { errors: [{ field: 'active', message: 'would leave no active admin' }] });
  }
  next.deactivatedAt = active ? null : next.updatedAt;
  await recordAudit(tx, ctx, { action: active ? 'user.reactivate' : 'user.deactivate', targetType: 'user', targetId: current.id });
}

/**
 * Every session of the user ends, with the session.ended that closes their streams on every process: written after
 * the user.updated, so the user's open streams receive both before they close.
 */
export async function endSessionsOf(tx: Tx, user: UserRow): Promise<void> {
  const ended = await tx.sessions.deleteUserSessions(user.id);
  // Its access tokens stay (a reactivation gives them back) but refuse it meanwhile; their streams end too (§16.1).
  await appendSessionsEnded(tx, user.id, [...ended, ...await tx.integrations.findAccessTokenIdsOf(user.id)], user.updatedAt);
}

/**
 * user.updated, once, about no chat: to the user and to everyone who shares a chat with them now (alsoUserIds, read in
 * this transaction), so a replay judges it by the same list live delivery used (docs/protocol.md §9.4).
 */
export async function appendUserUpdated(tx: Tx, user: UserRow): Promise<void> {
  const peers = await tx.chats.findChatPeers(user.id);
  await tx.events.append({ type: 'user.updated', chatId: NO_CHAT, createdAt: user.updatedAt, data: publicUser(user), alsoUserIds: [user.id, ...peers] });
}
