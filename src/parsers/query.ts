// Parses the query conventions every collection shares (docs/protocol.md §6) into typed filters, sort keys and a page.
import { fieldFailure, type ParseFailure } from './parse-failure.ts';
import { splitQueryString } from './query-string.ts';
import { parseFieldValue, parseLikePattern, splitRange, type FieldType } from './query-values.ts';

export type { FieldType } from './query-values.ts';

export interface FieldSpec {
  /** API field name (camelCase), e.g. `createdAt`. */
  name: string;
  type: FieldType;
  /**
   * Not a field of the resource, so the query string cannot name it: only the collection's idField, the
   * default order and tie-breaker of a resource that has no id of its own (a reaction).
   */
  hidden?: boolean;
}

/**
 * A collection's fields from `{ name: type }`, in the order written (the HTML table's column order). Field
 * names are words, never integers, so the object keeps that order.
 */
export function fieldsOf(types: Readonly<Record<string, FieldType>>): FieldSpec[] {
  return Object.entries(types).map(([name, type]) => ({ name, type }));
}

export interface CollectionSpec {
  fields: readonly FieldSpec[];
  /** The unique field that breaks ties and gives the default order; `id` unless said otherwise. */
  idField?: string;
}

export type FilterOp = 'eq' | 'ne' | 'like' | 'in' | 'gt' | 'gte' | 'lt' | 'lte';

export interface Filter {
  field: FieldSpec;
  op: FilterOp;
  /** One value, except for `in`; numbers for number and timestamp (epoch ms) fields, strings otherwise. */
  values: (string | number)[];
  /** The parameter the filter came from, for messages: `filter`, `filter[title][]`, `createdAt`, ... */
  param: string;
}

export interface SortKey {
  field: FieldSpec;
  direction: 'ASC' | 'DESC';
}

export interface ParsedQuery {
  filters: Filter[];
  sort: SortKey[];
  /** The page size to use: what was asked for, cut to the largest allowed. */
  limit: number;
  offset: number;
  /** What the client asked for (or the default), before the cut. */
  requestedLimit: number;
  /** The caller's reserved parameters (`after`, `q`, ...), decoded and otherwise untouched. */
  extra: Map<string, string>;
}

export interface ParseQueryOptions {
  reserved?: readonly string[];
  defaultLimit?: number;
  maxLimit?: number;
}

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;
const MAX_LIST_VALUES = 100;
// Plain digits only, at most 15 so the value stays a safe integer; `+1`, `1.0`, `1e2` are refused.
const PAGE_NUMBER = /^\d{1,15}$/;
const FILTER_OPS: ReadonlySet<string> = new Set<FilterOp>(['eq', 'ne', 'like', 'in', 'gt', 'gte', 'lt', 'lte']);
// A list field (a chat's members) has no order: eq means "contains", ne "does not contain", in "contains any".
const LIST_OPS: ReadonlySet<FilterOp> = new Set<FilterOp>(['eq', 'ne', 'in']);
const FILTER_KEY = /^filter\[([^\]]*)\](\[\])?$/;
const SORT_KEY = /^sort\[([^\]]*)\]$/;
const DIRECTION = /^(?:asc|desc)$/i;
// `<field>=><low>` and `<field>=<<high>`. `=>=` is deliberately not read as >=: `title=<=a` must stay
// "less than '=a'", or text starting with `=` could not be compared.
const VALUE_OPERATORS: readonly (readonly [string, FilterOp])[] = [['>', 'gt'], ['<', 'lt']];
// Parameters that may appear only once; fields and filters may repeat (all filters AND together).
const SINGLE_PARAMETERS: ReadonlySet<string> = new Set(['limit', 'offset', 'sort', 'order']);

/** Parses the part of a URL after `?`; every problem is a bad-query ParseFailure naming the parameter (a 400 ERR_BAD_QUERY). */
export function parseQuery(rawQuery: string, spec: CollectionSpec, options: ParseQueryOptions = {}): ParsedQuery {
  const fields = new Map(spec.fields.filter((field) => field.hidden !== true).map((field) => [field.name, field]));
  const reserved = new Set(options.reserved ?? []);
  const filters: Filter[] = [];
  const listFilters = new Map<string, Filter>();
  const sort: SortKey[] = [];
  const single = new Map<string, string>();
  const extra = new Map<string, string>();

  const fieldOf = (param: string, name: string): FieldSpec => {
    const field = fields.get(name);
    if (field === undefined) {
      throw badQuery(param, `unknown field ${quote(name)}; the fields are ${[...fields.keys()].join(', ')}`);
    }
    return field;
  };
  const addSortKey = (param: string, field: FieldSpec, direction: SortKey['direction']): void => {
    if (field.type === 'id-list') throw badQuery(param, `${field.name} is a list and cannot be sorted on`);
    if (sort.some((key) => key.field === field)) throw badQuery(param, `${field.name} is already a sort key`);
    sort.push({ field, direction });
  };

  for (const { name, value } of splitQueryString(rawQuery)) {
    if (reserved.has(name) || SINGLE_PARAMETERS.has(name)) {
      if (single.has(name) || extra.has(name)) throw badQuery(name, 'may be given only once');
      (reserved.has(name) ? extra : single).set(name, value);
      if (name === 'sort' && !reserved.has(name)) {
        // `sort=-title` is shorthand for descending (JSON:API style); the direction may be set later by `order`.
        const descending = value.startsWith('-');
        addSortKey(name, fieldOf(name, descending ? value.slice(1) : value), descending ? 'DESC' : 'ASC');
      }
      continue;
    }
    if (name === 'filter') {
      filters.push(parseFilterExpression(value, fieldOf));
      continue;
    }
    const filterKey = FILTER_KEY.exec(name);
    if (filterKey !== null) {
      const field = fieldOf(name, filterKey[1] ?? '');
      const grouped = listFilters.get(field.name);
      if (filterKey[2] === undefined) {
        // `filter[<field>]=<v>` without `[]` is plain equality.
        filters.push(makeFilter(name, field, 'eq', [value]));
      } else if (grouped === undefined) {
        // Every `filter[<field>][]` of one field joins one `in` list, kept where the first one stood.
        const created = makeFilter(name, field, 'in', [value]);
        listFilters.set(field.name, created);
        filters.push(created);
      } else {
        grouped.values.push(...makeFilter(name, field, 'in', [value]).values);
        if (grouped.values.length > MAX_LIST_VALUES) throw badQuery(name, `takes at most ${MAX_LIST_VALUES} values`);
      }
      continue;
    }
    const sortKey = SORT_KEY.exec(name);
    if (sortKey !== null) {
      if (!DIRECTION.test(value)) throw badQuery(name, `must be ASC or DESC, not ${quote(value)}`);
      addSortKey(name, fieldOf(name, sortKey[1] ?? ''), value.toUpperCase() as SortKey['direction']);
      continue;
    }
    filters.push(...parseFieldParameter(name, value, fields, reserved));
  }

  const order = single.get('order');
  if (order !== undefined) {
    const sortValue = single.get('sort');
    if (sortValue === undefined) throw badQuery('order', 'needs a sort=<field> to apply to');
    if (sortValue.startsWith('-')) throw badQuery('order', 'cannot be combined with sort=-<field>');
    if (!DIRECTION.test(order)) throw badQuery('order', `must be asc or desc, not ${quote(order)}`);
    const key = sort.find((candidate) => candidate.field.name === sortValue);
    if (key !== undefined) key.direction = order.toUpperCase() as SortKey['direction'];
  }

  const maxLimit = options.maxLimit ?? MAX_LIMIT;
  const requestedLimit = parsePageNumber('limit', single.get('limit')) ?? options.defaultLimit ?? DEFAULT_LIMIT;
  return {
    filters,
    sort,
    limit: Math.min(requestedLimit, maxLimit),
    offset: parsePageNumber('offset', single.get('offset')) ?? 0,
    requestedLimit,
    extra,
  };
}

/** `filter=<field>|<op>|<value>`: split at the first two `|` only, so the value may hold more. */
function parseFilterExpression(expression: string, fieldOf: (param: string, name: string) => FieldSpec): Filter {
  const first = expression.indexOf('|');
  const second = first === -1 ? -1 : expression.indexOf('|', first + 1);
  if (second === -1) throw badQuery('filter', `must look like <field>|<op>|<value>, not ${quote(expression)}`);
  const field = fieldOf('filter', expression.slice(0, first));
  const op = expression.slice(first + 1, second).toLowerCase();
  if (!FILTER_OPS.has(op)) {
    throw badQuery('filter', `unknown operator ${quote(op)}; the operators are ${[...FILTER_OPS].join(', ')}`);
  }
  const valueText = expression.slice(second + 1);
  // `in` takes comma-separated values; a value that itself holds a comma needs filter[<field>][]=.
  const texts = op === 'in' ? (valueText === '' ? [] : valueText.split(',')) : [valueText];
  return makeFilter('filter', field, op as FilterOp, texts);
}

/** `<field>=<v>`, `<field>=<low>-<high>`, `<field>=><v>`, `<field>=<<v>`, `<field>>=<v>`, `<field><=<v>`. */
function parseFieldParameter(
  name: string,
  value: string,
  fields: ReadonlyMap<string, FieldSpec>,
  reserved: ReadonlySet<string>,
): Filter[] {
  // `a>=5` arrives as name `a>` and value `5`: the operator sits at the end of the name.
  const nameOp = name.endsWith('>') ? 'gte' : name.endsWith('<') ? 'lte' : undefined;
  const fieldName = nameOp === undefined ? name : name.slice(0, -1);
  const field = fields.get(fieldName);
  if (field === undefined) {
    const known = ['limit', 'offset', 'sort', 'order', 'filter', ...reserved, ...fields.keys()];
    throw badQuery(fieldName, `is not a parameter of this collection; known are ${known.join(', ')}`);
  }
  if (nameOp !== undefined) return [makeFilter(fieldName, field, nameOp, [value])];
  const valueOp = VALUE_OPERATORS.find(([prefix]) => value.startsWith(prefix));
  if (valueOp !== undefined) return [makeFilter(fieldName, field, valueOp[1], [value.slice(valueOp[0].length)])];
  const range = splitRange(field.type, value);
  if (range !== undefined) {
    return [
      { field, op: 'gte', values: [range.low], param: fieldName },
      { field, op: 'lte', values: [range.high], param: fieldName },
    ];
  }
  return [makeFilter(fieldName, field, 'eq', [value])];
}

/** Checks that the operator suits the field's type and that every value has that type. */
function makeFilter(param: string, field: FieldSpec, op: FilterOp, texts: readonly string[]): Filter {
  const about = param === field.name ? '' : `${field.name}: `;
  if (field.type === 'id-list' && !LIST_OPS.has(op)) {
    throw badQuery(param, `${about}${field.name} is a list; only eq, ne and in apply to it, not ${op}`);
  }
  if (op === 'like' && field.type !== 'string' && field.type !== 'id') {
    throw badQuery(param, `${about}like applies to text and id fields, not to a ${field.type}`);
  }
  if (texts.length === 0) throw badQuery(param, `${about}in needs at least one value`);
  if (texts.length > MAX_LIST_VALUES) throw badQuery(param, `${about}in takes at most ${MAX_LIST_VALUES} values`);
  const values = texts.map((text) => {
    const result = op === 'like' ? parseLikePattern(text) : parseFieldValue(field.type, text);
    if (!result.ok) throw badQuery(param, `${about}${quote(text)} ${result.message}`);
    return result.value;
  });
  return { field, op, values, param };
}

function parsePageNumber(param: 'limit' | 'offset', text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!PAGE_NUMBER.test(text)) {
    throw badQuery(param, `must be a non-negative integer written in at most 15 digits, not ${quote(text)}`);
  }
  return Number(text);
}

function badQuery(param: string, message: string): ParseFailure {
  return fieldFailure(param, message, 'bad-query');
}

/** Client text inside a message: JSON-quoted so control characters show, and cut short. */
function quote(text: string): string {
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
}
