// Chats (docs/protocol.md §4.2): create, list the caller's, read, replace or create under a chosen id, patch, delete.
import type { Reply, RequestContext } from '../context.ts';
import { checkPreconditions, etagOf } from '../../http/conditional.ts';
import { invalidField } from '../../http/http-error.ts';
import { readJsonBody } from '../../http/json-body.ts';
import { appendPurging } from '../../events/purge-rule.ts';
import { checkString, type Body } from '../../parsers/body-fields.ts';
import { fieldsOf, type CollectionSpec } from '../../parsers/query.ts';
import { publicChat, publicChatForCaller, publicMember } from '../../representations/public-fields.ts';
import { newId } from '../../storage/ids.ts';
import { isForeignKeyViolation, type ChatForCallerRow, type ChatRow, type MemberRow, type ReadMarkerRow, type Repositories } from '../../storage/store.ts';
import { collectionReply } from '../collection.ts';
import { chatNotFound, refuseDirectChange, requireOwner } from './access.ts';
import { keptReply } from '../kept-reply.ts';
import { CHAT_ID_RULE, isHandOverOnly, validateChat, validateChatChanges, type ChatChanges } from './validate.ts';
import { recordAudit } from '../audit/record.ts';
import { isAdmin } from '../users/roles.ts';
import { PATHS } from '../../paths.ts';
import { singleReply } from '../single-reply.ts';

export const PATCH_TYPES = ['application/json', 'application/merge-patch+json'] as const;

export const CHAT_FIELDS: CollectionSpec = {
  fields: fieldsOf({
    id: 'id', kind: 'string', title: 'string', ownerId: 'id', members: 'id-list', createdAt: 'timestamp', updatedAt: 'timestamp',
    // The caller's own (docs/protocol.md §10.1, §14.2): their read marker, unread and mention counts.
    lastReadId: 'id', unreadCount: 'number', mentionCount: 'number',
  }),
};

/**
 * The chat as the caller reads it: with their read marker and unread count (the caller is a member). `db` is
 * the store, or the transaction the chat was just written in; `marker` the caller's, when it was read with the chat.
 */
async function chatForCaller(ctx: RequestContext, db: Repositories, row: ChatRow, marker?: Pick<ReadMarkerRow, 'lastReadId' | 'unreadCount' | 'mentionCount'>): Promise<Record<string, unknown>> {
  const found = marker ?? await db.readMarkers.findMarker(row.id, ctx.caller!.userId);
  return publicChatForCaller(row, found ?? { lastReadId: null, unreadCount: 0, mentionCount: 0 });
}

export async function chatReply(ctx: RequestContext, db: Repositories, row: ChatRow, status = 200, headers: Record<string, string> = {}, marker?: Pick<ReadMarkerRow, 'lastReadId' | 'unreadCount' | 'mentionCount'>): Promise<Reply> {
  const params = { chatId: row.id };
  return singleReply('chat', await chatForCaller(ctx, db, row, marker), [
    { rel: 'read', href: ctx.href(PATHS.read, params) },
    { rel: 'messages', href: ctx.href(PATHS.messages, params) },
    { rel: 'members', href: ctx.href(PATHS.members, params) },
    { rel: 'owner', href: ctx.href(PATHS.user, { userId: row.ownerId }) },
    { rel: 'collection', href: ctx.href(PATHS.chats) },
  ], { status, headers });
}

/** The current ETag of a chat, exactly as GET would send it to the caller, or null when there is none (RFC 9110 §13.1). */
export async function chatEtag(ctx: RequestContext, db: Repositories, row: ChatRow | undefined): Promise<string | null> {
  return row ? etagOf(await chatForCaller(ctx, db, row)) : null;
}

/**
 * Makes the member list exactly the owner plus memberIds; answers whether anything changed. Call inside a
 * transaction: an unknown id throws 400 after earlier rows were written, and the rollback undoes them.
 */
export async function writeMembers(tx: Repositories, chatId: string, ownerId: string, memberIds: readonly string[], now: number): Promise<boolean> {
  const wanted = [...new Set([ownerId, ...memberIds])];
  const unknown = await tx.chats.findUnknownUsers(wanted);
  if (unknown.length > 0) throw invalidField('data.members', `holds ids that name no user: ${unknown.join(', ')}`);
  let changed = await tx.chats.keepOnlyMembers(chatId, wanted) > 0;
  try {
    for (const userId of wanted) changed = await tx.chats.addMember(chatId, userId, now) || changed;
  } catch (error) {
    // A user deleted between the check and the insert: still the client's 400, never a 500.
    if (isForeignKeyViolation(error)) throw invalidField('data.members', 'holds an id that names no user');
    throw error;
  }
  return changed;
}

/**
 * The events of a change to a chat (docs/protocol.md §9.1), appended in its transaction: member.removed for each member
 * who went (sent to them too, as the last event they get of the chat), member.added for each who came, then
 * chat.updated with the chat as it is now. `before` is the member list read before the change.
 */
export async function appendChatChangeEvents(tx: Repositories, chatId: string, before: readonly MemberRow[], now: number, chatChanged = false): Promise<void> {
  const after = await tx.chats.findMembers(chatId);
  const stayed = new Set(after.map((member) => member.userId));
  const was = new Set(before.map((member) => member.userId));
  let changed = chatChanged;
  for (const member of before) {
    if (!stayed.has(member.userId)) {
      await tx.events.append({ type: 'member.removed', chatId, createdAt: now, data: publicMember(member), alsoUserIds: [member.userId] });
      changed = true;
    }
  }
  for (const member of after) {
    if (!was.has(member.userId)) {
      await tx.events.append({ type: 'member.added', chatId, createdAt: now, data: publicMember(member) });
      changed = true;
    }
  }
  if (changed) await tx.events.append({ type: 'chat.updated', chatId, createdAt: now, data: publicChat(await findChatStill(tx, chatId)) });
}

/**
 * The chat as this transaction sees it after its writes. On PostgreSQL a transaction locks no row it only read,
 * so another request may delete the chat meanwhile: then this write answers that chat's 404 and rolls back.
 */
async function findChatStill(tx: Repositories, chatId: string): Promise<ChatRow> {
  const row = await tx.chats.findChat(chatId);
  if (!row) throw chatNotFound(chatId);
  return row;
}

/** Creates the chat inside the caller's transaction `tx`, its event included. */
async function createChat(ctx: RequestContext, tx: Repositories, id: string, title: string, members: readonly string[]): Promise<Reply> {
  const ownerId = ctx.caller!.userId;
  const now = ctx.services.clock.now();
  await tx.chats.insertChat({ id, kind: 'group', title, ownerId, directKey: null, createdAt: now, updatedAt: now });
  await writeMembers(tx, id, ownerId, members, now);
  const created = (await tx.chats.findChat(id))!;
  await tx.events.append({ type: 'chat.created', chatId: id, createdAt: now, data: publicChat(created) });
  return chatReply(ctx, tx, created, 201, { Location: ctx.href(PATHS.chat, { chatId: id }) });
}

/** POST /chats of a group chat (a direct one is direct.ts's), the body read already. */
export async function postGroupChat(ctx: RequestContext, body: Body): Promise<Reply> {
  const input = validateChat(body);
  return ctx.services.storage.transaction((tx) => createChat(ctx, tx, newId(ctx.services.clock.now()), input.title, input.members));
}

export function listChats(ctx: RequestContext): Promise<Reply> {
  return collectionReply<ChatForCallerRow>(ctx, {
    type: 'chat',
    spec: CHAT_FIELDS,
    list: (query) => ctx.services.storage.collections.listChatsOfMember(ctx.caller!.userId, query),
    toPublic: (row) => publicChatForCaller(row, row),
    itemHref: (chat) => ctx.href(PATHS.chat, { chatId: String(chat['id']) }),
  });
}

export async function getChat(ctx: RequestContext): Promise<Reply> {
  const { storage } = ctx.services;
  const chatId = ctx.params['chatId']!;
  // One read finds the chat, checks the membership and reads the caller's marker; the reply is the caller's own
  // (the route's keep: 'per-caller'), kept while nothing is written.
  const reply = await keptReply(ctx, async () => {
    const found = await storage.chats.findChatForCaller(chatId, ctx.caller!.userId);
    return found ? chatReply(ctx, storage, found, 200, {}, found) : undefined;
  });
  if (!reply) throw chatNotFound(chatId);
  return reply;
}

/**
 * The chat at the path if the caller may see it (or moderate it, `admin`: docs/protocol.md §4.7), undefined if there
 * is none; 404 if it is someone else's.
 */
async function findChatToWrite(ctx: RequestContext, tx: Repositories, chatId: string, admin = false): Promise<ChatRow | undefined> {
  const row = await tx.chats.findChat(chatId);
  if (row && !admin && !row.members.includes(ctx.caller!.userId)) throw chatNotFound(chatId);
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
  const body = await readJsonBody(ctx, ctx.services.config.maxBodyBytes);
  // Looked up and written in one IMMEDIATE transaction: two processes (--workers) putting the same new id at
  // once get one 201 and one 200, never a constraint error.
  return ctx.services.storage.transaction(async (tx) => {
    const current = await findChatToWrite(ctx, tx, chatId);
    if (current) requireOwner(ctx, current, 'replace it');
    if (current) refuseDirectChange(current, 'its members and title cannot be replaced');
    const input = validateChat(body, chatId);
    // RFC 9110 §13.1: If-None-Match: * refuses an existing chat, If-Match: * a missing one, before any write.
    checkPreconditions(ctx.req.headers, await chatEtag(ctx, tx, current));
    if (!current) return createChat(ctx, tx, chatId, input.title, input.members);
    return replaceChat(ctx, tx, current, { title: input.title, members: input.members });
  });
}

/**
 * Applies changes inside the caller's transaction `tx`; updatedAt moves only when something really changed. A new
 * owner (a member now: handOver checked it) takes over first, so a new member list keeps them.
 */
async function replaceChat(ctx: RequestContext, tx: Repositories, current: ChatRow, changes: ChatChanges): Promise<Reply> {
  const now = ctx.services.clock.now();
  const before = await tx.chats.findMembers(current.id);
  const ownerId = changes.ownerId ?? current.ownerId;
  if (ownerId !== current.ownerId) await tx.chats.setChatOwner(current.id, ownerId, now);
  let changed = false;
  if (changes.members !== undefined) changed = await writeMembers(tx, current.id, ownerId, changes.members ?? [], now);
  // Only group chats get here (direct ones are refused first): they always have a title.
  const title = changes.title ?? current.title ?? '';
  const chatChanged = title !== current.title || ownerId !== current.ownerId;
  if (changed || chatChanged) {
    await tx.chats.updateChatTitle(current.id, title, now);
    await appendChatChangeEvents(tx, current.id, before, now, chatChanged);
  }
  return chatReply(ctx, tx, await findChatStill(tx, current.id));
}

/**
 * PATCH /chats/{id}, owner only. `members` replaces the whole list (RFC 7396 replaces arrays whole); the
 * owner stays a member whether listed or not, and `members: null` leaves the owner alone. `title: null`
 * is a 400, as a chat needs a title. `ownerId` hands the chat to a member (docs/protocol.md §4.2): the owner
 * may, and so may an admin, member or not, with nothing else in the body (§4.7; audited).
 */
export async function patchChat(ctx: RequestContext): Promise<Reply> {
  const chatId = ctx.params['chatId']!;
  const body = await readJsonBody(ctx, ctx.services.config.maxBodyBytes, PATCH_TYPES);
  const admin = isHandOverOnly(body) && await isAdmin(ctx);
  // The If-Match check and the write in one transaction, so no other process changes the chat in between.
  return ctx.services.storage.transaction(async (tx) => {
    const current = await findChatToWrite(ctx, tx, chatId, admin);
    if (!current) throw chatNotFound(chatId);
    const moderating = current.ownerId !== ctx.caller!.userId;
    if (moderating && !admin) requireOwner(ctx, current, 'change it');
    const changes = validateChatChanges(body, chatId);
    refuseDirectChange(current, 'its members, title and owner cannot change');
    checkPreconditions(ctx.req.headers, await chatEtag(ctx, tx, current));
    if (changes.ownerId !== undefined && changes.ownerId !== current.ownerId) {
      if (!current.members.includes(changes.ownerId)) throw invalidField('data.ownerId', 'must be a member of the chat: add them first', 'ERR_CONFLICT');
      if (moderating) await recordAudit(tx, ctx, { action: 'chat.transfer', targetType: 'chat', targetId: chatId, detail: { fromId: current.ownerId, toId: changes.ownerId } });
    }
    return replaceChat(ctx, tx, current, changes);
  });
}

/**
 * DELETE /chats/{id}, owner (or an admin, member or not: docs/protocol.md §4.7; audited): the chat, its members and
 * all its messages, in one transaction with the checks, so the members the event names, the owner and the If-Match
 * all speak of the chat that is deleted (a member who leaves, or a chat deleted and created again under its id,
 * between a check and the write cannot slip in).
 */
export async function deleteChat(ctx: RequestContext): Promise<Reply> {
  const { storage, clock } = ctx.services;
  const chatId = ctx.params['chatId']!;
  const admin = await isAdmin(ctx);
  await storage.transaction(async (tx) => {
    const chat = await findChatToWrite(ctx, tx, chatId, admin);
    if (!chat) throw chatNotFound(chatId);
    const moderating = chat.ownerId !== ctx.caller!.userId;
    if (moderating && !admin) requireOwner(ctx, chat, 'delete it');
    checkPreconditions(ctx.req.headers, await chatEtag(ctx, tx, chat));
    if (moderating) {
      await recordAudit(tx, ctx, { action: 'chat.delete', targetType: 'chat', targetId: chatId, detail: { title: chat.title, ownerId: chat.ownerId, members: chat.members.length } });
    }
    await tx.messages.deleteChatMessages(chatId);
    await tx.chats.deleteChat(chatId);
    // The members are gone with the chat: the event names them, so they still hear of it, and a replay's walk back
    // to its resume point knows who was a member. Every earlier event of the chat leaves the log (docs/events.md).
    await appendPurging(tx.events, { type: 'chat.deleted', chatId, createdAt: clock.now(), data: { id: chatId }, alsoUserIds: chat.members });
  });
  return { status: 204 };
}
