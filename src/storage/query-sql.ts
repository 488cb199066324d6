// Turns a parsed collection query (docs/protocol.md §6) into a WHERE clause, bound parameters and an ORDER BY, for any
// backend: the rules (AND of filters, tie-break by id, only bound values) are written once here, and a
// SqlDialect says how one engine spells what differs (case folding, LIKE, "not equal" with nulls, NULL order).
// SQL text comes only from SqlColumns and the dialect, both our own code.
import type { Filter, ParsedQuery, SortKey } from '../parsers/query.ts';

/**
 * How one collection's API fields are spelled in SQL: trusted SQL from our own code, never built from a
 * request. The parsed query names fields only; this is the one place their columns are known.
 */
export interface SqlColumns {
  /** The unique field that breaks ties and gives the default order. */
  idField: string;
  /** API field name -> SQL expression, e.g. `createdAt: 'm.created_at'`. */
  columns: Readonly<Record<string, string>>;
  /** For `id-list` fields: SQL, with exactly one `?`, that is true when the row's list holds the bound id. */
  contains?: Readonly<Record<string, string>>;
  /**
   * Fields compared without regard to ASCII case where the schema's collation does not do it already
   * (PostgreSQL; SQLite's columns are COLLATE NOCASE): the dialect folds both sides, for comparisons and order.
   */
  caseless?: ReadonlySet<string>;
}

/** What one engine spells its own way; everything else about a query is the same SQL. */
export interface SqlDialect {
  /** A condition that holds for every row, for a query without filters. */
  readonly always: string;
  /** An expression folded to one ASCII case (for `caseless` fields). */
  fold(expression: string): string;
  /** The placeholder of a number or timestamp value: a cast where the engine would not compare it as a number. */
  numeric(type: 'number' | 'timestamp'): string;
  /** `%` and `_` as in SQL, ASCII case-insensitive, `\` escaping them; column unfolded. */
  like(column: string): string;
  /** True when the column differs from the value, a null column included (null !== "x" in JSON). */
  notEqual(column: string, value: string): string;
  /** One ORDER BY term; NULLs first in ascending order and last in descending order, on every engine. */
  orderTerm(column: string, direction: SortKey['direction']): string;
}

export interface QuerySql {
  /** Conditions without the WHERE keyword, each in parentheses and joined by AND; `dialect.always` when there are none. */
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
 * docs/protocol.md §6.4: nothing from the query string reaches SQL except as a bound parameter. Column
 * expressions come from the SqlColumns (our code); every value is a `?`.
 *
 * Use: `SELECT ... FROM t WHERE ${where} ORDER BY ${orderBy} LIMIT ? OFFSET ?` with
 * `[...params, limit, offset]`, and `SELECT COUNT(*) ... WHERE ${where}` with `params` for the total.
 */
export function buildQuerySql(query: ParsedQuery, sql: SqlColumns, dialect: SqlDialect): QuerySql {
  const conditions: string[] = [];
  const params: unknown[] = [];
  for (const filter of query.filters) {
    const condition = buildCondition(filter, sql, dialect);
    conditions.push(`(${condition.sql})`);
    params.push(...condition.params);
  }
  return {
    where: conditions.length === 0 ? dialect.always : conditions.join(' AND '),
    params,
    orderBy: buildOrderBy(query.sort, sql, dialect),
    limit: query.limit,
    offset: query.offset,
  };
}

function buildCondition(filter: Filter, sql: SqlColumns, dialect: SqlDialect): { sql: string; params: unknown[] } {
  const { field, op, values } = filter;
  if (field.type === 'id-list') {
    const contains = listContainsSql(field.name, sql);
    if (op === 'eq') return { sql: contains, params: values };
    if (op === 'ne') return { sql: `NOT (${contains})`, params: values };
    if (op === 'in') return { sql: values.map(() => `(${contains})`).join(' OR '), params: values };
    throw new Error(`query-sql: operator ${op} does not apply to list field ${field.name}`);
  }
  const column = columnOf(field.name, sql, dialect);
  const value = placeholderOf(filter, sql, dialect);
  switch (op) {
    case 'in':
      return { sql: `${column} IN (${values.map(() => value).join(', ')})`, params: values };
    case 'like':
      // `\` escapes `%` and `_`, as the parser has checked.
      return { sql: dialect.like(columnOf(field.name, sql, dialect, false)), params: values };
    case 'ne':
      return { sql: dialect.notEqual(column, value), params: values };
    default:
      return { sql: `${column} ${COMPARISONS[op]} ${value}`, params: values };
  }
}

function placeholderOf({ field }: Filter, sql: SqlColumns, dialect: SqlDialect): string {
  if (field.type === 'number' || field.type === 'timestamp') return dialect.numeric(field.type);
  return sql.caseless?.has(field.name) ? dialect.fold('?') : '?';
}

function columnOf(name: string, sql: SqlColumns, dialect: SqlDialect, fold = true): string {
  const column = sql.columns[name];
  if (column === undefined) throw new Error(`query-sql: the collection has no column for field ${name}`);
  return fold && sql.caseless?.has(name) ? dialect.fold(column) : column;
}

function listContainsSql(name: string, sql: SqlColumns): string {
  const contains = sql.contains?.[name];
  if (contains === undefined || contains.split('?').length !== 2) {
    throw new Error(`query-sql: list field ${name} needs a contains SQL with exactly one ?`);
  }
  return contains;
}

/** docs/protocol.md §6.5: default order by id; ties of an explicit sort broken by id in the last key's direction. */
function buildOrderBy(sort: readonly SortKey[], sql: SqlColumns, dialect: SqlDialect): string {
  if (sql.columns[sql.idField] === undefined || sql.contains?.[sql.idField] !== undefined) {
    throw new Error(`query-sql: the collection has no scalar id field named ${sql.idField}`);
  }
  const idColumn = columnOf(sql.idField, sql, dialect);
  const last = sort.at(-1);
  if (last === undefined) return `${idColumn} ASC`;
  const terms = sort.map((key) => dialect.orderTerm(columnOf(key.field.name, sql, dialect), key.direction));
  // Once the id is a key, the order is already total and anything after it would be dead weight.
  if (!sort.some((key) => key.field.name === sql.idField)) terms.push(`${idColumn} ${last.direction}`);
  return terms.join(', ');
}
