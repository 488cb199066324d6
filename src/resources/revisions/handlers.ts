// The edit history of a message (CONTRACT §10): every version of its text, oldest first, the last one current.
import type { Reply, RequestContext } from '../context.ts';
import type { CollectionSpec } from '../../parsers/query.ts';
import { publicRevision } from '../../representations/public-fields.ts';
import { HttpError } from '../../http/http-error.ts';
import type { MessageRow, RevisionRow } from '../../storage/store.ts';
import { MESSAGE_PATH, REVISION_PATH, REVISIONS_PATH } from '../chats/paths.ts';
import { collectionReply } from '../collection.ts';
import { findAddressedMessage } from '../messages/handlers.ts';

export const REVISION_FIELDS: CollectionSpec = {
  fields: [
    // A number in SQL, so revision 10 sorts after revision 9; a string in JSON, like every id.
    { name: 'id', type: 'number' },
    { name: 'text', type: 'string' },
    { name: 'createdAt', type: 'timestamp' },
  ],
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
    itemHref: (revision) => ctx.href(REVISION_PATH, { ...params, revisionId: String(revision['id']) }),
  });
}

/** GET …/revisions/{n}: one version of the text, so every row of the history is addressable. */
export async function getRevision(ctx: RequestContext): Promise<Reply> {
  const message = await findMessage(ctx);
  const revisionId = ctx.params['revisionId']!;
  const row = /^[1-9]\d{0,8}$/.test(revisionId) ? await ctx.services.storage.revisions.findRevision(message.id, Number(revisionId)) : undefined;
  if (!row) throw new HttpError('ERR_NOT_FOUND', `Message ${message.id} has no revision ${revisionId}`);
  const params = { chatId: message.chatId, messageId: message.id };
  return {
    status: 200,
    representation: {
      kind: 'single',
      type: 'revision',
      enveloped: true,
      data: publicRevision(row),
      links: [
        { rel: 'message', href: ctx.href(MESSAGE_PATH, params) },
        { rel: 'collection', href: ctx.href(REVISIONS_PATH, params) },
      ],
    },
  };
}
