// A member's read marker of a chat (docs/protocol.md §10.1): read it, or move it forward or back ("mark as unread").
import type { Reply, RequestContext } from '../context.ts';
import { checkPreconditions, etagOf } from '../../http/conditional.ts';
import { invalidField } from '../../http/http-error.ts';
import { readJsonBody } from '../../http/json-body.ts';
import { rejectUnknownFields, unwrapEnvelope, type Body } from '../../parsers/body-fields.ts';
import { publicReadMarker } from '../../representations/public-fields.ts';
import { isValidId } from '../../storage/ids.ts';
import type { ReadMarkerRow, Repositories } from '../../storage/store.ts';
import { chatNotFound, findVisibleChat } from '../chats/access.ts';
import { PATHS } from '../../paths.ts';

function markerReply(ctx: RequestContext, row: ReadMarkerRow): Reply {
  const params = { chatId: row.chatId };
  const links = [
    { rel: 'chat', href: ctx.href(PATHS.chat, params) },
    { rel: 'messages', href: ctx.href(PATHS.messages, params) },
  ];
  // The first unread message is the one after the marker: a keyset page from there (docs/protocol.md §6.6).
  if (row.lastReadId !== null) links.push({ rel: 'unread', href: ctx.href(PATHS.messages, params, `after=${encodeURIComponent(row.lastReadId)}`) });
  return { status: 200, representation: { kind: 'single', type: 'read-marker', enveloped: true, data: publicReadMarker(row), links } };
}

/** The caller's marker, read through `db`; the caller is a member (findVisibleChat), so there is one unless they just left. */
async function findMarker(ctx: RequestContext, db: Repositories, chatId: string): Promise<ReadMarkerRow> {
  const marker = await db.readMarkers.findMarker(chatId, ctx.caller!.userId);
  // Left or deleted since the membership was read (another request ran in between): the chat's 404.
  if (!marker) throw chatNotFound(chatId);
  return marker;
}

export async function getReadMarker(ctx: RequestContext): Promise<Reply> {
  const access = await findVisibleChat(ctx, ctx.params['chatId']!);
  return markerReply(ctx, await findMarker(ctx, ctx.services.storage, access.id));
}

/** {"data": {"lastReadId": "<id>" | null, "chatId"?}}: unreadCount is the server's; null marks the whole chat unread. */
function validateMarker(body: Body, chatId: string): string | null {
  const data = unwrapEnvelope(body);
  rejectUnknownFields(data, ['chatId', 'lastReadId', 'unreadCount', 'mentionCount'], 'data.');
  for (const field of ['unreadCount', 'mentionCount']) if (field in data) throw invalidField(`data.${field}`, 'is read-only: the server counts it');
  if (data['chatId'] !== undefined && data['chatId'] !== chatId) throw invalidField('data.chatId', 'must equal the chat id in the path');
  if (!('lastReadId' in data)) throw invalidField('data.lastReadId', 'is required');
  const value = data['lastReadId'];
  if (value !== null && !isValidId(value)) throw invalidField('data.lastReadId', 'must be the id of a message of this chat, or null');
  return value;
}

/**
 * PUT /chats/{id}/read: sets the marker to a message of the chat, forward or back, and recounts. A change
 * appends read.updated for the caller's own streams only (docs/protocol.md §9.4); setting it where it is changes nothing.
 */
export async function putReadMarker(ctx: RequestContext): Promise<Reply> {
  const body = await readJsonBody(ctx, ctx.services.config.maxBodyBytes);
  const { storage, clock } = ctx.services;
  const access = await findVisibleChat(ctx, ctx.params['chatId']!);
  const lastReadId = validateMarker(body, access.id);
  const userId = ctx.caller!.userId;
  // Moving a marker is the most frequent write of a team (every chat switch): it shares a commit with the others of the moment.
  const row = await storage.writeTogether(async (tx) => {
    if (lastReadId !== null && !(await tx.messages.findMessageInChat(access.id, lastReadId))) {
      throw invalidField('data.lastReadId', 'must be the id of a message of this chat');
    }
    const current = await findMarker(ctx, tx, access.id);
    checkPreconditions(ctx.req.headers, etagOf(publicReadMarker(current)));
    if (current.lastReadId === lastReadId) return current;
    const moved = await tx.readMarkers.setMarker(access.id, userId, lastReadId);
    // On PostgreSQL the caller may have left (or the chat gone) since the marker was read: the chat's 404.
    if (moved === undefined) throw chatNotFound(access.id);
    await tx.events.append({ type: 'read.updated', chatId: access.id, createdAt: clock.now(), data: publicReadMarker(moved), onlyUserId: userId });
    return moved;
  });
  return markerReply(ctx, row);
}

