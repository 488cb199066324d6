// Who may see and change a chat: members see it, the owner changes it; anyone else gets the 404 of a missing chat.
import type { RequestContext } from '../context.ts';
import { HttpError } from '../../http/http-error.ts';
import type { ChatAccess, Repositories } from '../../storage/store.ts';

/**
 * docs/protocol.md §4.1: a chat the caller may not see answers exactly like one that does not exist. Both come
 * from here, with a detail built only from the requested id, so the two answers cannot differ.
 */
export function chatNotFound(chatId: string): HttpError {
  return new HttpError('ERR_NOT_FOUND', `No chat ${chatId}`);
}

/** The chat if the caller is a member, else that 404; read through `db`, the store or an open transaction. */
export async function findVisibleChat(ctx: RequestContext, chatId: string, db: Repositories = ctx.services.storage): Promise<ChatAccess> {
  const userId = ctx.caller!.userId;
  // Outside a transaction, a GET finds a membership kept since nothing was written (storage/read-through.ts).
  const access = await (db === ctx.services.storage ? ctx.kept.reads : db.chats).findChatForMember(chatId, userId);
  if (!access) throw chatNotFound(chatId);
  return access;
}

/** 403 for a member who is not the owner (a non-member has already had the 404). */
export function requireOwner(ctx: RequestContext, access: ChatAccess, what: string): void {
  if (access.ownerId !== ctx.caller!.userId) throw new HttpError('ERR_FORBIDDEN', `Only the chat's owner may ${what}`);
}

/**
 * docs/protocol.md §4.7: an admin moderates a chat by its id (a reported message's link) without being a member.
 * `admin` is whether the caller is an active admin, asked before any transaction (users/roles.ts isAdmin). A member
 * finds their chat as always; an admin any chat; anyone else the 404 of a missing chat.
 */
export async function findModeratedChat(ctx: RequestContext, chatId: string, admin: boolean, db: Repositories = ctx.services.storage): Promise<ChatAccess> {
  const access = await (db === ctx.services.storage ? ctx.kept.reads : db.chats).findChatForMember(chatId, ctx.caller!.userId);
  if (access) return access;
  const chat = admin ? await db.chats.findChat(chatId) : undefined;
  if (!chat) throw chatNotFound(chatId);
  return { id: chat.id, ownerId: chat.ownerId, kind: chat.kind };
}

/** docs/protocol.md §14.1: what a direct chat refuses (adding or removing members, a title, a new owner): 409. */
export function refuseDirectChange(chat: Pick<ChatAccess, 'id' | 'kind'>, what: string): void {
  if (chat.kind === 'direct') throw new HttpError('ERR_DIRECT_CHAT', `Chat ${chat.id} is a direct chat: ${what}`);
}
