// A chat's history (docs/protocol.md §6.6): the query conventions, plus keyset paging with after/before, oldest first.
import type { Reply, RequestContext } from '../context.ts';
import { invalidField } from '../../http/http-error.ts';
import { fieldsOf, type CollectionSpec, type ParsedQuery } from '../../parsers/query.ts';
import { publicMessage } from '../../representations/public-fields.ts';
import type { Link, Resource } from '../../representations/representation.ts';
import { isValidId } from '../../storage/ids.ts';
import type { MessageBounds, MessageRow } from '../../storage/store.ts';
import { hrefWithParams, pageLinks, parseCollectionQuery } from '../collection.ts';
import { findVisibleChat } from '../chats/access.ts';
import { PATHS } from '../../paths.ts';
import { keptReply } from '../kept-reply.ts';

const ID_FIELD = { name: 'id', type: 'id' } as const;

export const MESSAGE_FIELDS: CollectionSpec = {
  fields: fieldsOf({
    id: 'id', chatId: 'id', authorId: 'id', text: 'string', replyTo: 'id', createdAt: 'timestamp', updatedAt: 'timestamp',
    // null until the text changes: filter=editedAt|ne|null is not a timestamp, but editedAt=>2000-01-01 finds every edited message.
    editedAt: 'timestamp',
  }),
};

const KEYSET_PARAMS = ['after', 'before'] as const;

type Anchor = (typeof KEYSET_PARAMS)[number];

/** The chat screen's own parameters (docs/html.md), on its HTML page only: the message replied to, the one being edited. */
export const SCREEN_PARAMS: readonly string[] = ['reply', 'edit'];

/** The id given to after/before, checked to be a message of this chat (else 400 naming the parameter). */
async function readAnchor(ctx: RequestContext, chatId: string, query: ParsedQuery, name: Anchor): Promise<string | undefined> {
  const id = query.extra.get(name);
  if (id === undefined) return undefined;
  if (!isValidId(id) || !(await ctx.services.storage.messages.findMessageInChat(chatId, id))) {
    throw invalidField(name, `must be the id of a message of this chat, not ${JSON.stringify(id.slice(0, 64))}`, 'ERR_BAD_QUERY');
  }
  return id;
}

/** The same query with after/before replaced (and offset dropped), so a page link keeps the filters and limit. */
function keysetHref(ctx: RequestContext, bounds: Partial<Record<Anchor, string>>): string {
  return hrefWithParams(ctx, { after: undefined, before: undefined, ...bounds, offset: undefined });
}

/**
 * next/prev of a keyset page: next continues after its newest message, prev goes on before its oldest.
 * An `after` page always has older messages (the anchor at least), a `before` page newer ones; `more`
 * says whether messages lie beyond the page in its own direction. A window (both) keeps its upper bound.
 */
function keysetLinks(ctx: RequestContext, rows: readonly MessageRow[], more: boolean, after?: string, before?: string): Link[] {
  const first = rows[0];
  const last = rows.at(-1);
  if (first === undefined || last === undefined) return [];
  const links: Link[] = [];
  if (after !== undefined) {
    if (more) links.push({ rel: 'next', href: keysetHref(ctx, before === undefined ? { after: last.id } : { after: last.id, before }) });
    links.push({ rel: 'prev', href: keysetHref(ctx, { before: first.id }) });
  } else {
    links.push({ rel: 'next', href: keysetHref(ctx, { after: last.id }) });
    if (more) links.push({ rel: 'prev', href: keysetHref(ctx, { before: first.id }) });
  }
  return links;
}

/**
 * The query of a chat's history page and its keyset bounds: `before` alone is read newest first, and a keyset
 * page reads one row more, so the caller can tell whether messages lie beyond. The bounds narrow the page, not
 * meta.total (storage applies them). The benchmark explains exactly the statements this asks for.
 */
export function historyPage(parsed: ParsedQuery, after?: string, before?: string, newest = false): { query: ParsedQuery; bounds: MessageBounds } {
  const keyset = after !== undefined || before !== undefined || newest;
  const newestFirst = (before !== undefined || newest) && after === undefined;
  const query: ParsedQuery = {
    ...parsed,
    ...(newestFirst ? { sort: [{ field: ID_FIELD, direction: 'DESC' as const }] } : {}),
    ...(keyset ? { limit: parsed.limit + 1 } : {}),
  };
  return { query, bounds: { ...(after !== undefined ? { after } : {}), ...(before !== undefined ? { before } : {}) } };
}

/** The page of one message: PATHS.message under the chat's messages path, the id encoded as buildPath encodes it. */
function itemHrefOf(messagesHref: string): (message: Resource) => string {
  return (message) => `${messagesHref}/${encodeURIComponent(String(message['id']))}`;
}

/**
 * GET /chats/{id}/messages. Oldest first by default (ids sort in creation order). `after` and `before`
 * bound the page by message (either, or both for a window); they page in the default order, so they
 * cannot be combined with a sort or an offset. `before` alone reads newest first, then turns the page
 * around: the `limit` messages right before the anchor, oldest first. The bounds narrow the page, not
 * the collection: meta.total counts the chat's messages that match the filters, so an unfiltered total
 * stays O(1) at any depth of history; whether more lie beyond the page is found by reading one more row.
 */
export async function listMessages(ctx: RequestContext): Promise<Reply> {
  const access = await findVisibleChat(ctx, ctx.params['chatId']!);
  // The membership above is the caller's part, checked every time; the page is the same for every member (the
  // route's keep: 'shared').
  return keptReply(ctx, () => readMessagesPage(ctx, access.id));
}

/** The page itself: a function of the database, the path, the query and HTML or not only (what kept-reply.ts may keep). */
async function readMessagesPage(ctx: RequestContext, chatId: string): Promise<Reply> {
  const access = { id: chatId };
  const html = ctx.mediaType === 'text/html';
  const parsed = parseCollectionQuery(ctx, MESSAGE_FIELDS, html ? [...KEYSET_PARAMS, ...SCREEN_PARAMS] : KEYSET_PARAMS);
  const after = await readAnchor(ctx, access.id, parsed, 'after');
  const before = await readAnchor(ctx, access.id, parsed, 'before');
  // A person opens a chat on its newest messages (the HTML page without a query but the screen's own); every client's
  // default stays oldest first.
  const newest = html && [...new URLSearchParams(ctx.rawQuery).keys()].every((name) => SCREEN_PARAMS.includes(name));
  const keyset = after !== undefined || before !== undefined || newest;
  if (keyset && parsed.sort.length > 0) throw invalidField('sort', 'cannot be combined with after or before, which page in the default order', 'ERR_BAD_QUERY');
  if (keyset && parsed.offset > 0) throw invalidField('offset', 'cannot be combined with after or before', 'ERR_BAD_QUERY');
  const { query, bounds } = historyPage(parsed, after, before, newest);
  const { rows: read, total } = await ctx.services.storage.collections.listMessages(access.id, query, bounds);
  const newestFirst = (before !== undefined || newest) && after === undefined;
  const more = keyset && read.length > parsed.limit;
  const rows = keyset ? read.slice(0, parsed.limit) : read;
  if (newestFirst) rows.reverse();
  const links = newest ? (more && rows[0] ? [{ rel: 'prev', href: keysetHref(ctx, { before: rows[0].id }) }] : [])
    : keyset ? keysetLinks(ctx, rows, more, after, before) : pageLinks(ctx, parsed, total);
  links.push({ rel: 'chat', href: ctx.href(PATHS.chat, { chatId: access.id }) });
  return {
    status: 200,
    representation: {
      kind: 'collection',
      type: 'message',
      data: rows.map((row) => publicMessage(row, ctx.services.config.basePath)),
      meta: { total, limit: parsed.limit, offset: parsed.offset },
      links,
      // Built from strings only: a kept page must not hold on to this request.
      itemHref: itemHrefOf(ctx.href(PATHS.messages, { chatId: access.id })),
      // Only the newest page in the plain order may grow at its end as messages arrive.
      live: links.some((link) => link.rel === 'next') || parsed.filters.length > 0 || parsed.sort.length > 0 ? undefined : {
        events: ctx.href(PATHS.events),
        chatId: access.id,
        messages: ctx.href(PATHS.messages, { chatId: access.id }),
        users: ctx.href(PATHS.users),
      },
    },
  };
}
