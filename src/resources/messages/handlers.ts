// Messages of a chat (CONTRACT §4): post and read for members, edit by the author, delete by the author or owner.
import { randomUUID } from 'node:crypto';
import type { Reply, RequestContext } from '../../http/context.ts';
import { checkPreconditions, etagOf } from '../../http/conditional.ts';
import { HttpError, invalidField } from '../../http/http-error.ts';
import { readJsonObject } from '../../http/read-body.ts';
import { publicMessage } from '../../representations/public-fields.ts';
import type { Link } from '../../representations/representation.ts';
import type { ChatAccess } from '../../storage/chat-store.ts';
import { newId } from '../../storage/ids.ts';
import { NO_REACTIONS, type MessageRow } from '../../storage/message-store.ts';
import { findVisibleChat, requireOwner } from '../chats/access.ts';
import { PATCH_TYPES } from '../chats/handlers.ts';
import { CHAT_PATH, MESSAGE_ACTIONS_PATH, MESSAGE_PATH, MESSAGES_PATH, REACTIONS_PATH, REVISIONS_PATH } from '../chats/paths.ts';
import { USER_PATH } from '../users/handlers.ts';
import { validateMessage, validateMessageChanges, type MessageInput } from './validate.ts';

export function messageLinks(ctx: RequestContext, row: MessageRow): Link[] {
  const params = { chatId: row.chatId, messageId: row.id };
  const links: Link[] = [
    { rel: 'chat', href: ctx.href(CHAT_PATH, { chatId: row.chatId }) },
    { rel: 'collection', href: ctx.href(MESSAGES_PATH, { chatId: row.chatId }) },
    { rel: 'actions', href: ctx.href(MESSAGE_ACTIONS_PATH, params) },
    { rel: 'author', href: ctx.href(USER_PATH, { userId: row.authorId }) },
    { rel: 'reactions', href: ctx.href(REACTIONS_PATH, params) },
    { rel: 'revisions', href: ctx.href(REVISIONS_PATH, params) },
  ];
  if (row.replyTo !== null) links.push({ rel: 'replyTo', href: ctx.href(MESSAGE_PATH, { chatId: row.chatId, messageId: row.replyTo }) });
  return links;
}

export function messageReply(ctx: RequestContext, row: MessageRow, status = 200, headers: Record<string, string> = {}): Reply {
  return {
    status,
    headers,
    representation: { kind: 'single', type: 'message', enveloped: true, data: publicMessage(row), links: messageLinks(ctx, row) },
  };
}

function messageEtag(row: MessageRow): string {
  return etagOf(publicMessage(row));
}

/** The chat (404 unless the caller is a member) and the message in it (404 unless it is there). */
export function findChatMessage(ctx: RequestContext): { access: ChatAccess; message: MessageRow } {
  const access = findVisibleChat(ctx, ctx.params['chatId']!);
  const messageId = ctx.params['messageId']!;
  const message = ctx.services.storage.messages.findMessageInChat(access.id, messageId);
  if (!message) throw new HttpError('ERR_NOT_FOUND', `No message ${messageId} in chat ${access.id}`);
  return { access, message };
}

/**
 * GET /messages/{id}: the message wherever it lives; a message of a chat the caller cannot see answers
 * exactly like one that does not exist.
 */
export function findTopLevelMessage(ctx: RequestContext): { access: ChatAccess; message: MessageRow } {
  const messageId = ctx.params['messageId']!;
  const { storage } = ctx.services;
  const message = storage.messages.findMessage(messageId);
  const access = message && storage.chats.findChatForMember(message.chatId, ctx.caller!.userId);
  if (!message || !access) throw new HttpError('ERR_NOT_FOUND', `No message ${messageId}`);
  return { access, message };
}

/** replyTo names a message of the same chat posted before this one (so replies never form a cycle). */
function checkReplyTarget(ctx: RequestContext, chatId: string, replyTo: string | null, messageId: string | null): void {
  if (replyTo !== null && !ctx.services.storage.messages.isEarlierMessageInChat(chatId, replyTo, messageId)) {
    throw invalidField('data.replyTo', 'must be the id of an earlier message of this chat');
  }
}

/**
 * POST: the insert joins the writes of this event-loop turn in one commit (group commit: one WAL sync under
 * synchronous=FULL for all of them), and the 201 goes out only after that commit. Membership and the reply
 * target are checked again inside the write, as the chat may have changed while it waited.
 */
export async function postMessage(ctx: RequestContext): Promise<Reply> {
  const { storage, clock, config } = ctx.services;
  const body = await readJsonObject(ctx.req, config.maxBodyBytes);
  const chatId = findVisibleChat(ctx, ctx.params['chatId']!).id;
  const input = validateMessage(body, { chatId });
  const row = await storage.writeTogether(() => {
    findVisibleChat(ctx, chatId);
    checkReplyTarget(ctx, chatId, input.replyTo, null);
    const now = clock.now();
    const message: MessageRow = {
      id: newId(now), chatId, authorId: ctx.caller!.userId, text: input.text, replyTo: input.replyTo, createdAt: now, updatedAt: now, editedAt: null, reactions: NO_REACTIONS,
    };
    storage.messages.insertMessage(message);
    storage.events.append({ type: 'message.created', chatId, createdAt: now, data: publicMessage(message) });
    return message;
  });
  return messageReply(ctx, row, 201, { Location: ctx.href(MESSAGE_PATH, { chatId, messageId: row.id }) });
}

/** A message under either of its addresses: /chats/{id}/messages/{mid}/... or /messages/{mid}/... (CONTRACT §10). */
export function findAddressedMessage(ctx: RequestContext): { access: ChatAccess; message: MessageRow } {
  return ctx.params['chatId'] === undefined ? findTopLevelMessage(ctx) : findChatMessage(ctx);
}

export function getMessage(ctx: RequestContext): Reply {
  return messageReply(ctx, findChatMessage(ctx).message);
}

export function getTopLevelMessage(ctx: RequestContext): Reply {
  return messageReply(ctx, findTopLevelMessage(ctx).message);
}

function requireAuthor(ctx: RequestContext, message: MessageRow): void {
  if (message.authorId !== ctx.caller!.userId) throw new HttpError('ERR_FORBIDDEN', 'Only the author may edit a message');
}

/**
 * Writes the changes; updatedAt moves only when text or replyTo really changed, editedAt only when the text
 * did (CONTRACT §10: a new replyTo is not an edit of what was said). The replaced text becomes a revision.
 */
function editMessage(ctx: RequestContext, current: MessageRow, changes: Partial<MessageInput>): Reply {
  checkReplyTarget(ctx, current.chatId, changes.replyTo ?? null, current.id);
  checkPreconditions(ctx.req.headers, messageEtag(current));
  const next: MessageRow = { ...current, ...changes };
  if (next.text !== current.text || next.replyTo !== current.replyTo) {
    const { storage, clock } = ctx.services;
    next.updatedAt = clock.now();
    if (next.text !== current.text) next.editedAt = next.updatedAt;
    storage.transaction(() => {
      storage.messages.updateMessage(next);
      storage.events.append({ type: 'message.updated', chatId: next.chatId, createdAt: next.updatedAt, data: publicMessage(next) });
    });
  }
  return messageReply(ctx, next);
}

/**
 * PUT replaces text and replyTo (an absent replyTo becomes null). Message ids are the server's, so PUT
 * never creates one: a missing message is a 404 (RFC 9110 §13.2.1: preconditions are not evaluated then).
 */
export async function putMessage(ctx: RequestContext): Promise<Reply> {
  const body = await readJsonObject(ctx.req, ctx.services.config.maxBodyBytes);
  // Read, If-Match and write in one transaction: no other process edits the message in between.
  return ctx.services.storage.transaction(() => {
    const { message } = findChatMessage(ctx);
    requireAuthor(ctx, message);
    return editMessage(ctx, message, validateMessage(body, { chatId: message.chatId, messageId: message.id }));
  });
}

export async function patchMessage(ctx: RequestContext): Promise<Reply> {
  const body = await readJsonObject(ctx.req, ctx.services.config.maxBodyBytes, PATCH_TYPES);
  return ctx.services.storage.transaction(() => {
    const { message } = findChatMessage(ctx);
    requireAuthor(ctx, message);
    return editMessage(ctx, message, validateMessageChanges(body, { chatId: message.chatId, messageId: message.id }));
  });
}

/** The author or the chat's owner may delete a message; replies to it keep existing with replyTo null. */
export function deleteMessage(ctx: RequestContext): Reply {
  const { storage, clock } = ctx.services;
  const { access, message } = findChatMessage(ctx);
  const callerId = ctx.caller!.userId;
  if (message.authorId !== callerId && access.ownerId !== callerId) {
    throw new HttpError('ERR_FORBIDDEN', 'Only the author or the chat\'s owner may delete a message');
  }
  checkPreconditions(ctx.req.headers, messageEtag(message));
  const now = clock.now();
  storage.transaction(() => {
    const replies = storage.messages.findReplies(message.id);
    storage.messages.deleteMessage(message.id, now);
    storage.events.append({ type: 'message.deleted', chatId: message.chatId, createdAt: now, data: { id: message.id } });
    // Its replies lose their replyTo: that changes them, so each is told as an update.
    for (const reply of replies) {
      const detached = { ...reply, replyTo: null, updatedAt: now };
      storage.events.append({ type: 'message.updated', chatId: reply.chatId, createdAt: now, data: publicMessage(detached) });
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
export function deleteAllMessages(ctx: RequestContext): Reply {
  const { storage, clock } = ctx.services;
  const access = findVisibleChat(ctx, ctx.params['chatId']!);
  requireOwner(ctx, access, 'delete all messages');
  checkPreconditions(ctx.req.headers, COLLECTION_ETAG);
  storage.transaction(() => {
    storage.messages.deleteChatMessages(access.id);
    storage.events.append({ type: 'messages.cleared', chatId: access.id, createdAt: clock.now(), data: {} });
  });
  return { status: 204 };
}
