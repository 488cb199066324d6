// Chats (CONTRACT §4): create, list the caller's, read, replace or create under a chosen id, patch, delete.
import type { Reply, RequestContext } from '../../http/context.ts';
import { checkPreconditions, etagOf } from '../../http/conditional.ts';
import { invalidField } from '../../http/http-error.ts';
import { readJsonObject } from '../../http/read-body.ts';
import { checkString } from '../../parsers/body-fields.ts';
import type { CollectionSpec } from '../../parsers/query.ts';
import { publicChat, publicChatForCaller, publicMember } from '../../representations/public-fields.ts';
import { CHAT_FOR_CALLER_SELECT, chatFromRecord, isForeignKeyViolation, type ChatForCallerRecord, type ChatRow, type MemberRow } from '../../storage/chat-store.ts';
import { newId } from '../../storage/ids.ts';
import type { ReadMarkerRow } from '../../storage/read-marker-store.ts';
import type { Storage } from '../../storage/storage.ts';
import { collectionReply } from '../collection.ts';
import { USER_PATH } from '../users/handlers.ts';
import { chatNotFound, findVisibleChat, requireOwner } from './access.ts';
import { CHAT_PATH, CHATS_PATH, MEMBERS_PATH, MESSAGES_PATH, READ_PATH } from './paths.ts';
import { CHAT_ID_RULE, validateChat, validateChatChanges } from './validate.ts';

export const PATCH_TYPES = ['application/json', 'application/merge-patch+json'] as const;

export const CHAT_FIELDS: CollectionSpec = {
  fields: [
    { name: 'id', type: 'id', column: 'c.id' },
    { name: 'title', type: 'string', column: 'c.title' },
    { name: 'ownerId', type: 'id', column: 'c.owner_id' },
    { name: 'members', type: 'id-list', column: 'c.id', containsSql: 'EXISTS (SELECT 1 FROM chat_members f WHERE f.chat_id = c.id AND f.user_id = ?)' },
    { name: 'createdAt', type: 'timestamp', column: 'c.created_at' },
    { name: 'updatedAt', type: 'timestamp', column: 'c.updated_at' },
    // The caller's own (CONTRACT §10), columns of the caller's membership row in CHAT_FOR_CALLER_SELECT.
    { name: 'lastReadId', type: 'id', column: 'me.last_read_id' },
    { name: 'unreadCount', type: 'number', column: 'me.unread_count' },
  ],
};

/** The chat as the caller reads it: with their read marker and unread count (the caller is a member). */
function chatForCaller(ctx: RequestContext, row: ChatRow, marker?: Pick<ReadMarkerRow, 'lastReadId' | 'unreadCount'>): Record<string, unknown> {
  return publicChatForCaller(row, marker ?? ctx.services.storage.readMarkers.findMarker(row.id, ctx.caller!.userId) ?? { lastReadId: null, unreadCount: 0 });
}

/** `marker`: the caller's, when it was read with the chat (else it is looked up). */
export function chatReply(ctx: RequestContext, row: ChatRow, status = 200, headers: Record<string, string> = {}, marker?: Pick<ReadMarkerRow, 'lastReadId' | 'unreadCount'>): Reply {
  const params = { chatId: row.id };
  return {
    status,
    headers,
    representation: {
      kind: 'single',
      type: 'chat',
      enveloped: true,
      data: chatForCaller(ctx, row, marker),
      links: [
        { rel: 'read', href: ctx.href(READ_PATH, params) },
        { rel: 'messages', href: ctx.href(MESSAGES_PATH, params) },
        { rel: 'members', href: ctx.href(MEMBERS_PATH, params) },
        { rel: 'owner', href: ctx.href(USER_PATH, { userId: row.ownerId }) },
        { rel: 'collection', href: ctx.href(CHATS_PATH) },
      ],
    },
  };
}

/** The current ETag of a chat, exactly as GET would send it to the caller, or null when there is none (RFC 9110 §13.1). */
export function chatEtag(ctx: RequestContext, row: ChatRow | undefined): string | null {
  return row ? etagOf(chatForCaller(ctx, row)) : null;
}

/**
 * Makes the member list exactly the owner plus memberIds; answers whether anything changed. Call inside a
 * transaction: an unknown id throws 400 after earlier rows were written, and the rollback undoes them.
 */
export function writeMembers(storage: Storage, chatId: string, ownerId: string, memberIds: readonly string[], now: number): boolean {
  const wanted = [...new Set([ownerId, ...memberIds])];
  const unknown = storage.chats.findUnknownUsers(wanted);
  if (unknown.length > 0) throw invalidField('data.members', `holds ids that name no user: ${unknown.join(', ')}`);
  let changed = storage.chats.keepOnlyMembers(chatId, wanted) > 0;
  try {
    for (const userId of wanted) changed = storage.chats.addMember(chatId, userId, now) || changed;
  } catch (error) {
    // A user deleted between the check and the insert: still the client's 400, never a 500.
    if (isForeignKeyViolation(error)) throw invalidField('data.members', 'holds an id that names no user');
    throw error;
  }
  return changed;
}

/**
 * The events of a change to a chat (CONTRACT §9), appended in its transaction: member.removed for each member
 * who went (sent to them too, as the last event they get of the chat), member.added for each who came, then
 * chat.updated with the chat as it is now. `before` is the member list read before the change.
 */
export function appendChatChangeEvents(storage: Storage, chatId: string, before: readonly MemberRow[], now: number, titleChanged = false): void {
  const after = storage.chats.findMembers(chatId);
  const stayed = new Set(after.map((member) => member.userId));
  const was = new Set(before.map((member) => member.userId));
  let changed = titleChanged;
  for (const member of before) {
    if (!stayed.has(member.userId)) {
      storage.events.append({ type: 'member.removed', chatId, createdAt: now, data: publicMember(member), alsoUserIds: [member.userId] });
      changed = true;
    }
  }
  for (const member of after) {
    if (!was.has(member.userId)) {
      storage.events.append({ type: 'member.added', chatId, createdAt: now, data: publicMember(member) });
      changed = true;
    }
  }
  if (changed) storage.events.append({ type: 'chat.updated', chatId, createdAt: now, data: publicChat(storage.chats.findChat(chatId)!) });
}

function createChat(ctx: RequestContext, id: string, title: string, members: readonly string[]): Reply {
  const { storage, clock } = ctx.services;
  const ownerId = ctx.caller!.userId;
  const now = clock.now();
  const row = storage.transaction(() => {
    storage.chats.insertChat({ id, title, ownerId, createdAt: now, updatedAt: now });
    writeMembers(storage, id, ownerId, members, now);
    const created = storage.chats.findChat(id)!;
    storage.events.append({ type: 'chat.created', chatId: id, createdAt: now, data: publicChat(created) });
    return created;
  });
  return chatReply(ctx, row, 201, { Location: ctx.href(CHAT_PATH, { chatId: id }) });
}

export async function postChat(ctx: RequestContext): Promise<Reply> {
  const input = validateChat(await readJsonObject(ctx.req, ctx.services.config.maxBodyBytes));
  return createChat(ctx, newId(ctx.services.clock.now()), input.title, input.members);
}

export function listChats(ctx: RequestContext): Reply {
  return collectionReply<ChatForCallerRecord>(ctx, {
    type: 'chat',
    source: {
      select: CHAT_FOR_CALLER_SELECT,
      scope: 'me.user_id = ?',
      scopeParams: [ctx.caller!.userId],
      spec: CHAT_FIELDS,
    },
    toPublic: (record) => publicChatForCaller(chatFromRecord(record), record),
    itemHref: (chat) => ctx.href(CHAT_PATH, { chatId: String(chat['id']) }),
  });
}

/** One statement finds the chat, checks the membership and reads the caller's marker (issue #22: it was four). */
export function getChat(ctx: RequestContext): Reply {
  const chatId = ctx.params['chatId']!;
  const found = ctx.services.storage.chats.findChatForCaller(chatId, ctx.caller!.userId);
  if (!found) throw chatNotFound(chatId);
  return chatReply(ctx, found, 200, {}, found);
}

/** The chat at the path if the caller may see it, undefined if there is none; 404 if it is someone else's. */
function findChatToWrite(ctx: RequestContext, chatId: string): ChatRow | undefined {
  const row = ctx.services.storage.chats.findChat(chatId);
  if (row && !row.members.includes(ctx.caller!.userId)) throw chatNotFound(chatId);
  return row;
}

/**
 * PUT /chats/{id}: creates the chat (201) when the id is free, else replaces title and members (owner
 * only, 200). An id held by a chat the caller cannot see answers the same 404 as GET: nothing is created
 * or changed and nothing tells that chat apart from a missing one, except that PUT did not create it
 * (ids are global). The body is read before the chat is looked up, so no other request can create or
 * change the chat between the lookup and the write.
 */
export async function putChat(ctx: RequestContext): Promise<Reply> {
  const chatId = ctx.params['chatId']!;
  checkString(chatId, 'chatId', CHAT_ID_RULE);
  const body = await readJsonObject(ctx.req, ctx.services.config.maxBodyBytes);
  // Looked up and written in one IMMEDIATE transaction: two processes (--workers) putting the same new id at
  // once get one 201 and one 200, never a constraint error.
  return ctx.services.storage.transaction(() => {
    const current = findChatToWrite(ctx, chatId);
    if (current) requireOwner(ctx, current, 'replace it');
    const input = validateChat(body, chatId);
    // RFC 9110 §13.1: If-None-Match: * refuses an existing chat, If-Match: * a missing one, before any write.
    checkPreconditions(ctx.req.headers, chatEtag(ctx, current));
    if (!current) return createChat(ctx, chatId, input.title, input.members);
    return replaceChat(ctx, current, { title: input.title, members: input.members });
  });
}

/** Applies changes in one transaction; updatedAt moves only when something really changed. */
function replaceChat(ctx: RequestContext, current: ChatRow, changes: { title?: string; members?: string[] | null }): Reply {
  const { storage, clock } = ctx.services;
  const now = clock.now();
  const row = storage.transaction(() => {
    const before = storage.chats.findMembers(current.id);
    let changed = false;
    if (changes.members !== undefined) changed = writeMembers(storage, current.id, current.ownerId, changes.members ?? [], now);
    const title = changes.title ?? current.title;
    if (title !== current.title) changed = true;
    if (changed) {
      storage.chats.updateChatTitle(current.id, title, now);
      appendChatChangeEvents(storage, current.id, before, now, title !== current.title);
    }
    return storage.chats.findChat(current.id)!;
  });
  return chatReply(ctx, row);
}

/**
 * PATCH /chats/{id}, owner only. `members` replaces the whole list (RFC 7396 replaces arrays whole); the
 * owner stays a member whether listed or not, and `members: null` leaves the owner alone. `title: null`
 * is a 400, as a chat needs a title.
 */
export async function patchChat(ctx: RequestContext): Promise<Reply> {
  const chatId = ctx.params['chatId']!;
  const body = await readJsonObject(ctx.req, ctx.services.config.maxBodyBytes, PATCH_TYPES);
  // The If-Match check and the write in one transaction, so no other process changes the chat in between.
  return ctx.services.storage.transaction(() => {
    const current = findChatToWrite(ctx, chatId);
    if (!current) throw chatNotFound(chatId);
    requireOwner(ctx, current, 'change it');
    const changes = validateChatChanges(body, chatId);
    checkPreconditions(ctx.req.headers, chatEtag(ctx, current));
    return replaceChat(ctx, current, changes);
  });
}

/** DELETE /chats/{id}, owner only: the chat, its members and all its messages, in one transaction. */
export function deleteChat(ctx: RequestContext): Reply {
  const { storage, clock } = ctx.services;
  const access = findVisibleChat(ctx, ctx.params['chatId']!);
  requireOwner(ctx, access, 'delete it');
  const chat = storage.chats.findChat(access.id);
  checkPreconditions(ctx.req.headers, chatEtag(ctx, chat));
  storage.transaction(() => {
    storage.messages.deleteChatMessages(access.id);
    storage.chats.deleteChat(access.id);
    // The members are gone with the chat: the event names them, so they still hear of it.
    storage.events.append({ type: 'chat.deleted', chatId: access.id, createdAt: clock.now(), data: { id: access.id }, alsoUserIds: chat!.members });
  });
  return { status: 204 };
}
