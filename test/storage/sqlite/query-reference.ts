// Random rows and random queries of docs/protocol.md §6 for the SQL property test; the shared model renders and answers them.
import fc from 'fast-check';
import type { CollectionSpec } from '../../../src/parsers/query.ts';
import type { SqlColumns } from '../../../src/storage/sqlite/query-sql.ts';
import {
  answerQuery as answerModelQuery, chooser, renderQuery as renderModelQuery,
  type ModelField, type ModelFilter, type ModelOp, type ModelQuery, type ModelSort,
} from '../../http/query-model.ts';

export const ITEMS_SCHEMA = `
  CREATE TABLE items (id TEXT PRIMARY KEY, title TEXT NOT NULL, n REAL NOT NULL, created_at INTEGER NOT NULL, parent_id TEXT) STRICT;
  CREATE TABLE item_members (item_id TEXT NOT NULL, user_id TEXT NOT NULL, PRIMARY KEY (item_id, user_id)) STRICT;
`;

export const ITEMS: CollectionSpec = {
  fields: [
    { name: 'id', type: 'id' },
    { name: 'title', type: 'string' },
    { name: 'n', type: 'number' },
    { name: 'createdAt', type: 'timestamp' },
    { name: 'parentId', type: 'id' },
    { name: 'members', type: 'id-list' },
  ],
};

/** How the items' fields are spelled in SQL, as a backend's collection says it. */
export const ITEMS_SQL: SqlColumns = {
  idField: 'id',
  columns: { id: 'items.id', title: 'items.title', n: 'items.n', createdAt: 'items.created_at', parentId: 'items.parent_id' },
  contains: { members: 'EXISTS (SELECT 1 FROM item_members im WHERE im.item_id = items.id AND im.user_id = ?)' },
};

// A type, not an interface, so that it is an item of the shared model (Record<string, unknown>).
export type Item = {
  id: string;
  title: string;
  n: number;
  createdAt: number;
  parentId: string | null;
  members: string[];
};

type Scalar = string | number;
type FieldName = keyof Item;

// The fields as the shared model sees them; a row holds createdAt as epoch ms, not as ISO text.
const FIELDS = Object.fromEntries(
  ITEMS.fields.map((field): [string, ModelField] => [field.name, { name: field.name, kind: field.type, epochMs: field.type === 'timestamp' }]),
) as Record<FieldName, ModelField>;

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
    return values.map((vs) => ({ field: FIELDS[field], op, values: vs }));
  });

export const queryArb: fc.Arbitrary<ModelQuery> = fc.record({
  filters: fc.array(filterArb, { maxLength: 4 }),
  sort: fc.uniqueArray(
    fc.record({ field: fc.constantFrom(FIELDS.id, FIELDS.title, FIELDS.n, FIELDS.createdAt, FIELDS.parentId), direction: fc.constantFrom<ModelSort['direction']>('ASC', 'DESC') }),
    { selector: (key) => key.field.name, maxLength: 3 },
  ),
  limit: fc.option(fc.integer({ min: 0, max: 120 }), { nil: null }),
  offset: fc.option(fc.integer({ min: 0, max: 30 }), { nil: null }),
});

/** The answer the contract asks for, from the shared model; ties are broken by id. */
export function answerQuery(items: readonly Item[], query: ModelQuery): { ids: string[]; total: number } {
  return answerModelQuery(items, query, FIELDS.id);
}

/** The query as a query string in forms chosen by `choices`, from the shared renderer. */
export function renderQuery(query: ModelQuery, choices: readonly number[]): { text: string; query: ModelQuery } {
  return renderModelQuery(query, chooser(choices));
}
