// One page of a collection as SQL, for either backend: the caller's scope AND the client's query, keyset bounds
// that narrow the page but not meta.total, and the total itself. Each backend spells the query in its dialect
// (its buildQuerySql) and runs the two statements its own way; what they are is written once, here.
import type { ParsedQuery } from '../parsers/query.ts';
import type { QuerySql, SqlColumns } from './query-sql.ts';

export interface PageSource {
  /** SELECT ... FROM ... (no WHERE): trusted SQL from our code. */
  select: string;
  /** Values for `?` in select (a computed list, e.g. json_each(?)); they bind before the scope's. */
  selectParams?: unknown[];
  /** The caller's scope, e.g. "cm.user_id = ?": trusted SQL, values as parameters. */
  scope?: string;
  scopeParams?: unknown[];
  /** Narrows the page but not meta.total: keyset bounds (after/before) page through one collection. */
  bounds?: { sql: string; params: unknown[] };
  columns: SqlColumns;
  /**
   * The total when the client's query has no filters (the scope alone decides it), read more cheaply
   * than count(*) over the scope: one row with a column `n`, e.g. a count kept by triggers. count(*)
   * walks every row in scope, O(n) even on an index (60 ms for one chat of a million messages).
   */
  unfilteredTotal?: { sql: string; params: unknown[] };
  /**
   * meta.total counts at most this many (search, docs/protocol.md §5): counting every match is O(matches), 125,000
   * of them for a common prefix in a million messages, where the page itself needs only its own.
   */
  countAtMost?: number;
}

/** The two statements of a page, as they run: for the page itself, and for meta.total. */
export interface PageSql {
  page: { sql: string; params: unknown[] };
  total: { sql: string; params: unknown[] };
  limit: number;
}

/** A backend's spelling of the client's query (storage/sqlite/query-sql.ts, storage/postgres/query-sql.ts). */
export type BuildQuerySql = (query: ParsedQuery, columns: SqlColumns) => QuerySql;

export function buildPageSql(source: PageSource, query: ParsedQuery, buildQuerySql: BuildQuerySql): PageSql {
  const built = buildQuerySql(query, source.columns);
  const where = source.scope ? `(${source.scope}) AND (${built.where})` : built.where;
  const params = [...(source.selectParams ?? []), ...(source.scopeParams ?? []), ...built.params];
  const total = query.filters.length === 0 && source.unfilteredTotal !== undefined
    ? source.unfilteredTotal
    // PostgreSQL wants a name for the subquery; SQLite takes one.
    : source.countAtMost !== undefined
      ? { sql: `SELECT count(*) AS n FROM (${source.select} WHERE ${where} LIMIT ?) counted`, params: [...params, source.countAtMost] }
      : { sql: `SELECT count(*) AS n FROM (${source.select} WHERE ${where}) counted`, params };
  const pageWhere = source.bounds ? `(${where}) AND (${source.bounds.sql})` : where;
  const pageParams = source.bounds ? [...params, ...source.bounds.params] : params;
  return {
    page: { sql: `${source.select} WHERE ${pageWhere} ORDER BY ${built.orderBy} LIMIT ? OFFSET ?`, params: [...pageParams, built.limit, built.offset] },
    total,
    limit: built.limit,
  };
}
