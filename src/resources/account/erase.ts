// DELETE /users/{id}: erases an account (docs/protocol.md §3.7), by the user (with their password) or an administrator.
import type { Reply, RequestContext } from '../context.ts';
import { HttpError, invalidField } from '../../http/http-error.ts';
import { readJsonBody } from '../../http/json-body.ts';
import { appendPurging } from '../../events/purge-rule.ts';
import { rejectUnknownFields, type Body } from '../../parsers/body-fields.ts';
import { publicMessage, publicReaction } from '../../representations/public-fields.ts';
import type { Tx } from '../../storage/store.ts';
import { findOwnAccount } from './access.ts';
import { leaveEveryChat } from './leave-chats.ts';
import { recordAudit } from '../audit/record.ts';
import { appendSessionsEnded } from '../session/sessions-ended.ts';
import { forgetPushSubscriptionsOfUser } from '../push/forget-subscriptions.ts';
import { sessionCookie } from '../session/handlers.ts';
import { PASSWORD_RULE } from '../users/validate.ts';

/** `?keepMessages=true|false`, the only parameter; a form's checkbox sends `keepMessages` in the body instead (a boolean). */
function readKeepMessages(ctx: RequestContext, body: Body): boolean {
  let keep = false;
  for (const [name, value] of new URLSearchParams(ctx.rawQuery)) {
    if (name !== 'keepMessages') throw new HttpError('ERR_BAD_QUERY', `${name} is not a parameter of DELETE on a user`, { errors: [{ field: name, message: 'is not a parameter of this route' }] });
    if (value !== 'true' && value !== 'false') throw new HttpError('ERR_BAD_QUERY', 'keepMessages must be true or false', { errors: [{ field: 'keepMessages', message: 'must be true or false' }] });
    keep = value === 'true';
  }
  const field = body['keepMessages'];
  if (field === undefined) return keep;
  if (field === true || field === false) return field || keep;
  throw invalidField('keepMessages', 'must be true or false');
}

/** The body is optional: {"password"} (needed to erase one's own account), {"keepMessages"}. */
async function readErasureBody(ctx: RequestContext): Promise<Body> {
  const { headers } = ctx.req;
  const hasBody = ctx.form !== undefined || (headers['content-length'] !== undefined && headers['content-length'] !== '0') || headers['transfer-encoding'] !== undefined;
  const body = hasBody ? await readJsonBody(ctx, ctx.services.config.maxBodyBytes) : {};
  rejectUnknownFields(body, ['password', 'keepMessages']);
  return body;
}

/** Erasing one's own account asks for the password again, as a password change does (docs/protocol.md §3.1). */
async function checkPassword(ctx: RequestContext, body: Body, passwordHash: string): Promise<void> {
  const password = body['password'];
  if (typeof password !== 'string' || password === '') throw invalidField('password', 'is needed to delete your own account');
  if (password.length > PASSWORD_RULE.max * 4 || !(await ctx.services.hasher.verify(password, passwordHash, { signal: ctx.signal, key: ctx.clientAddress }))) {
    throw new HttpError('ERR_WRONG_PASSWORD', 'password is wrong', { errors: [{ field: 'password', message: 'is wrong' }] });
  }
}

/** Their reactions go, each told as DELETE of a reaction tells it; then their messages, each as its DELETE does. */
async function removeWhatTheyWrote(tx: Tx, userId: string, keepMessages: boolean, now: number, basePath: string): Promise<number> {
  const messages = keepMessages ? [] : await tx.accounts.findMessagesOfAuthor(userId);
  const erased = new Set(messages.map((message) => message.id));
  for (const reaction of await tx.accounts.findReactionsOfUser(userId)) {
    // A reaction to one of their own messages goes with that message.
    if (erased.has(reaction.messageId)) continue;
    await tx.reactions.removeReaction(reaction.messageId, reaction.emoji, userId);
    await tx.events.append({ type: 'reaction.removed', chatId: reaction.chatId, createdAt: now, data: publicReaction(reaction, true), subjectId: reaction.messageId });
  }
  for (const message of messages) {
    const replies = await tx.messages.findReplies(message.id);
    await tx.messages.deleteMessage(message.id, now);
    // Its earlier events leave the log with it: a replay never sends its text again (docs/events.md).
    await appendPurging(tx.events, { type: 'message.deleted', chatId: message.chatId, createdAt: now, data: { id: message.id }, subjectId: message.id });
    for (const reply of replies) {
      if (erased.has(reply.id)) continue;
      await tx.events.append({ type: 'message.updated', chatId: reply.chatId, createdAt: now, data: publicMessage({ ...reply, replyTo: null, updatedAt: now }, basePath), subjectId: reply.id });
    }
  }
  return messages.length;
}

export async function eraseUser(ctx: RequestContext): Promise<Reply> {
  const { storage, clock } = ctx.services;
  const { user, self } = await findOwnAccount(ctx, 'delete the account');
  const body = await readErasureBody(ctx);
  const keepMessages = readKeepMessages(ctx, body);
  if (self) await checkPassword(ctx, body, user.passwordHash);
  await storage.transaction(async (tx) => {
    const current = await tx.users.findUserById(user.id);
    if (!current) throw new HttpError('ERR_NOT_FOUND', `No user ${user.id}`);
    if (current.role === 'admin' && current.deactivatedAt === null && await tx.users.countActiveAdmins() <= 1) {
      throw new HttpError('ERR_LAST_ADMIN', 'The last active administrator cannot be deleted: make another administrator first');
    }
    const now = clock.now();
    const chats = await leaveEveryChat(tx, user.id, now);
    // The files they uploaded go in any case (docs/protocol.md §15.4): kept messages show none, and bytes nobody
    // else refers to leave the database.
    await tx.attachments.deleteUserAttachments(user.id);
    const messages = await removeWhatTheyWrote(tx, user.id, keepMessages, now, ctx.services.config.basePath);
    // Their streams end on every process, as a deactivation ends them (docs/protocol.md §9.7).
    await appendSessionsEnded(tx, user.id, [...await tx.sessions.deleteUserSessions(user.id), ...await tx.integrations.deleteAccessTokensOf(user.id)], now);
    // Left by a session that expired: none stays (docs/protocol.md §17.2).
    await forgetPushSubscriptionsOfUser(tx, user.id);
    if (keepMessages) await tx.accounts.eraseUserKeepingRow(user.id, now);
    else await tx.accounts.deleteUser(user.id);
    // The audit keeps the id, never the login: the login is free again, and may soon be someone else's.
    await recordAudit(tx, ctx, {
      action: 'user.erase', targetType: 'user', targetId: user.id,
      detail: { keepMessages, messagesDeleted: messages, chatsHandedOver: chats.handedOver, chatsDeleted: chats.deleted },
    });
  });
  return self && ctx.caller!.via === 'cookie' ? { status: 204, headers: { 'Set-Cookie': sessionCookie(ctx, '', 0) } } : { status: 204 };
}
