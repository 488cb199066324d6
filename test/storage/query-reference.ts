// A plain-TypeScript model of CONTRACT §6 for the property test: random rows, random queries, and how to render and answer them.
import fc from 'fast-check';
import type { CollectionSpec, FilterOp } from '../../src/parsers/query.ts';

export const ITEMS_SCHEMA = `
  CREATE TABLE items (id TEXT PRIMARY KEY, title TEXT NOT NULL, n REAL NOT NULL, created_at INTEGER NOT NULL, parent_id TEXT) STRICT;
  CREATE TABLE item_members (item_id TEXT NOT NULL, user_id TEXT NOT NULL, PRIMARY KEY (item_id, user_id)) STRICT;
`;

export const ITEMS: CollectionSpec = {
  fields: [
    { name: 'id', type: 'id', column: 'items.id' },
    { name: 'title', type: 'string', column: 'items.title' },
    { name: 'n', type: 'number', column: 'items.n' },
    { name: 'createdAt', type: 'timestamp', column: 'items.created_at' },
    { name: 'parentId', type: 'id', column: 'items.parent_id' },
    {
      name: 'members',
      type: 'id-list',
      column: 'items.id',
      containsSql: 'EXISTS (SELECT 1 FROM item_members im WHERE im.item_id = items.id AND im.user_id = ?)',
    },
  ],
};

export interface Item {
  id: string;
  title: string;
  n: number;
  createdAt: number;
  parentId: string | null;
  members: string[];
}

type Scalar = string | number;
type FieldName = Exclude<keyof Item, 'members'> | 'members';
export type ModelOp = FilterOp | 'range';
export interface ModelFilter { field: FieldName; op: ModelOp; values: Scalar[] }
export interface ModelSort { field: Exclude<FieldName, 'members'>; direction: 'ASC' | 'DESC' }
export interface ModelQuery { filters: ModelFilter[]; sort: ModelSort[]; limit: number | null; offset: number | null }

// Small alphabets so that equality and `in` hit real rows; `%`, `_`, `\`, `|`, `,`, `&`, `+`, `=` and
// non-ASCII letters exercise the encoding and LIKE rules.
const ID_UNIT = fc.constantFrom('a', 'b', 'A', '0', '_', '-');
const TITLE_UNIT = fc.constantFrom('a', 'b', 'A', 'B', '-', ' ', '%', '_', '\\', '|', ',', '&', '+', '=', 'é', 'É', '😀');
const LITERAL_UNIT = fc.constantFrom('a', 'b', 'A', 'B', '-', ' ', '|', '&', '+', 'é', 'É', '😀');
const MEMBERS = ['u1', 'u2', 'u3', 'u-4'];
const DAY = 86_400_000;
const INSTANTS = [Date.UTC(2026, 0, 1), Date.UTC(2026, 0, 1, 9, 30), Date.UTC(2026, 0, 2) + 123, Date.UTC(2025, 11, 31, 23, 59, 59, 999), Date.UTC(2026, 1, 1)];

const idArb = fc.string({ unit: ID_UNIT, minLength: 1, maxLength: 2 });
const titleArb = fc.string({ unit: TITLE_UNIT, maxLength: 3 });
const numberArb = fc.oneof(fc.integer({ min: -4, max: 4 }), fc.constantFrom(-1.5, 0.5, 2.25));
const instantArb = fc.oneof(fc.constantFrom(...INSTANTS), fc.integer({ min: INSTANTS[3] ?? 0, max: (INSTANTS[4] ?? 0) + DAY }));
const likeArb = fc
  .array(fc.oneof(fc.constantFrom('%', '_', '\\%', '\\_', '\\\\'), LITERAL_UNIT), { maxLength: 4 })
  .map((tokens) => tokens.join(''));

export const itemsArb = fc.uniqueArray(
  fc.record({ id: idArb, title: titleArb, n: numberArb, createdAt: instantArb, parentId: fc.option(idArb, { nil: null }), members: fc.subarray(MEMBERS) }),
  { selector: (item) => item.id, minLength: 1, maxLength: 30, size: 'max' },
);

const VALUE_ARBS: Record<FieldName, fc.Arbitrary<Scalar>> = {
  id: idArb, title: titleArb, n: numberArb, createdAt: instantArb, parentId: idArb, members: fc.constantFrom(...MEMBERS, 'u9'),
};
const OPS: Record<FieldName, readonly ModelOp[]> = {
  id: ['eq', 'ne', 'like', 'in', 'gt', 'gte', 'lt', 'lte'],
  // like twice, so that the escapes of LIKE get their share of runs.
  title: ['eq', 'ne', 'like', 'like', 'in', 'gt', 'gte', 'lt', 'lte'],
  parentId: ['eq', 'ne', 'like', 'in', 'gt', 'gte', 'lt', 'lte'],
  n: ['eq', 'ne', 'in', 'gt', 'gte', 'lt', 'lte', 'range'],
  createdAt: ['eq', 'ne', 'in', 'gt', 'gte', 'lt', 'lte', 'range'],
  members: ['eq', 'ne', 'in'],
};

const filterArb: fc.Arbitrary<ModelFilter> = fc
  .constantFrom(...(Object.keys(OPS) as FieldName[]))
  .chain((field) => fc.constantFrom(...OPS[field]).map((op) => ({ field, op })))
  .chain(({ field, op }) => {
    const values = op === 'in' ? fc.array(VALUE_ARBS[field], { minLength: 1, maxLength: 3 })
      : op === 'range' ? fc.tuple(VALUE_ARBS[field], VALUE_ARBS[field])
      : op === 'like' ? likeArb.map((pattern) => [pattern])
      : VALUE_ARBS[field].map((value) => [value]);
    return values.map((vs) => ({ field, op, values: vs }));
  });

export const queryArb: fc.Arbitrary<ModelQuery> = fc.record({
  filters: fc.array(filterArb, { maxLength: 4 }),
  sort: fc.uniqueArray(
    fc.record({ field: fc.constantFrom('id', 'title', 'n', 'createdAt', 'parentId'), direction: fc.constantFrom('ASC', 'DESC') }),
    { selector: (key) => key.field, maxLength: 3 },
  ),
  limit: fc.option(fc.integer({ min: 0, max: 120 }), { nil: null }),
  offset: fc.option(fc.integer({ min: 0, max: 30 }), { nil: null }),
});

/** The answer the contract asks for: filter (AND), order (ties by id in the last key's direction), page. */
export function answerQuery(items: readonly Item[], query: ModelQuery): { ids: string[]; total: number } {
  const matching = items.filter((item) => query.filters.every((filter) => matchesFilter(item, filter)));
  const last = query.sort.at(-1)?.direction ?? 'ASC';
  const keys: ModelSort[] = [...query.sort, { field: 'id', direction: last }];
  matching.sort((a, b) => {
    for (const key of keys) {
      const order = compareSql(a[key.field], b[key.field]);
      if (order !== 0) return key.direction === 'ASC' ? order : -order;
    }
    return 0;
  });
  const offset = query.offset ?? 0;
  const limit = Math.min(query.limit ?? 20, 100);
  return { ids: matching.slice(offset, offset + limit).map((item) => item.id), total: matching.length };
}

function matchesFilter(item: Item, filter: ModelFilter): boolean {
  const { op, values } = filter;
  if (filter.field === 'members') {
    const hits = values.map((value) => item.members.includes(String(value)));
    return op === 'ne' ? !hits[0] : hits.some(Boolean);
  }
  const actual = item[filter.field];
  // SQL: null matches nothing, except `IS NOT ?`, which keeps it.
  if (actual === null) return op === 'ne';
  const [first = '', second = ''] = values;
  switch (op) {
    case 'eq': return compareSql(actual, first) === 0;
    case 'ne': return compareSql(actual, first) !== 0;
    case 'in': return values.some((value) => compareSql(actual, value) === 0);
    case 'like': return likeToRegExp(String(first)).test(String(actual));
    case 'gt': return compareSql(actual, first) > 0;
    case 'gte': return compareSql(actual, first) >= 0;
    case 'lt': return compareSql(actual, first) < 0;
    case 'lte': return compareSql(actual, first) <= 0;
    case 'range': return compareSql(actual, first) >= 0 && compareSql(actual, second) <= 0;
  }
}

/** SQLite's order: NULL first, numbers numerically, text by BINARY collation (UTF-8 bytes, not UTF-16 units). */
function compareSql(a: Scalar | null, b: Scalar | null): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? -1 : 1;
  if (typeof a === 'number' && typeof b === 'number') return Math.sign(a - b);
  return Buffer.compare(Buffer.from(String(a)), Buffer.from(String(b)));
}

/** SQLite LIKE with ESCAPE '\': `%` any run, `_` one character, case folded for ASCII letters only. */
function likeToRegExp(pattern: string): RegExp {
  let source = '';
  const chars = [...pattern];
  for (let i = 0; i < chars.length; i += 1) {
    const char = chars[i] ?? '';
    if (char === '%') source += '.*';
    else if (char === '_') source += '.';
    else {
      const literal = char === '\\' ? (chars[(i += 1)] ?? '') : char;
      source += /[a-z]/i.test(literal) ? `[${literal.toLowerCase()}${literal.toUpperCase()}]` : literal.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    }
  }
  return new RegExp(`^${source}$`, 'su');
}

type Pair = readonly [name: string, value: string];

/**
 * Writes a model query as a query string, choosing among the equivalent forms of CONTRACT §6 and
 * between strict (encodeURIComponent) and minimal encoding. A filter no form can express (an `in`
 * list holding commas after filter[f][] was already used for that field) is left out of the
 * returned model as well.
 */
export function renderQuery(query: ModelQuery, choices: readonly number[]): { text: string; query: ModelQuery } {
  let at = 0;
  const pick = <T>(options: readonly T[]): T => options[(choices[at++ % choices.length] ?? 0) % options.length] as T;
  const bracketUsed = new Set<string>();
  const filters: ModelFilter[] = [];
  const pairs: Pair[] = [];
  for (const filter of query.filters) {
    const rendered = renderFilter(filter, pick, bracketUsed);
    if (rendered === null) continue;
    filters.push(filter);
    pairs.push(...rendered);
  }
  if (query.limit !== null) pairs.push(['limit', String(query.limit)]);
  if (query.offset !== null) pairs.push(['offset', String(query.offset)]);
  // Sort pairs keep their relative order (it is the sort order); everything else may go anywhere.
  const sortPairs = renderSort(query.sort, pick);
  const merged: Pair[] = [];
  while (pairs.length > 0 || sortPairs.length > 0) {
    const source = sortPairs.length === 0 ? pairs : pairs.length === 0 ? sortPairs : pick([pairs, sortPairs]);
    merged.push(source.shift() as Pair);
  }
  const text = merged.map(([name, value]) => {
    const encode = pick([encodeURIComponent, encodeMinimally]);
    return `${encode(name).replaceAll('=', '%3D')}=${encode(value)}`;
  });
  return { text: text.join('&'), query: { ...query, filters } };
}

function renderFilter(filter: ModelFilter, pick: <T>(options: readonly T[]) => T, bracketUsed: Set<string>): Pair[] | null {
  const { field, op } = filter;
  const texts = filter.values.map((value) => (field === 'createdAt' ? renderTimestamp(Number(value), pick([0, 1, 2, 3, 4, 5])) : String(value)));
  const [first = '', second = ''] = texts;
  const viaFilter = (): Pair[] => [['filter', `${field}|${pick([op, op.toUpperCase()])}|${first}`]];
  const viaBrackets = (): Pair[] => {
    bracketUsed.add(field);
    return texts.map((text) => [`filter[${field}][]`, text]);
  };
  const brackets = bracketUsed.has(field) ? [] : [viaBrackets];
  const options: (() => Pair[])[] = {
    eq: [viaFilter, (): Pair[] => [[`filter[${field}]`, first]], (): Pair[] => [[field, first]], ...brackets],
    ne: [viaFilter],
    like: [viaFilter],
    in: [
      ...(texts.every((text) => text !== '' && !text.includes(',')) ? [(): Pair[] => [['filter', `${field}|in|${texts.join(',')}`]]] : []),
      ...brackets,
    ],
    gt: [viaFilter, (): Pair[] => [[field, `>${first}`]]],
    lt: [viaFilter, (): Pair[] => [[field, `<${first}`]]],
    gte: [viaFilter, (): Pair[] => [[`${field}>`, first]]],
    lte: [viaFilter, (): Pair[] => [[`${field}<`, first]]],
    range: [
      (): Pair[] => [[field, `${first}-${second}`]],
      (): Pair[] => [['filter', `${field}|gte|${first}`], ['filter', `${field}|lte|${second}`]],
      (): Pair[] => [[`${field}>`, first], [`${field}<`, second]],
    ],
  }[op];
  return options.length === 0 ? null : pick(options)();
}

function renderSort(sort: readonly ModelSort[], pick: <T>(options: readonly T[]) => T): Pair[] {
  const [head, ...rest] = sort;
  if (head === undefined) return [];
  const spell = (direction: string): string => pick([direction, direction.toLowerCase(), direction[0] + direction.slice(1).toLowerCase()]);
  const brackets = (keys: readonly ModelSort[]): Pair[] => keys.map((key) => [`sort[${key.field}]`, spell(key.direction)]);
  return pick<() => Pair[]>([
    () => brackets(sort),
    () => [['sort', head.field], ...brackets(rest), ['order', spell(head.direction)]],
    () => [['order', spell(head.direction)], ['sort', head.field], ...brackets(rest)],
    () => [['sort', head.direction === 'DESC' ? `-${head.field}` : head.field], ...brackets(rest)],
  ])();
}

/** ISO 8601 in several spellings: with ms, without, date only, lower case, and with a zone offset. */
function renderTimestamp(ms: number, style: number): string {
  const iso = new Date(ms).toISOString();
  if (style === 1 && ms % DAY === 0) return iso.slice(0, 10);
  if (style === 2 && ms % 1000 === 0) return iso.replace('.000Z', 'Z');
  if (style === 3) return iso.toLowerCase();
  if (style >= 4) {
    const offset = style === 4 ? -300 : 330;
    const local = new Date(ms + offset * 60_000).toISOString().slice(0, 23);
    const minutes = Math.abs(offset);
    return `${local}${offset < 0 ? '-' : '+'}${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
  }
  return iso;
}

/** The least a browser's form encoding must escape: `%`, `&`, `+`, `#`, space (as `+`) and non-ASCII. */
function encodeMinimally(text: string): string {
  let out = '';
  for (const char of text) out += char === ' ' ? '+' : /[%&+#\u0080-\u{10FFFF}]/u.test(char) ? encodeURIComponent(char) : char;
  return out;
}
