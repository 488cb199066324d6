// Turns a parsed collection query into a WHERE clause, bound parameters and an ORDER BY; SQL text comes only from SqlColumns.
import type { FieldSpec, Filter, ParsedQuery, SortKey } from '../../parsers/query.ts';

/**
 * How one collection's API fields are spelled in SQLite: trusted SQL from our own code, never built from a
 * request. The parsed query names fields only; this is the one place their columns are known.
 */
export interface SqlColumns {
  /** The unique field that breaks ties and gives the default order. */
  idField: string;
  /** API field name -> SQL expression, e.g. `createdAt: 'm.created_at'`. */
  columns: Readonly<Record<string, string>>;
  /** For `id-list` fields: SQL, with exactly one `?`, that is true when the row's list holds the bound id. */
  contains?: Readonly<Record<string, string>>;
}

export interface QuerySql {
  /** Conditions without the WHERE keyword, each in parentheses and joined by AND; `1` when there are none. */
  where: string;
  /** The values for the `?` of `where`, in order. */
  params: unknown[];
  /** Without the ORDER BY keyword; always ends with the id field, so the order is total and pages are stable. */
  orderBy: string;
  limit: number;
  offset: number;
}

const COMPARISONS = { eq: '=', gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;

/**
 * CONTRACT §6: nothing from the query string reaches SQL except as a bound parameter. Column
 * expressions come from the SqlColumns (our code); every value is a `?`.
 *
 * Use: `SELECT ... FROM t WHERE ${where} ORDER BY ${orderBy} LIMIT ? OFFSET ?` with
 * `[...params, limit, offset]`, and `SELECT COUNT(*) ... WHERE ${where}` with `params` for the total.
 */
export function buildQuerySql(query: ParsedQuery, sql: SqlColumns): QuerySql {
  const conditions: string[] = [];
  const params: unknown[] = [];
  for (const filter of query.filters) {
    const condition = buildCondition(filter, sql);
    conditions.push(`(${condition.sql})`);
    params.push(...condition.params);
  }
  return {
    where: conditions.length === 0 ? '1' : conditions.join(' AND '),
    params,
    orderBy: buildOrderBy(query.sort, sql),
    limit: query.limit,
    offset: query.offset,
  };
}

/**
 * Adds a caller's own condition (a chat's id, what the caller may see, a keyset bound) to a built
 * query. `condition` is trusted SQL from our code; its `?` values follow the query's own, because the
 * condition is appended after the query's conditions.
 */
export function addCondition(querySql: QuerySql, condition: string, ...params: unknown[]): QuerySql {
  const where = querySql.where === '1' ? `(${condition})` : `${querySql.where} AND (${condition})`;
  return { ...querySql, where, params: [...querySql.params, ...params] };
}

function buildCondition(filter: Filter, sql: SqlColumns): { sql: string; params: unknown[] } {
  const { field, op, values } = filter;
  if (field.type === 'id-list') {
    const contains = listContainsSql(field, sql);
    if (op === 'eq') return { sql: contains, params: values };
    if (op === 'ne') return { sql: `NOT (${contains})`, params: values };
    if (op === 'in') return { sql: values.map(() => `(${contains})`).join(' OR '), params: values };
    throw new Error(`query-sql: operator ${op} does not apply to list field ${field.name}`);
  }
  const column = columnOf(field, sql);
  switch (op) {
    case 'in':
      return { sql: `${column} IN (${values.map(() => '?').join(', ')})`, params: values };
    case 'like':
      // CONTRACT §6: `%` and `_` as in SQL, case-insensitive (SQLite folds ASCII letters only);
      // `\` escapes them, as the parser has checked.
      return { sql: `${column} LIKE ? ESCAPE '\\'`, params: values };
    case 'ne':
      // IS NOT rather than <>, so a row whose field is null counts as "not equal" (as null !== "x" in JSON).
      return { sql: `${column} IS NOT ?`, params: values };
    default:
      return { sql: `${column} ${COMPARISONS[op]} ?`, params: values };
  }
}

function columnOf(field: FieldSpec, sql: SqlColumns): string {
  const column = sql.columns[field.name];
  if (column === undefined) throw new Error(`query-sql: the collection has no column for field ${field.name}`);
  return column;
}

function listContainsSql(field: FieldSpec, sql: SqlColumns): string {
  const contains = sql.contains?.[field.name];
  if (contains === undefined || contains.split('?').length !== 2) {
    throw new Error(`query-sql: list field ${field.name} needs a contains SQL with exactly one ?`);
  }
  return contains;
}

/** CONTRACT §6: default order by id; ties of an explicit sort broken by id in the last key's direction. */
function buildOrderBy(sort: readonly SortKey[], sql: SqlColumns): string {
  const idColumn = sql.columns[sql.idField];
  if (idColumn === undefined || sql.contains?.[sql.idField] !== undefined) {
    throw new Error(`query-sql: the collection has no scalar id field named ${sql.idField}`);
  }
  const last = sort.at(-1);
  if (last === undefined) return `${idColumn} ASC`;
  const terms = sort.map((key) => `${columnOf(key.field, sql)} ${key.direction}`);
  // Once the id is a key, the order is already total and anything after it would be dead weight.
  if (!sort.some((key) => key.field.name === sql.idField)) terms.push(`${idColumn} ${last.direction}`);
  return terms.join(', ');
}
