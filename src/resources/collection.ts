// Answers a page of any collection: query conventions, meta, and next/prev links (RFC 8288).
import type { Reply, RequestContext } from './context.ts';
import { parseQuery, type CollectionSpec, type ParsedQuery } from '../parsers/query.ts';
import type { Link, Resource } from '../representations/representation.ts';
import type { Page } from '../storage/store.ts';

export interface CollectionOptions<T> {
  type: string;
  /** The collection's fields, as the query may name them. */
  spec: CollectionSpec;
  /** Reads one page of the collection for the parsed query: a CollectionRepository method with its scope. */
  list(query: ParsedQuery): Promise<Page<T>>;
  toPublic(row: T): Resource;
  /** Parameters the handler reads itself (after, before, q), returned in query.extra. */
  reserved?: readonly string[];
  /** The page of one item, built with ctx.href, for the HTML list; undefined leaves the id as text. */
  itemHref?: (item: Resource) => string | undefined;
  /** The order when the query names none (`-id`: newest first, ids being time-ordered); the id field's otherwise. */
  defaultSort?: string;
}

/** The client's query, with `sort=<defaultSort>` in front when it sorts by nothing itself. */
function withDefaultSort(rawQuery: string, defaultSort: string | undefined): string {
  if (defaultSort === undefined || /(^|&)sort(%5B%5D|\[\])?=/i.test(rawQuery)) return rawQuery;
  return rawQuery === '' ? `sort=${defaultSort}` : `sort=${defaultSort}&${rawQuery}`;
}

/**
 * This request's path and query with the named parameters replaced (undefined: dropped), in the given
 * order after every other parameter: page links keep the client's filters, sort and limit as written.
 */
export function hrefWithParams(ctx: RequestContext, replaced: Readonly<Record<string, string | number | undefined>>): string {
  const names = new Set(Object.keys(replaced));
  const kept = ctx.rawQuery.split('&').filter((pair) => pair !== '' && !names.has(pair.split('=', 1)[0]!));
  for (const [name, value] of Object.entries(replaced)) {
    if (value !== undefined) kept.push(`${name}=${encodeURIComponent(value)}`);
  }
  return `${ctx.href('/')}${ctx.path.slice(1)}?${kept.join('&')}`.replace(/^\/\//, '/');
}

/** The same query string with limit and offset replaced. */
export function pageHref(ctx: RequestContext, limit: number, offset: number): string {
  return hrefWithParams(ctx, { limit, offset });
}

export function pageLinks(ctx: RequestContext, query: ParsedQuery, total: number): Link[] {
  const links: Link[] = [];
  const { limit, offset } = query;
  if (limit > 0 && offset + limit < total) links.push({ rel: 'next', href: pageHref(ctx, limit, offset + limit) });
  if (offset > 0 && limit > 0) links.push({ rel: 'prev', href: pageHref(ctx, limit, Math.max(0, offset - limit)) });
  return links;
}

export function parseCollectionQuery(ctx: RequestContext, spec: CollectionSpec, reserved: readonly string[] = []): ParsedQuery {
  return parseQuery(ctx.rawQuery, spec, { reserved });
}

export async function collectionReply<T>(ctx: RequestContext, options: CollectionOptions<T>): Promise<Reply> {
  const query = parseQuery(withDefaultSort(ctx.rawQuery, options.defaultSort), options.spec, { reserved: options.reserved ?? [] });
  const { rows, total } = await options.list(query);
  return {
    status: 200,
    representation: {
      kind: 'collection',
      type: options.type,
      data: rows.map((row) => options.toPublic(row)),
      meta: { total, limit: query.limit, offset: query.offset },
      links: pageLinks(ctx, query, total),
      itemHref: options.itemHref,
    },
  };
}
