// SQLite's spelling of a parsed collection query (the rules themselves are in storage/query-sql.ts), and the
// caller's own conditions added to a built query.
import { buildQuerySql as buildAny, type QuerySql, type SqlColumns, type SqlDialect } from '../query-sql.ts';
import type { ParsedQuery } from '../../parsers/query.ts';

export type { QuerySql, SqlColumns };

/** Logins are COLLATE NOCASE in the schema, so no field needs folding; SQLite's LIKE folds ASCII letters only. */
const SQLITE: SqlDialect = {
  always: '1',
  fold: (expression) => expression,
  numeric: () => '?',
  like: (column) => `${column} LIKE ? ESCAPE '\\'`,
  // IS NOT rather than <>, so a row whose field is null counts as "not equal" (as null !== "x" in JSON).
  notEqual: (column, value) => `${column} IS NOT ${value}`,
  // SQLite's own NULL order is the one every backend gives.
  orderTerm: (column, direction) => `${column} ${direction}`,
};

export function buildQuerySql(query: ParsedQuery, sql: SqlColumns): QuerySql {
  return buildAny(query, sql, SQLITE);
}

/**
 * Adds a caller's own condition (a chat's id, what the caller may see, a keyset bound) to a built
 * query. `condition` is trusted SQL from our code; its `?` values follow the query's own, because the
 * condition is appended after the query's conditions.
 */
export function addCondition(querySql: QuerySql, condition: string, ...params: unknown[]): QuerySql {
  const where = querySql.where === SQLITE.always ? `(${condition})` : `${querySql.where} AND (${condition})`;
  return { ...querySql, where, params: [...querySql.params, ...params] };
}
