// GET /search?q=: full-text search over the caller's messages and chats and over logins (CONTRACT §5), paged like any collection.
import type { Reply, RequestContext } from '../../http/context.ts';
import type { CollectionSpec, FieldSpec } from '../../parsers/query.ts';
import { parseSearchTerms } from '../../parsers/search-terms.ts';
import { publicChatForCaller, publicMessage, publicUser } from '../../representations/public-fields.ts';
import type { Resource } from '../../representations/representation.ts';
import { SEARCH_COLUMNS, searchSource, type SearchHit } from '../../storage/search-store.ts';
import { pageLinks, parseCollectionQuery } from '../collection.ts';
import { CHAT_PATH, MESSAGE_PATH } from '../chats/paths.ts';
import { USER_PATH } from '../users/handlers.ts';

/**
 * The fields every result has, whatever its type: these may be filtered and sorted on
 * (`type=message`, `sort=createdAt`, `createdAt=>2026-01-01`). `chatId` is a message's chat and null
 * for chats and users. A result's other fields are its resource's own and cannot be queried here.
 */
const CREATED_AT: FieldSpec = { name: 'createdAt', type: 'timestamp', column: SEARCH_COLUMNS.createdAt };
export const SEARCH_FIELDS: CollectionSpec = {
  fields: [
    { name: 'type', type: 'string', column: SEARCH_COLUMNS.type },
    { name: 'id', type: 'id', column: SEARCH_COLUMNS.id },
    { name: 'chatId', type: 'id', column: SEARCH_COLUMNS.chatId },
    CREATED_AT,
    { name: 'updatedAt', type: 'timestamp', column: SEARCH_COLUMNS.updatedAt },
  ],
};

export function search(ctx: RequestContext): Reply {
  const query = parseCollectionQuery(ctx, SEARCH_FIELDS, ['q']);
  const terms = parseSearchTerms(query.extra.get('q'));
  // Newest first unless the client sorts (ties by id, newest id first, as the query conventions say).
  if (query.sort.length === 0) query.sort.push({ field: CREATED_AT, direction: 'DESC' });
  const { rows, total } = ctx.services.storage.pages.listPage<SearchHit>(searchSource(ctx.caller!.userId, terms, SEARCH_FIELDS), query);
  return {
    status: 200,
    representation: {
      kind: 'collection',
      type: 'result',
      data: rows.map((hit) => ({ type: hit.type, ...loadResource(ctx, hit) })),
      meta: { total, limit: query.limit, offset: query.offset },
      links: pageLinks(ctx, query, total),
      itemHref: (item) => itemHref(ctx, item),
    },
  };
}

/** The public fields of the resource a hit names; it was read in the same synchronous turn, so it exists. */
function loadResource(ctx: RequestContext, hit: SearchHit): Resource {
  const { storage } = ctx.services;
  const found = hit.type === 'message' ? mapDefined(storage.messages.findMessage(hit.id), publicMessage)
    // A chat found is the caller's, read as they read it: with their own marker and count (CONTRACT §10).
    : hit.type === 'chat' ? mapDefined(storage.chats.findChat(hit.id), (row) => publicChatForCaller(row, storage.readMarkers.findMarker(row.id, ctx.caller!.userId) ?? NO_MARKER))
    : mapDefined(storage.users.findUserById(hit.id), publicUser);
  if (found === undefined) throw new Error(`search: ${hit.type} ${hit.id} vanished between match and load`);
  return found;
}

const NO_MARKER = { lastReadId: null, unreadCount: 0 };

function mapDefined<T>(row: T | undefined, toPublic: (row: T) => Resource): Resource | undefined {
  return row === undefined ? undefined : toPublic(row);
}

function itemHref(ctx: RequestContext, item: Resource): string | undefined {
  const id = String(item['id']);
  switch (item['type']) {
    case 'message': return ctx.href(MESSAGE_PATH, { chatId: String(item['chatId']), messageId: id });
    case 'chat': return ctx.href(CHAT_PATH, { chatId: id });
    case 'user': return ctx.href(USER_PATH, { userId: id });
    default: return undefined;
  }
}
