// Messages of a chat (docs/protocol.md §4.4): post and read for members, edit by the author, delete by the author or owner.
import { randomUUID } from 'node:crypto';
import type { Reply, RequestContext } from '../context.ts';
import { checkPreconditions, etagOf } from '../../http/conditional.ts';
import { HttpError, invalidField } from '../../http/http-error.ts';
import { readJsonBody } from '../../http/json-body.ts';
import { appendPurging } from '../../events/purge-rule.ts';
import { publicMessage } from '../../representations/public-fields.ts';
import type { Link } from '../../representations/representation.ts';
import { newId } from '../../storage/ids.ts';
import { NO_ATTACHMENTS, NO_REACTIONS, type ChatAccess, type MessageRow, type Repositories } from '../../storage/store.ts';
import { isAdminIfMentioningAll, isAdminIfTextMentionsAll, storedMentions } from '../mentions/message-mentions.ts';
import { appendNotifications } from '../notifications/append-notifications.ts';
import { recordAudit } from '../audit/record.ts';
import { findModeratedChat, findVisibleChat, requireOwner } from '../chats/access.ts';
import { isAdmin } from '../users/roles.ts';
import { PATCH_TYPES } from '../chats/handlers.ts';
import { validateMessage, validateMessageChanges, type MessageInput } from './validate.ts';
import { readNewMessage } from './new-message.ts';
import { attachmentSummary } from '../../representations/public-fields.ts';
import { dropReceived } from '../attachments/receive.ts';
import { findUnusedUploads, saveReceived } from '../attachments/save.ts';
import { PATHS } from '../../paths.ts';

export function messageLinks(ctx: RequestContext, row: MessageRow): Link[] {
  const params = { chatId: row.chatId, messageId: row.id };
  const links: Link[] = [
    { rel: 'chat', href: ctx.href(PATHS.chat, { chatId: row.chatId }) },
    { rel: 'collection', href: ctx.href(PATHS.messages, { chatId: row.chatId }) },
    { rel: 'actions', href: ctx.href(PATHS.messageActions, params) },
    { rel: 'author', href: ctx.href(PATHS.user, { userId: row.authorId }) },
    { rel: 'reactions', href: ctx.href(PATHS.reactions, params) },
    { rel: 'revisions', href: ctx.href(PATHS.revisions, params) },
  ];
  if (row.replyTo !== null) links.push({ rel: 'replyTo', href: ctx.href(PATHS.message, { chatId: row.chatId, messageId: row.replyTo }) });
  return links;
}

export function messageReply(ctx: RequestContext, row: MessageRow, status = 200, headers: Record<string, string> = {}): Reply {
  return {
    status,
    headers,
    representation: { kind: 'single', type: 'message', enveloped: true, data: publicMessage(row, ctx.services.config.basePath), links: messageLinks(ctx, row) },
  };
}

function messageEtag(ctx: RequestContext, row: MessageRow): string {
  return etagOf(publicMessage(row, ctx.services.config.basePath));
}

/** The chat (404 unless the caller is a member) and the message in it (404 unless it is there), read through `db`. */
export async function findChatMessage(ctx: RequestContext, db: Repositories = ctx.services.storage): Promise<{ access: ChatAccess; message: MessageRow }> {
  const access = await findVisibleChat(ctx, ctx.params['chatId']!, db);
  const messageId = ctx.params['messageId']!;
  const message = await db.messages.findMessageInChat(access.id, messageId);
  if (!message) throw new HttpError('ERR_NOT_FOUND', `No message ${messageId} in chat ${access.id}`);
  return { access, message };
}

/**
 * GET /messages/{id}: the message wherever it lives; a message of a chat the caller cannot see answers
 * exactly like one that does not exist.
 */
export async function findTopLevelMessage(ctx: RequestContext, db: Repositories = ctx.services.storage): Promise<{ access: ChatAccess; message: MessageRow }> {
  const messageId = ctx.params['messageId']!;
  const message = await db.messages.findMessage(messageId);
  const access = message && await db.chats.findChatForMember(message.chatId, ctx.caller!.userId);
  if (!message || !access) throw new HttpError('ERR_NOT_FOUND', `No message ${messageId}`);
  return { access, message };
}

/** replyTo names a message of the same chat posted before this one (so replies never form a cycle). */
async function checkReplyTarget(db: Repositories, chatId: string, replyTo: string | null, messageId: string | null): Promise<void> {
  if (replyTo !== null && !(await db.messages.isEarlierMessageInChat(chatId, replyTo, messageId))) {
    throw invalidField('data.replyTo', 'must be the id of an earlier message of this chat');
  }
}

/**
 * POST: the insert joins the writes of this event-loop turn in one commit (group commit: one WAL sync under
 * synchronous=FULL for all of them), and the 201 goes out only after that commit. Membership and the reply
 * target are checked again inside the write, as the chat may have changed while it waited. Files come in the
 * body (multipart, stored as they arrive) or by the ids of earlier uploads (docs/protocol.md §15.2); either way
 * they become the message's in the same write, and go with it.
 */
export async function postMessage(ctx: RequestContext): Promise<Reply> {
  const { storage, clock } = ctx.services;
  const { chatId, input, files } = await readNewMessage(ctx);
  try {
    const admin = await isAdminIfTextMentionsAll(ctx, input.text);
    const row = await storage.writeTogether(async (tx) => {
      const access = await findVisibleChat(ctx, chatId, tx);
      await checkReplyTarget(tx, chatId, input.replyTo, null);
      // docs/protocol.md §14.2, §14.4: the mentions among the members now, and who is notified, in the message's transaction.
      const members = await tx.chats.findMembers(chatId);
      const mentions = storedMentions(ctx, access, input.text, members, admin);
      const now = clock.now();
      const summaries = [...await findUnusedUploads(tx, ctx, chatId, input.attachments), ...(await saveReceived(tx, ctx, chatId, files, now)).map(attachmentSummary)];
      const message: MessageRow = {
        id: newId(now), chatId, authorId: ctx.caller!.userId, text: input.text, replyTo: input.replyTo, createdAt: now, updatedAt: now, editedAt: null, reactions: NO_REACTIONS,
        mentions, attachments: summaries.length === 0 ? NO_ATTACHMENTS : JSON.stringify(summaries),
      };
      await tx.messages.insertMessage(message);
      if (await tx.attachments.attachToMessage(message.id, summaries.map((summary) => summary.id)) !== summaries.length) {
        throw new HttpError('ERR_CONFLICT', 'An upload was taken by another message meanwhile');
      }
      await tx.events.append({ type: 'message.created', chatId, createdAt: now, data: publicMessage(message, ctx.services.config.basePath), subjectId: message.id });
      await appendNotifications(tx, ctx.services.config.basePath, access.kind, message, members);
      return message;
    });
    // A message ends its author's typing in the chat (docs/protocol.md §14.5), once it is committed.
    ctx.services.typing.stop(chatId, row.authorId);
    return messageReply(ctx, row, 201, { Location: ctx.href(PATHS.message, { chatId, messageId: row.id }) });
  } catch (error) {
    await dropReceived(ctx, files.map((file) => file.contentId));
    throw error;
  }
}

/** A message under either of its addresses: /chats/{id}/messages/{mid}/... or /messages/{mid}/... (docs/protocol.md §10.4). */
export function findAddressedMessage(ctx: RequestContext, db: Repositories = ctx.services.storage): Promise<{ access: ChatAccess; message: MessageRow }> {
  return ctx.params['chatId'] === undefined ? findTopLevelMessage(ctx, db) : findChatMessage(ctx, db);
}

export async function getMessage(ctx: RequestContext): Promise<Reply> {
  return messageReply(ctx, (await findChatMessage(ctx)).message);
}

export async function getTopLevelMessage(ctx: RequestContext): Promise<Reply> {
  return messageReply(ctx, (await findTopLevelMessage(ctx)).message);
}

function requireAuthor(ctx: RequestContext, message: MessageRow): void {
  if (message.authorId !== ctx.caller!.userId) throw new HttpError('ERR_FORBIDDEN', 'Only the author may edit a message');
}

/**
 * Writes the changes; updatedAt moves only when text or replyTo really changed, editedAt only when the text
 * did (docs/protocol.md §10.3: a new replyTo is not an edit of what was said). The replaced text becomes a revision.
 */
async function editMessage(ctx: RequestContext, tx: Repositories, edit: { access: ChatAccess; current: MessageRow; admin: boolean }, changes: Partial<MessageInput>): Promise<Reply> {
  const { access, current } = edit;
  await checkReplyTarget(tx, current.chatId, changes.replyTo ?? null, current.id);
  checkPreconditions(ctx.req.headers, messageEtag(ctx, current));
  const next: MessageRow = { ...current, ...changes };
  if (next.text !== current.text || next.replyTo !== current.replyTo) {
    next.updatedAt = ctx.services.clock.now();
    // docs/protocol.md §14.2: a new text is read for mentions again; those it newly notifies hear of it (§14.4).
    const members = next.text !== current.text ? await tx.chats.findMembers(current.chatId) : undefined;
    if (members) {
      next.editedAt = next.updatedAt;
      next.mentions = storedMentions(ctx, access, next.text, members, edit.admin);
    }
    await tx.messages.updateMessage(next);
    await tx.events.append({ type: 'message.updated', chatId: next.chatId, createdAt: next.updatedAt, data: publicMessage(next, ctx.services.config.basePath), subjectId: next.id });
    if (members) await appendNotifications(tx, ctx.services.config.basePath, access.kind, next, members, JSON.parse(current.mentions) as string[]);
  }
  return messageReply(ctx, next);
}

/**
 * PUT replaces text and replyTo (an absent replyTo becomes null). Message ids are the server's, so PUT
 * never creates one: a missing message is a 404 (RFC 9110 §13.2.1: preconditions are not evaluated then).
 */
export async function putMessage(ctx: RequestContext): Promise<Reply> {
  const body = await readJsonBody(ctx, ctx.services.config.maxBodyBytes);
  const admin = await isAdminIfMentioningAll(ctx, body);
  // Read, If-Match and write in one write (its commit shared with the moment's others, as a post's): no other
  // request or process edits the message in between.
  return ctx.services.storage.writeTogether(async (tx) => {
    const { access, message } = await findChatMessage(ctx, tx);
    requireAuthor(ctx, message);
    return editMessage(ctx, tx, { access, current: message, admin }, validateMessage(body, { chatId: message.chatId, messageId: message.id }));
  });
}

export async function patchMessage(ctx: RequestContext): Promise<Reply> {
  const body = await readJsonBody(ctx, ctx.services.config.maxBodyBytes, PATCH_TYPES);
  const admin = await isAdminIfMentioningAll(ctx, body);
  return ctx.services.storage.writeTogether(async (tx) => {
    const { access, message } = await findChatMessage(ctx, tx);
    requireAuthor(ctx, message);
    return editMessage(ctx, tx, { access, current: message, admin }, validateMessageChanges(body, { chatId: message.chatId, messageId: message.id }));
  });
}

/**
 * The author, the chat's owner, or an admin (by the message's address, member or not: docs/protocol.md §4.7) may
 * delete a message; replies to it keep existing with replyTo null. An admin's delete of another's message is audited.
 */
export async function deleteMessage(ctx: RequestContext): Promise<Reply> {
  const { storage, clock } = ctx.services;
  const admin = await isAdmin(ctx);
  const access = await findModeratedChat(ctx, ctx.params['chatId']!, admin);
  const messageId = ctx.params['messageId']!;
  const message = await storage.messages.findMessageInChat(access.id, messageId);
  if (!message) throw new HttpError('ERR_NOT_FOUND', `No message ${messageId} in chat ${access.id}`);
  const callerId = ctx.caller!.userId;
  const moderating = message.authorId !== callerId && access.ownerId !== callerId;
  if (moderating && !admin) {
    throw new HttpError('ERR_FORBIDDEN', 'Only the author, the chat\'s owner or an admin may delete a message');
  }
  checkPreconditions(ctx.req.headers, messageEtag(ctx, message));
  const now = clock.now();
  await storage.transaction(async (tx) => {
    if (moderating) {
      await recordAudit(tx, ctx, { action: 'message.delete', targetType: 'message', targetId: message.id, detail: { chatId: message.chatId, authorId: message.authorId } });
    }
    const replies = await tx.messages.findReplies(message.id);
    await tx.messages.deleteMessage(message.id, now);
    // Its earlier events leave the log with it: its text is never sent again (docs/events.md).
    await appendPurging(tx.events, { type: 'message.deleted', chatId: message.chatId, createdAt: now, data: { id: message.id }, subjectId: message.id });
    // Its replies lose their replyTo: that changes them, so each is told as an update.
    for (const reply of replies) {
      const detached = { ...reply, replyTo: null, updatedAt: now };
      await tx.events.append({ type: 'message.updated', chatId: reply.chatId, createdAt: now, data: publicMessage(detached, ctx.services.config.basePath), subjectId: reply.id });
    }
  });
  return { status: 204 };
}

// Random per process and never sent, so only `If-Match: *` can match it.
const COLLECTION_ETAG = etagOf(randomUUID());

/**
 * DELETE /chats/{id}/messages: the owner empties the chat, in one transaction. A collection has no ETag,
 * so `If-Match: *` holds (the collection exists) and any other If-Match answers 412.
 */
export async function deleteAllMessages(ctx: RequestContext): Promise<Reply> {
  const { storage, clock } = ctx.services;
  const access = await findVisibleChat(ctx, ctx.params['chatId']!);
  requireOwner(ctx, access, 'delete all messages');
  checkPreconditions(ctx.req.headers, COLLECTION_ETAG);
  await storage.transaction(async (tx) => {
    await tx.messages.deleteChatMessages(access.id);
    await appendPurging(tx.events, { type: 'messages.cleared', chatId: access.id, createdAt: clock.now(), data: {} });
  });
  return { status: 204 };
}
