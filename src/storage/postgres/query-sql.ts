// PostgreSQL's spelling of a parsed collection query (docs/protocol.md §6), with the results of SQLite's: the rules are
// in storage/query-sql.ts; this says how PostgreSQL gets the same case rules, NULL order and numeric comparisons.
import { buildQuerySql, type QuerySql, type SqlColumns, type SqlDialect } from '../query-sql.ts';
import type { ParsedQuery } from '../../parsers/query.ts';

const POSTGRES: SqlDialect = {
  always: 'TRUE',
  // Fields compared without regard to ASCII case, as SQLite's COLLATE NOCASE does (logins): lower() under the
  // column's "C" collation folds ASCII letters only.
  fold: (expression) => `lower(${expression})`,
  // Cast so that PostgreSQL compares numbers and timestamps as SQLite does (numerically, a decimal against an
  // integer column included) instead of failing to parse `1.5` as an integer.
  numeric: (type) => (type === 'number' ? '?::double precision' : '?::bigint'),
  // ILIKE under the "C" collation folds ASCII letters only, as SQLite's LIKE does.
  like: (column) => `${column} ILIKE ? ESCAPE '\\'`,
  // A row whose field is null counts as "not equal" (SQLite's IS NOT).
  notEqual: (column, value) => `${column} IS DISTINCT FROM ${value}`,
  // SQLite puts NULLs first in ascending order and last in descending order; PostgreSQL is told to do the same.
  orderTerm: (column, direction) => `${column} ${direction} ${direction === 'ASC' ? 'NULLS FIRST' : 'NULLS LAST'}`,
};

export function buildPgQuerySql(query: ParsedQuery, sql: SqlColumns): QuerySql {
  return buildQuerySql(query, sql, POSTGRES);
}

/** Numbers the `?` placeholders as PostgreSQL's $1, $2, ...; our SQL has no `?` inside a literal. */
export function numberPlaceholders(text: string): string {
  let n = 0;
  return text.replace(/\?/g, () => `$${++n}`);
}
