// Members of a chat (CONTRACT §4): list and read for members; the owner adds and removes; a member may leave.
import type { Reply, RequestContext } from '../../http/context.ts';
import { checkPreconditions, etagOf } from '../../http/conditional.ts';
import { HttpError, invalidField } from '../../http/http-error.ts';
import { readJsonObject } from '../../http/read-body.ts';
import { rejectUnknownFields, unwrapEnvelope } from '../../parsers/body-fields.ts';
import type { CollectionSpec } from '../../parsers/query.ts';
import { publicMember } from '../../representations/public-fields.ts';
import { MEMBER_SELECT, type MemberRow } from '../../storage/chat-store.ts';
import { collectionReply } from '../collection.ts';
import { USER_PATH } from '../users/handlers.ts';
import { findVisibleChat, requireOwner } from '../chats/access.ts';
import { appendChatChangeEvents } from '../chats/handlers.ts';
import { CHAT_PATH, MEMBERS_PATH } from '../chats/paths.ts';

export const MEMBER_FIELDS: CollectionSpec = {
  idField: 'userId',
  fields: [
    { name: 'id', type: 'id', column: 'cm.user_id' },
    { name: 'userId', type: 'id', column: 'cm.user_id' },
    { name: 'login', type: 'string', column: 'u.login' },
    { name: 'addedAt', type: 'timestamp', column: 'cm.added_at' },
  ],
};

function memberEtag(row: MemberRow | undefined): string | null {
  return row ? etagOf(publicMember(row)) : null;
}

function memberNotFound(chatId: string, userId: string): HttpError {
  return new HttpError('ERR_NOT_FOUND', `User ${userId} is not a member of chat ${chatId}`);
}

export function listMembers(ctx: RequestContext): Reply {
  const access = findVisibleChat(ctx, ctx.params['chatId']!);
  return collectionReply<MemberRow>(ctx, {
    type: 'member',
    source: { select: MEMBER_SELECT, scope: 'cm.chat_id = ?', scopeParams: [access.id], spec: MEMBER_FIELDS },
    toPublic: publicMember,
    itemHref: (member) => ctx.href(USER_PATH, { userId: String(member['userId']) }),
  });
}

export function getMember(ctx: RequestContext): Reply {
  const access = findVisibleChat(ctx, ctx.params['chatId']!);
  const userId = ctx.params['userId']!;
  const row = ctx.services.storage.chats.findMember(access.id, userId);
  if (!row) throw memberNotFound(access.id, userId);
  return {
    status: 200,
    representation: {
      kind: 'single',
      type: 'member',
      enveloped: true,
      data: publicMember(row),
      links: [
        { rel: 'user', href: ctx.href(USER_PATH, { userId }) },
        { rel: 'chat', href: ctx.href(CHAT_PATH, { chatId: access.id }) },
        { rel: 'collection', href: ctx.href(MEMBERS_PATH, { chatId: access.id }) },
      ],
    },
  };
}

/** A body is optional; if sent, it is {"data": {}} or {"data": {"id"?, "userId"?}} with the user id of the path. */
async function readOptionalMemberBody(ctx: RequestContext, userId: string): Promise<void> {
  const { headers } = ctx.req;
  const hasBody = (headers['content-length'] !== undefined && headers['content-length'] !== '0') || headers['transfer-encoding'] !== undefined;
  if (!hasBody) return;
  const data = unwrapEnvelope(await readJsonObject(ctx.req, ctx.services.config.maxBodyBytes));
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
  const access = findVisibleChat(ctx, ctx.params['chatId']!);
  requireOwner(ctx, access, 'add members');
  if (!storage.users.findUserById(userId)) throw invalidField('userId', 'names no user');
  storage.transaction(() => {
    const current = storage.chats.findMember(access.id, userId);
    checkPreconditions(ctx.req.headers, memberEtag(current));
    if (current) return;
    const now = clock.now();
    const before = storage.chats.findMembers(access.id);
    storage.chats.addMember(access.id, userId, now);
    storage.chats.touchChat(access.id, now);
    appendChatChangeEvents(storage, access.id, before, now);
  });
  return { status: 204 };
}

/**
 * DELETE /chats/{id}/members/{userId}: the owner removes anyone but themself, a member removes themself
 * (leaves). The owner cannot leave: a chat always has its owner among its members (delete the chat
 * instead). The member's messages stay in the chat.
 */
export function deleteMember(ctx: RequestContext): Reply {
  const { storage, clock } = ctx.services;
  const callerId = ctx.caller!.userId;
  const userId = ctx.params['userId']!;
  const access = findVisibleChat(ctx, ctx.params['chatId']!);
  if (userId !== callerId) requireOwner(ctx, access, 'remove other members');
  const current = storage.chats.findMember(access.id, userId);
  if (!current) throw memberNotFound(access.id, userId);
  if (userId === access.ownerId) throw new HttpError('ERR_FORBIDDEN', 'The owner cannot leave the chat; delete the chat instead');
  checkPreconditions(ctx.req.headers, memberEtag(current));
  const now = clock.now();
  storage.transaction(() => {
    const before = storage.chats.findMembers(access.id);
    storage.chats.removeMember(access.id, userId);
    storage.chats.touchChat(access.id, now);
    appendChatChangeEvents(storage, access.id, before, now);
  });
  return { status: 204 };
}

