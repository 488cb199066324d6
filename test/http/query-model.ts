// A plain-TypeScript model of docs/protocol.md §6 over items as the API returns them or as rows hold them: filter, sort, page, and query strings to ask for them.
import fc from 'fast-check';

export type FieldKind = 'id' | 'string' | 'number' | 'timestamp' | 'id-list';
export type ModelOp = 'eq' | 'ne' | 'like' | 'in' | 'gt' | 'gte' | 'lt' | 'lte' | 'range';

export interface ModelField {
  name: string;
  kind: FieldKind;
  /** The column compares without regard to ASCII case (SQLite COLLATE NOCASE), as users.login does. */
  nocase?: boolean;
  /** The item holds this timestamp as epoch ms, as a storage row does, not as ISO 8601 text, as the API does. */
  epochMs?: boolean;
}

type Scalar = string | number;
/** The public fields of users and of messages, as the HTTP-level query tests model them. */
export const USER_MODEL_FIELDS: readonly ModelField[] = [
  { name: 'id', kind: 'id' },
  { name: 'login', kind: 'string', nocase: true },
  { name: 'avatar', kind: 'id' },
  { name: 'createdAt', kind: 'timestamp' },
  { name: 'updatedAt', kind: 'timestamp' },
];

export const MESSAGE_MODEL_FIELDS: readonly ModelField[] = [
  { name: 'id', kind: 'id' },
  { name: 'chatId', kind: 'id' },
  { name: 'authorId', kind: 'id' },
  { name: 'text', kind: 'string' },
  { name: 'replyTo', kind: 'id' },
  { name: 'createdAt', kind: 'timestamp' },
  { name: 'updatedAt', kind: 'timestamp' },
];

export type Item = Record<string, unknown>;
export interface ModelFilter { field: ModelField; op: ModelOp; values: Scalar[] }
export interface ModelSort { field: ModelField; direction: 'ASC' | 'DESC' }
export interface ModelQuery { filters: ModelFilter[]; sort: ModelSort[]; limit: number | null; offset: number | null }

/** The value SQL compares: timestamps as epoch ms, everything else as the item has it (null stays null). */
function valueOf(item: Item, field: ModelField): Scalar | null {
  const raw = item[field.name];
  if (raw === null || raw === undefined) return null;
  return field.kind === 'timestamp' && field.epochMs !== true ? Date.parse(String(raw)) : (raw as Scalar);
}

/** The answer the contract asks for: filter (AND), order (ties by id in the last key's direction), page. */
export function answerQuery(items: readonly Item[], query: ModelQuery, idField: ModelField): { ids: string[]; total: number } {
  const matching = items.filter((item) => query.filters.every((filter) => matchesFilter(item, filter)));
  const last = query.sort.at(-1)?.direction ?? 'ASC';
  const keys: ModelSort[] = [...query.sort, { field: idField, direction: last }];
  matching.sort((a, b) => {
    for (const key of keys) {
      const order = compareSql(valueOf(a, key.field), valueOf(b, key.field), key.field.nocase === true);
      if (order !== 0) return key.direction === 'ASC' ? order : -order;
    }
    return 0;
  });
  const offset = query.offset ?? 0;
  const limit = Math.min(query.limit ?? 20, 100);
  return { ids: matching.slice(offset, offset + limit).map((item) => String(item[idField.name])), total: matching.length };
}

export function matchesFilter(item: Item, filter: ModelFilter): boolean {
  const { field, op, values } = filter;
  if (field.kind === 'id-list') {
    const list = (item[field.name] ?? []) as string[];
    const hits = values.map((value) => list.includes(String(value)));
    return op === 'ne' ? !hits[0] : hits.some(Boolean);
  }
  const actual = valueOf(item, field);
  // SQL: null matches nothing, except `IS NOT ?`, which keeps it.
  if (actual === null) return op === 'ne';
  const compare = (value: Scalar | undefined): number => compareSql(actual, value ?? '', field.nocase === true);
  const [first, second] = values;
  switch (op) {
    case 'eq': return compare(first) === 0;
    case 'ne': return compare(first) !== 0;
    case 'in': return values.some((value) => compare(value) === 0);
    case 'like': return likeToRegExp(String(first)).test(String(actual));
    case 'gt': return compare(first) > 0;
    case 'gte': return compare(first) >= 0;
    case 'lt': return compare(first) < 0;
    case 'lte': return compare(first) <= 0;
    case 'range': return compare(first) >= 0 && compare(second) <= 0;
  }
}

/** SQLite's order: NULL first, numbers numerically, text by UTF-8 bytes (BINARY) or with A-Z folded (NOCASE). */
export function compareSql(a: Scalar | null, b: Scalar | null, nocase = false): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? -1 : 1;
  if (typeof a === 'number' && typeof b === 'number') return Math.sign(a - b);
  const fold = (text: string): string => (nocase ? text.replace(/[A-Z]/g, (c) => c.toLowerCase()) : text);
  return Buffer.compare(Buffer.from(fold(String(a))), Buffer.from(fold(String(b))));
}

/** SQLite LIKE with ESCAPE '\': `%` any run, `_` one character, case folded for ASCII letters only. */
export function likeToRegExp(pattern: string): RegExp {
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
export type Pick = <T>(options: readonly T[]) => T;

/** A deterministic chooser over a list of numbers, so fast-check can shrink the choices. */
export function chooser(choices: readonly number[]): Pick {
  let at = 0;
  return <T>(options: readonly T[]): T => options[(choices[at++ % Math.max(choices.length, 1)] ?? 0) % options.length] as T;
}

/**
 * Writes a model query as a query string, choosing among the equivalent forms of docs/protocol.md §6 and
 * between strict and minimal encoding. A filter no form can express (an `in` list holding commas
 * after filter[f][] was already used for that field) is left out of the returned model as well.
 */
export function renderQuery(query: ModelQuery, pick: Pick): { text: string; query: ModelQuery } {
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

function renderFilter(filter: ModelFilter, pick: Pick, bracketUsed: Set<string>): Pair[] | null {
  const { field, op } = filter;
  const name = field.name;
  const texts = filter.values.map((value) => (field.kind === 'timestamp' ? renderTimestamp(Number(value), pick([0, 1, 2, 3, 4, 5])) : String(value)));
  const [first = '', second = ''] = texts;
  const viaFilter = (): Pair[] => [['filter', `${name}|${pick([op, op.toUpperCase()])}|${first}`]];
  const viaBrackets = (): Pair[] => {
    bracketUsed.add(name);
    return texts.map((text) => [`filter[${name}][]`, text]);
  };
  const brackets = bracketUsed.has(name) ? [] : [viaBrackets];
  // `<field>=<value>` is read as a range or a comparison when the value looks like one; keep it for the rest.
  const plainEquality = !first.startsWith('>') && !first.startsWith('<');
  const options: (() => Pair[])[] = {
    eq: [viaFilter, (): Pair[] => [[`filter[${name}]`, first]], ...(plainEquality ? [(): Pair[] => [[name, first]]] : []), ...brackets],
    ne: [viaFilter],
    like: [viaFilter],
    in: [
      ...(texts.every((text) => text !== '' && !text.includes(',')) ? [(): Pair[] => [['filter', `${name}|in|${texts.join(',')}`]]] : []),
      ...brackets,
    ],
    gt: [viaFilter, (): Pair[] => [[name, `>${first}`]]],
    lt: [viaFilter, (): Pair[] => [[name, `<${first}`]]],
    gte: [viaFilter, (): Pair[] => [[`${name}>`, first]]],
    lte: [viaFilter, (): Pair[] => [[`${name}<`, first]]],
    range: [
      (): Pair[] => [[name, `${first}-${second}`]],
      (): Pair[] => [['filter', `${name}|gte|${first}`], ['filter', `${name}|lte|${second}`]],
      (): Pair[] => [[`${name}>`, first], [`${name}<`, second]],
    ],
  }[op];
  return options.length === 0 ? null : pick(options)();
}

function renderSort(sort: readonly ModelSort[], pick: Pick): Pair[] {
  const [head, ...rest] = sort;
  if (head === undefined) return [];
  const spell = (direction: string): string => pick([direction, direction.toLowerCase(), direction[0] + direction.slice(1).toLowerCase()]);
  const brackets = (keys: readonly ModelSort[]): Pair[] => keys.map((key) => [`sort[${key.field.name}]`, spell(key.direction)]);
  return pick<() => Pair[]>([
    () => brackets(sort),
    () => [['sort', head.field.name], ...brackets(rest), ['order', spell(head.direction)]],
    () => [['order', spell(head.direction)], ['sort', head.field.name], ...brackets(rest)],
    () => [['sort', head.direction === 'DESC' ? `-${head.field.name}` : head.field.name], ...brackets(rest)],
  ])();
}

const DAY = 86_400_000;

/** ISO 8601 in several spellings: with ms, without, date only, lower case, and with a zone offset. */
export function renderTimestamp(ms: number, style: number): string {
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

const LIKE_TOKENS = ['%', '_', '\\%', '\\_'];

/**
 * Random valid queries over `fields`, with values drawn from `pools` (values that occur in the data,
 * so filters hit rows, plus near misses). Sort keys never include id-list fields.
 */
export function queryArbitrary(fields: readonly ModelField[], pools: ReadonlyMap<string, readonly Scalar[]>): fc.Arbitrary<ModelQuery> {
  const opsOf = (field: ModelField): ModelOp[] => {
    switch (field.kind) {
      case 'id-list': return ['eq', 'ne', 'in'];
      case 'number':
      case 'timestamp': return ['eq', 'ne', 'in', 'gt', 'gte', 'lt', 'lte', 'range'];
      default: return ['eq', 'ne', 'like', 'like', 'in', 'gt', 'gte', 'lt', 'lte'];
    }
  };
  // A field that is null everywhere still gets values to compare with.
  const fallback: Record<FieldKind, Scalar> = { id: 'x', 'id-list': 'x', string: 'x', number: 0, timestamp: 0 };
  const valueArb = (field: ModelField): fc.Arbitrary<Scalar> => {
    const pool = pools.get(field.name) ?? [];
    return pool.length === 0 ? fc.constant(fallback[field.kind]) : fc.constantFrom(...pool);
  };
  const likeArb = (field: ModelField): fc.Arbitrary<Scalar> => fc
    .tuple(valueArb(field), fc.array(fc.constantFrom(...LIKE_TOKENS), { maxLength: 2 }), fc.nat(), fc.nat())
    .map(([value, tokens, cut, at]) => {
      // A piece of a real value, with wildcards around or inside it; the value's own % _ \ are escaped.
      const chars = [...String(value)];
      const start = cut % (chars.length + 1);
      const piece = chars.slice(start, start + 1 + (at % 4)).map((char) => (/[%_\\]/.test(char) ? `\\${char}` : char));
      const [before = '', after = ''] = tokens;
      return `${before === '' ? '%' : before}${piece.join('')}${after === '' ? '%' : after}`;
    });
  const filterArb: fc.Arbitrary<ModelFilter> = fc
    .constantFrom(...fields)
    .chain((field) => fc.constantFrom(...opsOf(field)).map((op) => ({ field, op })))
    .chain(({ field, op }) => {
      const values = op === 'in' ? fc.array(valueArb(field), { minLength: 1, maxLength: 3 })
        : op === 'range' ? fc.tuple(valueArb(field), valueArb(field)).map(([a, b]) => (compareSql(a, b) <= 0 ? [a, b] : [b, a]))
        : op === 'like' ? likeArb(field).map((pattern) => [pattern])
        : valueArb(field).map((value) => [value]);
      return values.map((vs) => ({ field, op, values: vs }));
    });
  const sortable = fields.filter((field) => field.kind !== 'id-list');
  return fc.record({
    filters: fc.array(filterArb, { maxLength: 3 }),
    sort: fc.uniqueArray(fc.record({ field: fc.constantFrom(...sortable), direction: fc.constantFrom<'ASC' | 'DESC'>('ASC', 'DESC') }), { selector: (key) => key.field.name, maxLength: 3 }),
    limit: fc.option(fc.integer({ min: 0, max: 120 }), { nil: null }),
    offset: fc.option(fc.integer({ min: 0, max: 40 }), { nil: null }),
  });
}

/** Values of each field as they occur in the items (timestamps as ms), plus the extra near misses given. */
export function valuePools(items: readonly Item[], fields: readonly ModelField[], extra: Record<string, readonly Scalar[]> = {}): Map<string, Scalar[]> {
  const pools = new Map<string, Scalar[]>();
  for (const field of fields) {
    const seen = new Set<Scalar>(extra[field.name] ?? []);
    for (const item of items) {
      const raw = item[field.name];
      if (raw === null || raw === undefined) continue;
      for (const value of field.kind === 'id-list' ? (raw as string[]) : [raw as Scalar]) {
        seen.add(field.kind === 'timestamp' ? Date.parse(String(value)) : value);
      }
    }
    pools.set(field.name, [...seen].filter((value) => value !== ''));
  }
  return pools;
}
