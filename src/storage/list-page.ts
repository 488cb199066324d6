// Runs one page of a collection: the caller's scope AND the client's query, plus the total.
import type { CollectionSpec, ParsedQuery } from '../parsers/query.ts';
import type { Statement } from 'better-sqlite3';
import type { Db } from './database.ts';
import { buildQuerySql } from './query-sql.ts';

export interface PageSource {
  /** SELECT ... FROM ... (no WHERE): trusted SQL from our code. */
  select: string;
  /** Values for `?` in select (a computed list, e.g. json_each(?)); they bind before the scope's. */
  selectParams?: unknown[];
  /** The caller's scope, e.g. "cm.user_id = ?": trusted SQL, values as parameters. */
  scope?: string;
  scopeParams?: unknown[];
  spec: CollectionSpec;
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

  listPage<T>(source: PageSource, query: ParsedQuery): { rows: T[]; total: number } {
    const built = buildQuerySql(query, source.spec);
    const where = source.scope ? `(${source.scope}) AND (${built.where})` : built.where;
    const params = [...(source.selectParams ?? []), ...(source.scopeParams ?? []), ...built.params];
    const total = (this.prepare(`SELECT count(*) AS n FROM (${source.select} WHERE ${where})`).get(...params) as { n: number }).n;
    const rows = built.limit === 0 ? [] : this.prepare(`${source.select} WHERE ${where} ORDER BY ${built.orderBy} LIMIT ? OFFSET ?`)
      .all(...params, built.limit, built.offset) as T[];
    return { rows, total };
  }
}
