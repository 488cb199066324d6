// Runs one page of a collection: the caller's scope AND the client's query, plus the total.
import type { Statement } from 'better-sqlite3';
import type { ParsedQuery } from '../../parsers/query.ts';
import type { Page } from '../rows.ts';
import type { Db } from './database.ts';
import { buildPageSql as buildAnyPageSql, type PageSource, type PageSql } from '../page-sql.ts';
import { buildQuerySql } from './query-sql.ts';

export type { PageSource } from '../page-sql.ts';

/** The two statements of a page in SQLite's spelling (the benchmarks explain them). */
export function buildPageSql(source: PageSource, query: ParsedQuery): PageSql {
  return buildAnyPageSql(source, query, buildQuerySql);
}

/** Statements are prepared once per distinct SQL text; the text varies only with the query's shape. */
const MAX_CACHED = 1000;

export class PageRunner {
  private readonly cache = new Map<string, Statement<unknown[]>>();

  private readonly db: Db;

  constructor(db: Db) {
    this.db = db;
  }

  /** The statement of `sql`, prepared once (a page read its own way: storage/sqlite/search-store.ts). */
  statement(sql: string): Statement<unknown[]> {
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
    const counted = this.count(total);
    const rows = limit === 0 ? [] : this.statement(page.sql).all(...page.params) as T[];
    return { rows, total: counted };
  }

  /** meta.total of a page, without the page. */
  countOf(source: PageSource, query: ParsedQuery): number {
    return this.count(buildPageSql(source, query).total);
  }

  private count(total: PageSql['total']): number {
    const counted = this.statement(total.sql).get(...total.params) as { n: number } | undefined;
    return counted?.n ?? 0;
  }
}
