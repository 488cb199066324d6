// Runs one page of a collection: the caller's scope AND the client's query, plus the total.
import type { Statement } from 'better-sqlite3';
import type { ParsedQuery } from '../../parsers/query.ts';
import type { Page } from '../rows.ts';
import type { Db } from './database.ts';
import { buildQuerySql, type SqlColumns } from './query-sql.ts';

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
}

/** The two statements of a page, as they run: for the page itself, and for meta.total. */
export interface PageSql {
  page: { sql: string; params: unknown[] };
  total: { sql: string; params: unknown[] };
  limit: number;
}

export function buildPageSql(source: PageSource, query: ParsedQuery): PageSql {
  const built = buildQuerySql(query, source.columns);
  const where = source.scope ? `(${source.scope}) AND (${built.where})` : built.where;
  const params = [...(source.selectParams ?? []), ...(source.scopeParams ?? []), ...built.params];
  const total = query.filters.length === 0 && source.unfilteredTotal !== undefined
    ? source.unfilteredTotal
    : { sql: `SELECT count(*) AS n FROM (${source.select} WHERE ${where})`, params };
  const pageWhere = source.bounds ? `(${where}) AND (${source.bounds.sql})` : where;
  const pageParams = source.bounds ? [...params, ...source.bounds.params] : params;
  return {
    page: { sql: `${source.select} WHERE ${pageWhere} ORDER BY ${built.orderBy} LIMIT ? OFFSET ?`, params: [...pageParams, built.limit, built.offset] },
    total,
    limit: built.limit,
  };
}

/** Statements are prepared once per distinct SQL text; the text varies only with the query's shape. */
const MAX_CACHED = 1000;

export class PageRunner {
  private readonly cache = new Map<string, Statement<unknown[]>>();

  constructor(private readonly db: Db) {}

  private prepare(sql: string): Statement<unknown[]> {
    let statement = this.cache.get(sql);
    if (!statement) {
      statement = this.db.prepare<unknown[]>(sql);
      if (this.cache.size >= MAX_CACHED) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(sql, statement);
    }
    return statement;
  }

  listPage<T>(source: PageSource, query: ParsedQuery): Page<T> {
    const { page, total, limit } = buildPageSql(source, query);
    const counted = this.prepare(total.sql).get(...total.params) as { n: number } | undefined;
    const rows = limit === 0 ? [] : this.prepare(page.sql).all(...page.params) as T[];
    return { rows, total: counted?.n ?? 0 };
  }
}
