// The edit history of a message (CONTRACT §10): every version of its text, oldest first, the last one current.
import type { Reply, RequestContext } from '../../http/context.ts';
import type { CollectionSpec } from '../../parsers/query.ts';
import { publicRevision } from '../../representations/public-fields.ts';
import { REVISION_SELECT, REVISION_SELECT_PARAMS, type RevisionRow } from '../../storage/revision-store.ts';
import { collectionReply } from '../collection.ts';
import { findChatMessage, findTopLevelMessage } from '../messages/handlers.ts';

export const REVISION_FIELDS: CollectionSpec = {
  fields: [
    // A number in SQL, so revision 10 sorts after revision 9; a string in JSON, like every id.
    { name: 'id', type: 'number', column: 'v.id' },
    { name: 'text', type: 'string', column: 'v.text' },
    { name: 'createdAt', type: 'timestamp', column: 'v.createdAt' },
  ],
};

/** GET …/revisions, under the chat or at the top level: a collection with the query conventions. */
export function listRevisions(ctx: RequestContext): Reply {
  const { message } = ctx.params['chatId'] === undefined ? findTopLevelMessage(ctx) : findChatMessage(ctx);
  return collectionReply<RevisionRow>(ctx, {
    type: 'revision',
    source: { select: REVISION_SELECT, selectParams: REVISION_SELECT_PARAMS(message.id), spec: REVISION_FIELDS },
    toPublic: publicRevision,
  });
}
