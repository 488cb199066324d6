// Members of a chat (docs/protocol.md §4.3): list and read for members; the owner adds and removes; a member may leave.
import type { Reply, RequestContext } from '../context.ts';
import { checkPreconditions, etagOf } from '../../http/conditional.ts';
import { HttpError, invalidField } from '../../http/http-error.ts';
import { readJsonBody } from '../../http/json-body.ts';
import { rejectUnknownFields, unwrapEnvelope } from '../../parsers/body-fields.ts';
import { fieldsOf, type CollectionSpec } from '../../parsers/query.ts';
import { publicMember } from '../../representations/public-fields.ts';
import type { MemberRow } from '../../storage/store.ts';
import { collectionReply } from '../collection.ts';
import { recordAudit } from '../audit/record.ts';
import { findModeratedChat, findVisibleChat, refuseDirectChange, requireOwner } from '../chats/access.ts';
import { isAdmin } from '../users/roles.ts';
import { appendChatChangeEvents } from '../chats/handlers.ts';
import { PATHS } from '../../paths.ts';
import { singleReply } from '../single-reply.ts';

export const MEMBER_FIELDS: CollectionSpec = {
  idField: 'userId',
  fields: fieldsOf({ id: 'id', userId: 'id', login: 'string', addedAt: 'timestamp' }),
};

function memberEtag(row: MemberRow | undefined): string | null {
  return row ? etagOf(publicMember(row)) : null;
}

function memberNotFound(chatId: string, userId: string): HttpError {
  return new HttpError('ERR_NOT_FOUND', `User ${userId} is not a member of chat ${chatId}`);
}

export async function listMembers(ctx: RequestContext): Promise<Reply> {
  const access = await findVisibleChat(ctx, ctx.params['chatId']!);
  return collectionReply<MemberRow>(ctx, {
    type: 'member',
    spec: MEMBER_FIELDS,
    list: (query) => ctx.services.storage.collections.listMembers(access.id, query),
    toPublic: publicMember,
    itemHref: (member) => ctx.href(PATHS.user, { userId: String(member['userId']) }),
  });
}

export async function getMember(ctx: RequestContext): Promise<Reply> {
  const access = await findVisibleChat(ctx, ctx.params['chatId']!);
  const userId = ctx.params['userId']!;
  const row = await ctx.services.storage.chats.findMember(access.id, userId);
  if (!row) throw memberNotFound(access.id, userId);
  return singleReply('member', publicMember(row), [
    { rel: 'user', href: ctx.href(PATHS.user, { userId }) },
    { rel: 'chat', href: ctx.href(PATHS.chat, { chatId: access.id }) },
    { rel: 'collection', href: ctx.href(PATHS.members, { chatId: access.id }) },
  ]);
}

/** A body is optional; if sent, it is {"data": {}} or {"data": {"id"?, "userId"?}} with the user id of the path. */
async function readOptionalMemberBody(ctx: RequestContext, userId: string): Promise<void> {
  const { headers } = ctx.req;
  const hasBody = (headers['content-length'] !== undefined && headers['content-length'] !== '0') || headers['transfer-encoding'] !== undefined;
  if (!hasBody) return;
  const data = unwrapEnvelope(await readJsonBody(ctx, ctx.services.config.maxBodyBytes));
  rejectUnknownFields(data, ['id', 'userId'], 'data.');
  for (const field of ['id', 'userId']) {
    if (data[field] !== undefined && data[field] !== userId) throw invalidField(`data.${field}`, 'must equal the user id in the path');
  }
}

/** PUT /chats/{id}/members/{userId}: the owner adds a user (204); adding a member again changes nothing. */
export async function putMember(ctx: RequestContext): Promise<Reply> {
  const { storage, clock } = ctx.services;
  const userId = ctx.params['userId']!;
  await readOptionalMemberBody(ctx, userId);
  const access = await findVisibleChat(ctx, ctx.params['chatId']!);
  requireOwner(ctx, access, 'add members');
  refuseDirectChange(access, 'it keeps its two members');
  if (!(await storage.users.findUserById(userId))) throw invalidField('userId', 'names no user');
  await storage.transaction(async (tx) => {
    const current = await tx.chats.findMember(access.id, userId);
    checkPreconditions(ctx.req.headers, memberEtag(current));
    if (current) return;
    const now = clock.now();
    const before = await tx.chats.findMembers(access.id);
    await tx.chats.addMember(access.id, userId, now);
    await tx.chats.touchChat(access.id, now);
    await appendChatChangeEvents(tx, access.id, before, now);
  });
  return { status: 204 };
}

/**
 * DELETE /chats/{id}/members/{userId}: the owner removes anyone but themself, a member removes themself
 * (leaves), an admin removes anyone but the owner, member or not (docs/protocol.md §4.7; audited). The owner
 * cannot leave: a chat always has its owner among its members (hand it over, or delete it). The member's
 * messages stay in the chat.
 */
export async function deleteMember(ctx: RequestContext): Promise<Reply> {
  const { storage, clock } = ctx.services;
  const callerId = ctx.caller!.userId;
  const userId = ctx.params['userId']!;
  const admin = await isAdmin(ctx);
  const access = await findModeratedChat(ctx, ctx.params['chatId']!, admin);
  const moderating = userId !== callerId && access.ownerId !== callerId;
  if (moderating && !admin) requireOwner(ctx, access, 'remove other members');
  const current = await storage.chats.findMember(access.id, userId);
  if (!current) throw memberNotFound(access.id, userId);
  // docs/protocol.md §14.1: either person of a direct chat may leave it (it stays for the other); nobody removes them.
  if (userId !== callerId) refuseDirectChange(access, 'each person may only leave it');
  if (userId === access.ownerId && access.kind !== 'direct') {
    throw new HttpError('ERR_FORBIDDEN', 'The owner cannot leave the chat; hand it over (PATCH ownerId) or delete the chat instead');
  }
  checkPreconditions(ctx.req.headers, memberEtag(current));
  const now = clock.now();
  await storage.transaction(async (tx) => {
    if (moderating) await recordAudit(tx, ctx, { action: 'member.remove', targetType: 'member', targetId: userId, detail: { chatId: access.id } });
    const before = await tx.chats.findMembers(access.id);
    await tx.chats.removeMember(access.id, userId);
    // The owner of a direct chat who leaves hands it to the other person, if they are still in it.
    const heir = userId === access.ownerId ? before.find((member) => member.userId !== userId) : undefined;
    if (heir) await tx.chats.setChatOwner(access.id, heir.userId, now);
    await tx.chats.touchChat(access.id, now);
    await appendChatChangeEvents(tx, access.id, before, now, heir !== undefined);
  });
  return { status: 204 };
}

