// GET /search?q=: full-text search over the caller's messages and chats and over logins (docs/protocol.md §5), paged like any collection.
import type { Reply, RequestContext } from '../context.ts';
import { fieldsOf, type CollectionSpec, type FieldSpec } from '../../parsers/query.ts';
import { parseSearchTerms } from '../../parsers/search-terms.ts';
import { publicChatForCaller, publicMessage, publicUser } from '../../representations/public-fields.ts';
import { presenceOf } from '../users/handlers.ts';
import type { Resource } from '../../representations/representation.ts';
import type { Repositories, SearchHit } from '../../storage/store.ts';
import { pageLinks, parseCollectionQuery } from '../collection.ts';
import { PATHS } from '../../paths.ts';

/**
 * The fields every result has, whatever its type: these may be filtered and sorted on
 * (`type=message`, `sort=createdAt`, `createdAt=>2026-01-01`). `chatId` is a message's chat and null
 * for chats and users. A result's other fields are its resource's own and cannot be queried here.
 */
const CREATED_AT: FieldSpec = { name: 'createdAt', type: 'timestamp' };
export const SEARCH_FIELDS: CollectionSpec = {
  fields: fieldsOf({ type: 'string', id: 'id', chatId: 'id', createdAt: 'timestamp', updatedAt: 'timestamp' }),
};

export async function search(ctx: RequestContext): Promise<Reply> {
  const query = parseCollectionQuery(ctx, SEARCH_FIELDS, ['q']);
  const terms = parseSearchTerms(query.extra.get('q'));
  // Newest first unless the client sorts (ties by id, newest id first, as the query conventions say).
  if (query.sort.length === 0) query.sort.push({ field: CREATED_AT, direction: 'DESC' });
  // The matches and the resources they name are read in one snapshot: nothing found can vanish before it is loaded.
  const { data, total } = await ctx.services.storage.snapshot(async (tx) => {
    const page = await tx.collections.search(ctx.caller!.userId, terms, query);
    const loaded: Resource[] = [];
    for (const hit of page.rows) loaded.push({ type: hit.type, ...await loadResource(ctx, tx, hit) });
    return { data: loaded, total: page.total };
  });
  return {
    status: 200,
    representation: {
      kind: 'collection',
      type: 'result',
      data,
      meta: { total, limit: query.limit, offset: query.offset },
      links: pageLinks(ctx, query, total),
      itemHref: (item) => itemHref(ctx, item),
    },
  };
}

/** The public fields of the resource a hit names; it was read in the same snapshot, so it exists. */
async function loadResource(ctx: RequestContext, tx: Repositories, hit: SearchHit): Promise<Resource> {
  let found: Resource | undefined;
  if (hit.type === 'message') {
    found = mapDefined(await tx.messages.findMessage(hit.id), (row) => publicMessage(row, ctx.services.config.basePath));
  } else if (hit.type === 'chat') {
    // A chat found is the caller's, read as they read it: with their own marker and count (docs/protocol.md §10.1).
    const marker = await tx.readMarkers.findMarker(hit.id, ctx.caller!.userId);
    found = mapDefined(await tx.chats.findChat(hit.id), (row) => publicChatForCaller(row, marker ?? NO_MARKER));
  } else {
    found = mapDefined(await tx.users.findUserById(hit.id), (row) => publicUser(row, presenceOf(ctx, row)));
  }
  if (found === undefined) throw new Error(`search: ${hit.type} ${hit.id} vanished between match and load`);
  return found;
}

const NO_MARKER = { lastReadId: null, unreadCount: 0, mentionCount: 0 };

function mapDefined<T>(row: T | undefined, toPublic: (row: T) => Resource): Resource | undefined {
  return row === undefined ? undefined : toPublic(row);
}

function itemHref(ctx: RequestContext, item: Resource): string | undefined {
  const id = String(item['id']);
  switch (item['type']) {
    case 'message': return ctx.href(PATHS.message, { chatId: String(item['chatId']), messageId: id });
    case 'chat': return ctx.href(PATHS.chat, { chatId: id });
    case 'user': return ctx.href(PATHS.user, { userId: id });
    default: return undefined;
  }
}
