// GET /mentions (docs/protocol.md §14.2): the messages that mention the caller, across the chats they are in, newest first.
import type { Reply, RequestContext } from '../context.ts';
import { fieldsOf, type CollectionSpec } from '../../parsers/query.ts';
import { publicMessage } from '../../representations/public-fields.ts';
import type { MessageRow } from '../../storage/store.ts';
import { collectionReply } from '../collection.ts';
import { PATHS } from '../../paths.ts';

export const MENTION_FIELDS: CollectionSpec = {
  fields: fieldsOf({
    id: 'id', chatId: 'id', authorId: 'id', text: 'string', replyTo: 'id', createdAt: 'timestamp', updatedAt: 'timestamp', editedAt: 'timestamp', mentions: 'id-list',
  }),
};

export function listMentions(ctx: RequestContext): Promise<Reply> {
  return collectionReply<MessageRow>(ctx, {
    type: 'message',
    spec: MENTION_FIELDS,
    list: (query) => ctx.services.storage.collections.listMentions(ctx.caller!.userId, query),
    toPublic: (row) => publicMessage(row, ctx.services.config.basePath),
    itemHref: (message) => ctx.href(PATHS.message, { chatId: String(message['chatId']), messageId: String(message['id']) }),
    defaultSort: '-id',
  });
}
