// The edit history of a message (docs/protocol.md §10.3): every version of its text, oldest first, the last one current.
import type { Reply, RequestContext } from '../context.ts';
import { fieldsOf, type CollectionSpec } from '../../parsers/query.ts';
import { publicRevision } from '../../representations/public-fields.ts';
import { HttpError } from '../../http/http-error.ts';
import type { MessageRow, RevisionRow } from '../../storage/store.ts';
import { collectionReply } from '../collection.ts';
import { findAddressedMessage } from '../messages/handlers.ts';
import { PATHS } from '../../paths.ts';
import { singleReply } from '../single-reply.ts';

export const REVISION_FIELDS: CollectionSpec = {
  fields: fieldsOf({
    // A number in SQL, so revision 10 sorts after revision 9; a string in JSON, like every id.
    id: 'number',
    text: 'string', createdAt: 'timestamp',
  }),
};

async function findMessage(ctx: RequestContext): Promise<MessageRow> {
  return (await findAddressedMessage(ctx)).message;
}

/** GET …/revisions, under the chat or at the top level: a collection with the query conventions. */
export async function listRevisions(ctx: RequestContext): Promise<Reply> {
  const message = await findMessage(ctx);
  const params = { chatId: message.chatId, messageId: message.id };
  return collectionReply<RevisionRow>(ctx, {
    type: 'revision',
    spec: REVISION_FIELDS,
    list: (query) => ctx.services.storage.collections.listRevisions(message.id, query),
    toPublic: publicRevision,
    itemHref: (revision) => ctx.href(PATHS.revision, { ...params, revisionId: String(revision['id']) }),
  });
}

/** GET …/revisions/{n}: one version of the text, so every row of the history is addressable. */
export async function getRevision(ctx: RequestContext): Promise<Reply> {
  const message = await findMessage(ctx);
  const revisionId = ctx.params['revisionId']!;
  const row = /^[1-9]\d{0,8}$/.test(revisionId) ? await ctx.services.storage.revisions.findRevision(message.id, Number(revisionId)) : undefined;
  if (!row) throw new HttpError('ERR_NOT_FOUND', `Message ${message.id} has no revision ${revisionId}`);
  const params = { chatId: message.chatId, messageId: message.id };
  return singleReply('revision', publicRevision(row), [
    { rel: 'message', href: ctx.href(PATHS.message, params) },
    { rel: 'collection', href: ctx.href(PATHS.revisions, params) },
  ]);
}
