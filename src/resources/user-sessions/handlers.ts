// A user's sessions (docs/protocol.md §3.5): list and read them, end one, end every other; the user or an administrator.
import type { Reply, RequestContext } from '../context.ts';
import { checkPreconditions, etagOf } from '../../http/conditional.ts';
import { HttpError } from '../../http/http-error.ts';
import { fieldsOf, type CollectionSpec } from '../../parsers/query.ts';
import { publicUserSession } from '../../representations/public-fields.ts';
import type { SessionRow } from '../../storage/store.ts';
import { findOwnAccount } from '../account/access.ts';
import { recordAudit } from '../audit/record.ts';
import { collectionReply } from '../collection.ts';
import { appendSessionsEnded } from '../session/sessions-ended.ts';
import { sessionCookie } from '../session/handlers.ts';
import { singleReply } from '../single-reply.ts';
import { PATHS } from '../../paths.ts';

export const USER_SESSION_FIELDS: CollectionSpec = {
  fields: fieldsOf({ id: 'id', createdAt: 'timestamp', lastUsedAt: 'timestamp', expiresAt: 'timestamp', userAgent: 'string', address: 'string' }),
};

export async function listUserSessions(ctx: RequestContext): Promise<Reply> {
  const { user } = await findOwnAccount(ctx, 'list their sessions');
  const currentId = ctx.caller!.sessionId;
  return collectionReply<SessionRow>(ctx, {
    type: 'user-session',
    spec: USER_SESSION_FIELDS,
    list: (query) => ctx.services.storage.accounts.listSessions(user.id, currentId, query),
    toPublic: (row) => publicUserSession(row, currentId),
    itemHref: (item) => ctx.href(PATHS.userSession, { userId: user.id, sessionId: String(item['id']) }),
  });
}

/** The session of the path, if it is the user's: another user's session answers as one that does not exist. */
async function findUserSession(ctx: RequestContext, userId: string): Promise<SessionRow> {
  const sessionId = ctx.params['sessionId']!;
  const session = await ctx.services.storage.sessions.findSessionById(sessionId);
  if (!session || session.userId !== userId) throw new HttpError('ERR_NOT_FOUND', `No session ${sessionId} of user ${userId}`);
  return session;
}

export async function getUserSession(ctx: RequestContext): Promise<Reply> {
  const { user } = await findOwnAccount(ctx, 'read their sessions');
  const session = await findUserSession(ctx, user.id);
  return singleReply('user-session', publicUserSession(session, ctx.caller!.sessionId), [
    { rel: 'user', href: ctx.href(PATHS.user, { userId: user.id }) },
    { rel: 'collection', href: ctx.href(PATHS.userSessions, { userId: user.id }) },
  ]);
}

/** The caller's own cookie is cleared when the session they end is the one they came with. */
function replyEnded(ctx: RequestContext, endedIds: readonly string[]): Reply {
  const own = ctx.caller!.via === 'cookie' && endedIds.includes(ctx.caller!.sessionId);
  return own ? { status: 204, headers: { 'Set-Cookie': sessionCookie(ctx, '', 0) } } : { status: 204 };
}

/** DELETE /users/{id}/sessions/{sessionId}: that session ends (its token answers 401, its streams close). */
export async function deleteUserSession(ctx: RequestContext): Promise<Reply> {
  const { user, self } = await findOwnAccount(ctx, 'end their sessions');
  const session = await findUserSession(ctx, user.id);
  checkPreconditions(ctx.req.headers, etagOf(publicUserSession(session, ctx.caller!.sessionId)));
  await ctx.services.storage.transaction(async (tx) => {
    await tx.sessions.deleteSession(session.id);
    // Its streams end on every process (docs/protocol.md §9.7).
    await appendSessionsEnded(tx, user.id, [session.id], ctx.services.clock.now());
    if (!self) await recordAudit(tx, ctx, { action: 'session.end', targetType: 'user', targetId: user.id, detail: { sessionIds: [session.id] } });
  });
  return replyEnded(ctx, [session.id]);
}

/**
 * DELETE /users/{id}/sessions: every session of the user but the caller's own ("end all other sessions"); an
 * administrator ending another user's sessions ends all of them. 204 even when there was none to end.
 */
export async function deleteUserSessions(ctx: RequestContext): Promise<Reply> {
  const { user, self } = await findOwnAccount(ctx, 'end their sessions');
  await ctx.services.storage.transaction(async (tx) => {
    const ids = self ? await tx.sessions.deleteOtherSessions(user.id, ctx.caller!.sessionId) : await tx.sessions.deleteUserSessions(user.id);
    await appendSessionsEnded(tx, user.id, ids, ctx.services.clock.now());
    if (!self && ids.length > 0) await recordAudit(tx, ctx, { action: 'session.end', targetType: 'user', targetId: user.id, detail: { sessionIds: ids } });
  });
  return { status: 204 };
}
