// The actions a caller may take on a message right now (docs/protocol.md §4.5): a collection of {id, method, href}.
import type { Reply, RequestContext } from '../context.ts';
import { fieldsOf, type CollectionSpec } from '../../parsers/query.ts';
import { publicAction } from '../../representations/public-fields.ts';
import type { PublicAction } from '../../representations/schemas.ts';
import type { ChatAccess, MessageRow } from '../../storage/store.ts';
import { collectionReply } from '../collection.ts';
import { findChatMessage, findTopLevelMessage } from '../messages/handlers.ts';
import { isAdmin } from '../users/roles.ts';
import { PATHS } from '../../paths.ts';

export interface ActionRow {
  id: string;
  method: NonNullable<PublicAction['method']>;
  href: string;
}

export const ACTION_FIELDS: CollectionSpec = {
  fields: fieldsOf({ id: 'id', method: 'string', href: 'string' }),
};

/**
 * The same rules the write handlers enforce: reply and react for members, edit for the author, delete for the author,
 * the owner or an admin (`admin`: the caller is an active admin).
 */
export function actionsFor(ctx: RequestContext, access: ChatAccess, message: MessageRow, admin: boolean): ActionRow[] {
  const callerId = ctx.caller!.userId;
  const messageHref = ctx.href(PATHS.message, { chatId: message.chatId, messageId: message.id });
  // The caller is a member (else they had a 404), and every member may reply.
  const actions: ActionRow[] = [{ id: 'reply', method: 'POST', href: ctx.href(PATHS.messages, { chatId: message.chatId }) }];
  if (message.authorId === callerId) actions.push({ id: 'edit', method: 'PATCH', href: messageHref });
  if (message.authorId === callerId || access.ownerId === callerId || admin) actions.push({ id: 'delete', method: 'DELETE', href: messageHref });
  // docs/protocol.md §4.5: {emoji} stays in the href as a URI template (RFC 6570) for the client to fill, percent-encoded.
  actions.push({ id: 'react', method: 'PUT', href: `${ctx.href(PATHS.reactions, { chatId: message.chatId, messageId: message.id })}/{emoji}` });
  return actions;
}

async function actionsReply(ctx: RequestContext, found: { access: ChatAccess; message: MessageRow }): Promise<Reply> {
  const callerId = ctx.caller!.userId;
  // Asked only when the caller's own rights do not already allow the delete.
  const admin = found.message.authorId !== callerId && found.access.ownerId !== callerId && await isAdmin(ctx);
  const actions = actionsFor(ctx, found.access, found.message, admin);
  return collectionReply<ActionRow>(ctx, {
    type: 'action',
    spec: ACTION_FIELDS,
    // Computed, not stored: paged by the store so that it answers the same query conventions (filter, sort,
    // limit, meta, Link) as every stored collection, with no second implementation of them.
    list: (query) => ctx.services.storage.collections.listActions(actions, query),
    toPublic: publicAction,
  });
}

export async function listMessageActions(ctx: RequestContext): Promise<Reply> {
  return actionsReply(ctx, await findChatMessage(ctx));
}

export async function listTopLevelMessageActions(ctx: RequestContext): Promise<Reply> {
  return actionsReply(ctx, await findTopLevelMessage(ctx));
}
