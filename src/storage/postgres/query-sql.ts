// A parsed collection query (CONTRACT §6) in PostgreSQL's SQL, with the results of SQLite's translation
// (storage/sqlite/query-sql.ts): the same case rules, NULL order, tie-break by id, and bound values only.
import type { Filter, ParsedQuery, SortKey } from '../../parsers/query.ts';

/** How one collection's API fields are spelled in PostgreSQL: trusted SQL from our own code. */
export interface PgColumns {
  idField: string;
  columns: Readonly<Record<string, string>>;
  /** For `id-list` fields: SQL with exactly one `?`, true when the row's list holds the bound id. */
  contains?: Readonly<Record<string, string>>;
  /**
   * Fields compared without regard to ASCII case, as SQLite's COLLATE NOCASE does (logins): lower() under the
   * column's "C" collation folds ASCII letters only, on both sides, for comparisons and for the order.
   */
  caseless?: ReadonlySet<string>;
}

export interface PgQuerySql {
  /** Conditions without WHERE, `?` for each value; `TRUE` when there are none. */
  where: string;
  params: unknown[];
  /** Without ORDER BY; always ends with the id field so the order is total. */
  orderBy: string;
  limit: number;
  offset: number;
}

const COMPARISONS = { eq: '=', gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;

export function buildPgQuerySql(query: ParsedQuery, sql: PgColumns): PgQuerySql {
  const conditions: string[] = [];
  const params: unknown[] = [];
  for (const filter of query.filters) {
    const condition = buildCondition(filter, sql);
    conditions.push(`(${condition.sql})`);
    params.push(...condition.params);
  }
  return {
    where: conditions.length === 0 ? 'TRUE' : conditions.join(' AND '),
    params,
    orderBy: buildOrderBy(query.sort, sql),
    limit: query.limit,
    offset: query.offset,
  };
}

/**
 * A value's placeholder: numbers and timestamps are cast so that PostgreSQL compares them as SQLite does
 * (numerically, a decimal against an integer column included) instead of failing to parse `1.5` as an integer.
 */
function placeholder(filter: Filter, sql: PgColumns): string {
  if (filter.field.type === 'number') return '?::double precision';
  if (filter.field.type === 'timestamp') return '?::bigint';
  return sql.caseless?.has(filter.field.name) ? 'lower(?)' : '?';
}

function buildCondition(filter: Filter, sql: PgColumns): { sql: string; params: unknown[] } {
  const { field, op, values } = filter;
  if (field.type === 'id-list') {
    const contains = sql.contains?.[field.name];
    if (contains === undefined || contains.split('?').length !== 2) throw new Error(`pg query-sql: list field ${field.name} needs a contains SQL with one ?`);
    if (op === 'eq') return { sql: contains, params: values };
    if (op === 'ne') return { sql: `NOT (${contains})`, params: values };
    if (op === 'in') return { sql: values.map(() => `(${contains})`).join(' OR '), params: values };
    throw new Error(`pg query-sql: operator ${op} does not apply to list field ${field.name}`);
  }
  const column = columnOf(field.name, sql);
  const value = placeholder(filter, sql);
  switch (op) {
    case 'in':
      return { sql: `${column} IN (${values.map(() => value).join(', ')})`, params: values };
    case 'like':
      // `%` and `_` as in SQL, case-insensitive: ILIKE under the "C" collation folds ASCII letters only, as
      // SQLite's LIKE does; `\` escapes, as the parser has checked.
      return { sql: `${columnOf(field.name, sql, false)} ILIKE ? ESCAPE '\\'`, params: values };
    case 'ne':
      // A row whose field is null counts as "not equal" (SQLite's IS NOT).
      return { sql: `${column} IS DISTINCT FROM ${value}`, params: values };
    default:
      return { sql: `${column} ${COMPARISONS[op]} ${value}`, params: values };
  }
}

function columnOf(name: string, sql: PgColumns, fold = true): string {
  const column = sql.columns[name];
  if (column === undefined) throw new Error(`pg query-sql: the collection has no column for field ${name}`);
  return fold && sql.caseless?.has(name) ? `lower(${column})` : column;
}

/** SQLite puts NULLs first in ascending order and last in descending order; PostgreSQL is told to do the same. */
function term(column: string, direction: SortKey['direction']): string {
  return `${column} ${direction} ${direction === 'ASC' ? 'NULLS FIRST' : 'NULLS LAST'}`;
}

/** CONTRACT §6: default order by id; ties of an explicit sort broken by id in the last key's direction. */
function buildOrderBy(sort: readonly SortKey[], sql: PgColumns): string {
  const idColumn = columnOf(sql.idField, sql);
  const last = sort.at(-1);
  if (last === undefined) return `${idColumn} ASC`;
  const terms = sort.map((key) => term(columnOf(key.field.name, sql), key.direction));
  if (!sort.some((key) => key.field.name === sql.idField)) terms.push(`${idColumn} ${last.direction}`);
  return terms.join(', ');
}

/** Numbers the `?` placeholders as PostgreSQL's $1, $2, ...; our SQL has no `?` inside a literal. */
export function numberPlaceholders(text: string): string {
  let n = 0;
  return text.replace(/\?/g, () => `$${++n}`);
}
