// Reactions to a message (docs/protocol.md §10.2): any member adds or removes their own; everyone reads them.
import type { Reply, RequestContext } from '../context.ts';
import { HttpError } from '../../http/http-error.ts';
import { fieldsOf, type CollectionSpec } from '../../parsers/query.ts';
import { publicReaction } from '../../representations/public-fields.ts';
import type { MessageRow, ReactionRow } from '../../storage/store.ts';
import { collectionReply } from '../collection.ts';
import { findAddressedMessage } from '../messages/handlers.ts';
import { validateEmoji, validateEmojiBody } from './validate.ts';
import { readJsonBody } from '../../http/json-body.ts';
import { PATHS } from '../../paths.ts';
import { singleReply } from '../single-reply.ts';

export const REACTION_FIELDS: CollectionSpec = {
  idField: 'seq',
  fields: [
    ...fieldsOf({ emoji: 'string', userId: 'id', createdAt: 'timestamp' }),
    // A reaction has no id: the order it was made in is the default order and breaks ties.
    { name: 'seq', type: 'number', hidden: true },
  ],
};

/** The reaction, linked under its message's chat (the caller found the message, so its chat is known). */
function reactionReply(ctx: RequestContext, message: MessageRow, row: ReactionRow, status: number): Reply {
  const params = { chatId: message.chatId, messageId: message.id };
  // RFC 9110 §15.3.2: a 201 names what it created; GET of it is the caller's reaction.
  const headers: Record<string, string> = status === 201 ? { Location: ctx.href(PATHS.reaction, { ...params, emoji: row.emoji }) } : {};
  return singleReply('reaction', publicReaction(row), [
    { rel: 'message', href: ctx.href(PATHS.message, params) },
    { rel: 'collection', href: ctx.href(PATHS.reactions, params) },
    { rel: 'user', href: ctx.href(PATHS.user, { userId: row.userId }) },
  ], { status, headers });
}

function reactionNotFound(messageId: string, emoji: string): HttpError {
  return new HttpError('ERR_NOT_FOUND', `You have no reaction ${JSON.stringify(emoji)} to message ${messageId}`);
}

/** GET …/reactions/{emoji}: the caller's own reaction with that emoji (the resource PUT creates), or 404. */
export async function getReaction(ctx: RequestContext): Promise<Reply> {
  const emoji = validateEmoji(ctx.params['emoji']!);
  const { message } = await findAddressedMessage(ctx);
  const row = await ctx.services.storage.reactions.findReaction(message.id, emoji, ctx.caller!.userId);
  if (!row) throw reactionNotFound(message.id, emoji);
  return reactionReply(ctx, message, row, 200);
}

/**
 * PUT …/reactions/{emoji}: adds the caller's reaction, 201 with it when new, 204 when it was already there
 * (PUT is idempotent: the second one changes nothing and sends no event). The unique index decides, so two
 * concurrent PUTs of one user count once.
 */
export function putReaction(ctx: RequestContext): Promise<Reply> {
  return addReaction(ctx, validateEmoji(ctx.params['emoji']!));
}

/**
 * POST …/reactions {"emoji": "…"}: the same as PUT …/reactions/{emoji}, with the emoji in the body, so an HTML form
 * can react with any emoji typed into a field (docs/protocol.md §10.2, docs/html.md).
 */
export async function postReaction(ctx: RequestContext): Promise<Reply> {
  const body = await readJsonBody(ctx, ctx.services.config.maxBodyBytes);
  return addReaction(ctx, validateEmojiBody(body));
}

async function addReaction(ctx: RequestContext, emoji: string): Promise<Reply> {
  const { storage, clock } = ctx.services;
  const { message } = await findAddressedMessage(ctx);
  const row: ReactionRow = { messageId: message.id, emoji, userId: ctx.caller!.userId, createdAt: clock.now() };
  // A reaction shares the commit of the moment's other writes (group commit), as a post does.
  const added = await storage.writeTogether(async (tx) => {
    if (!(await tx.reactions.addReaction(row))) return false;
    await tx.events.append({ type: 'reaction.added', chatId: message.chatId, createdAt: row.createdAt, data: publicReaction(row, true), subjectId: message.id });
    return true;
  });
  return added ? reactionReply(ctx, message, row, 201) : { status: 204 };
}

/** DELETE …/reactions/{emoji}: removes the caller's reaction (204), 404 when they had none. */
export async function deleteReaction(ctx: RequestContext): Promise<Reply> {
  const emoji = validateEmoji(ctx.params['emoji']!);
  const { storage, clock } = ctx.services;
  const { message } = await findAddressedMessage(ctx);
  const userId = ctx.caller!.userId;
  await storage.writeTogether(async (tx) => {
    const row = await tx.reactions.findReaction(message.id, emoji, userId);
    if (!row || !(await tx.reactions.removeReaction(message.id, emoji, userId))) throw reactionNotFound(message.id, emoji);
    await tx.events.append({ type: 'reaction.removed', chatId: message.chatId, createdAt: clock.now(), data: publicReaction(row, true), subjectId: message.id });
  });
  return { status: 204 };
}

/** GET …/reactions: every user's reaction to the message, one row each, in the order they were made. */
export async function listReactions(ctx: RequestContext): Promise<Reply> {
  const { message } = await findAddressedMessage(ctx);
  return collectionReply<ReactionRow>(ctx, {
    type: 'reaction',
    spec: REACTION_FIELDS,
    list: (query) => ctx.services.storage.collections.listReactions(message.id, query),
    toPublic: (row) => publicReaction(row),
    itemHref: (reaction) => ctx.href(PATHS.user, { userId: String(reaction['userId']) }),
  });
}
