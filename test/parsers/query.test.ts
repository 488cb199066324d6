// Table-driven tests of the collection query parser: every form of docs/protocol.md §6 and every way to get it wrong.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { ParseFailure } from '../../src/parsers/parse-failure.ts';
import { fieldsOf, parseQuery, type CollectionSpec, type ParseQueryOptions, type ParsedQuery } from '../../src/parsers/query.ts';

const SPEC: CollectionSpec = {
  fields: [
    { name: 'id', type: 'id' },
    { name: 'title', type: 'string' },
    { name: 'n', type: 'number' },
    { name: 'createdAt', type: 'timestamp' },
    { name: 'members', type: 'id-list' },
  ],
};

type FilterRow = [field: string, op: string, values: (string | number)[], param: string];
interface Summary {
  filters: FilterRow[];
  sort: [string, string][];
  limit: number;
  offset: number;
  requestedLimit: number;
  extra: Record<string, string>;
}

function summarize(query: ParsedQuery): Summary {
  return {
    filters: query.filters.map((f) => [f.field.name, f.op, f.values, f.param]),
    sort: query.sort.map((key) => [key.field.name, key.direction]),
    limit: query.limit,
    offset: query.offset,
    requestedLimit: query.requestedLimit,
    extra: Object.fromEntries(query.extra),
  };
}

const DEFAULTS: Summary = { filters: [], sort: [], limit: 20, offset: 0, requestedLimit: 20, extra: {} };
const JAN_1 = Date.UTC(2026, 0, 1);
const FEB_1 = Date.UTC(2026, 1, 1);

const VALID: { what: string; input: string; options?: ParseQueryOptions; expected: Partial<Summary> }[] = [
  { what: 'an empty query', input: '', expected: {} },
  { what: 'a leading ? and empty segments', input: '?&&limit=5&', expected: { limit: 5, requestedLimit: 5 } },
  { what: 'limit and offset', input: 'limit=5&offset=40', expected: { limit: 5, offset: 40, requestedLimit: 5 } },
  { what: 'limit=0 answers just the total', input: 'limit=0', expected: { limit: 0, requestedLimit: 0 } },
  { what: 'limit 100 is allowed', input: 'limit=100', expected: { limit: 100, requestedLimit: 100 } },
  { what: 'a larger limit is cut to 100', input: 'limit=101', expected: { limit: 100, requestedLimit: 101 } },
  { what: 'leading zeros are digits', input: 'limit=007', expected: { limit: 7, requestedLimit: 7 } },
  { what: 'caller defaults', input: 'limit=60', options: { defaultLimit: 10, maxLimit: 50 }, expected: { limit: 50, requestedLimit: 60 } },
  { what: 'caller default limit', input: '', options: { defaultLimit: 10 }, expected: { limit: 10, requestedLimit: 10 } },
  {
    what: 'reserved parameters are handed back decoded',
    input: 'after=01ABC&q=hello+w%C3%B6rld&empty=',
    options: { reserved: ['after', 'q', 'empty'] },
    expected: { extra: { after: '01ABC', q: 'hello wörld', empty: '' } },
  },
  { what: 'a reserved name wins over a field', input: 'title=x', options: { reserved: ['title'] }, expected: { extra: { title: 'x' } } },
  // filter=<field>|<op>|<value>
  { what: 'filter eq', input: 'filter=title|eq|hello', expected: { filters: [['title', 'eq', ['hello'], 'filter']] } },
  { what: 'filter ne', input: 'filter=n|ne|3', expected: { filters: [['n', 'ne', [3], 'filter']] } },
  { what: 'filter like keeps % and _', input: 'filter=title|like|%25a_b%25', expected: { filters: [['title', 'like', ['%a_b%'], 'filter']] } },
  { what: 'filter like with escapes', input: 'filter=title|like|100\\%25\\_\\\\', expected: { filters: [['title', 'like', ['100\\%\\_\\\\'], 'filter']] } },
  { what: 'filter like on an id field', input: 'filter=id|like|ab%25', expected: { filters: [['id', 'like', ['ab%'], 'filter']] } },
  { what: 'filter in', input: 'filter=n|in|1,2.5,-3', expected: { filters: [['n', 'in', [1, 2.5, -3], 'filter']] } },
  { what: 'filter gt/gte/lt/lte', input: 'filter=n|gt|1&filter=n|gte|2&filter=n|lt|9&filter=n|lte|8', expected: {
    filters: [['n', 'gt', [1], 'filter'], ['n', 'gte', [2], 'filter'], ['n', 'lt', [9], 'filter'], ['n', 'lte', [8], 'filter']],
  } },
  { what: 'the operator is case-insensitive', input: 'filter=n|GTE|2', expected: { filters: [['n', 'gte', [2], 'filter']] } },
  { what: 'the value may hold |', input: 'filter=title|eq|a|b||c', expected: { filters: [['title', 'eq', ['a|b||c'], 'filter']] } },
  { what: 'encoded | works too', input: 'filter=title%7Ceq%7Ca%7Cb', expected: { filters: [['title', 'eq', ['a|b'], 'filter']] } },
  { what: 'a timestamp filter is epoch ms', input: 'filter=createdAt|gt|2026-01-01', expected: { filters: [['createdAt', 'gt', [JAN_1], 'filter']] } },
  { what: 'list field eq/ne/in', input: 'filter=members|eq|u1&filter=members|ne|u2&filter=members|in|u3,u4', expected: {
    filters: [['members', 'eq', ['u1'], 'filter'], ['members', 'ne', ['u2'], 'filter'], ['members', 'in', ['u3', 'u4'], 'filter']],
  } },
  // filter[<field>][]
  { what: 'filter[f][] repeated is one in list', input: 'filter[n][]=1&title=x&filter[n][]=2', expected: {
    filters: [['n', 'in', [1, 2], 'filter[n][]'], ['title', 'eq', ['x'], 'title']],
  } },
  { what: 'filter[f][] values may hold commas', input: 'filter[title][]=a,b&filter[title][]=', expected: { filters: [['title', 'in', ['a,b', ''], 'filter[title][]']] } },
  { what: 'filter[f][] with encoded brackets', input: 'filter%5Bid%5D%5B%5D=a', expected: { filters: [['id', 'in', ['a'], 'filter[id][]']] } },
  { what: 'filter[f] is equality', input: 'filter[members]=u1&filter[members]=u2', expected: {
    filters: [['members', 'eq', ['u1'], 'filter[members]'], ['members', 'eq', ['u2'], 'filter[members]']],
  } },
  // sorting
  { what: 'sort[f]=ASC', input: 'sort[title]=ASC', expected: { sort: [['title', 'ASC']] } },
  { what: 'sort directions in any case, in order', input: 'sort[n]=desc&sort[createdAt]=Asc&sort[id]=DESC', expected: {
    sort: [['n', 'DESC'], ['createdAt', 'ASC'], ['id', 'DESC']],
  } },
  { what: 'sort=f defaults to ascending', input: 'sort=title', expected: { sort: [['title', 'ASC']] } },
  { what: 'sort=f&order=desc', input: 'sort=title&order=desc', expected: { sort: [['title', 'DESC']] } },
  { what: 'order before sort', input: 'order=DESC&sort=n', expected: { sort: [['n', 'DESC']] } },
  { what: 'sort=-f is descending', input: 'sort=-createdAt', expected: { sort: [['createdAt', 'DESC']] } },
  { what: 'both sort forms, by appearance', input: 'sort[n]=asc&sort=title&order=desc', expected: { sort: [['n', 'ASC'], ['title', 'DESC']] } },
  // <field>=<value>
  { what: 'string equality keeps hyphens', input: 'title=a-b-c', expected: { filters: [['title', 'eq', ['a-b-c'], 'title']] } },
  { what: 'id equality keeps hyphens', input: 'id=2026-01-01-x', expected: { filters: [['id', 'eq', ['2026-01-01-x'], 'id']] } },
  { what: 'a name without = is equality with ""', input: 'title', expected: { filters: [['title', 'eq', [''], 'title']] } },
  { what: 'a field may repeat', input: 'title=a&title=b', expected: { filters: [['title', 'eq', ['a'], 'title'], ['title', 'eq', ['b'], 'title']] } },
  { what: 'list field equality means contains', input: 'members=u-1', expected: { filters: [['members', 'eq', ['u-1'], 'members']] } },
  { what: 'number equality', input: 'n=-1.5', expected: { filters: [['n', 'eq', [-1.5], 'n']] } },
  { what: 'timestamp equality', input: 'createdAt=2026-01-01T00:00:00.000Z', expected: { filters: [['createdAt', 'eq', [JAN_1], 'createdAt']] } },
  // percent-decoding
  { what: 'percent-encoded UTF-8', input: 'title=%C3%A9t%C3%A9+%F0%9F%98%80', expected: { filters: [['title', 'eq', ['été 😀'], 'title']] } },
  { what: '+ is a space, %2B a plus', input: 'title=a+b%2Bc', expected: { filters: [['title', 'eq', ['a b+c'], 'title']] } },
  { what: 'encoded & and = stay in the value', input: 'title=a%26b%3Dc', expected: { filters: [['title', 'eq', ['a&b=c'], 'title']] } },
  { what: 'only the first = splits', input: 'title=x=y', expected: { filters: [['title', 'eq', ['x=y'], 'title']] } },
  // ranges
  { what: 'a date range', input: 'createdAt=2026-01-01-2026-02-01', expected: {
    filters: [['createdAt', 'gte', [JAN_1], 'createdAt'], ['createdAt', 'lte', [FEB_1], 'createdAt']],
  } },
  { what: 'a date-time range', input: 'createdAt=2026-01-01T00:00:00.000Z-2026-02-01T00:00:00.000Z', expected: {
    filters: [['createdAt', 'gte', [JAN_1], 'createdAt'], ['createdAt', 'lte', [FEB_1], 'createdAt']],
  } },
  { what: 'a range with negative offsets', input: 'createdAt=2025-12-31T19:00:00-05:00-2026-01-31T19:00-05:00', expected: {
    filters: [['createdAt', 'gte', [JAN_1], 'createdAt'], ['createdAt', 'lte', [FEB_1], 'createdAt']],
  } },
  { what: 'a number range', input: 'n=1.5-10', expected: { filters: [['n', 'gte', [1.5], 'n'], ['n', 'lte', [10], 'n']] } },
  { what: 'a negative number range', input: 'n=-5-10', expected: { filters: [['n', 'gte', [-5], 'n'], ['n', 'lte', [10], 'n']] } },
  { what: 'two negative bounds', input: 'n=-5--1', expected: { filters: [['n', 'gte', [-5], 'n'], ['n', 'lte', [-1], 'n']] } },
  { what: 'a reversed range is kept (and matches nothing)', input: 'n=9-1', expected: { filters: [['n', 'gte', [9], 'n'], ['n', 'lte', [1], 'n']] } },
  { what: 'no split: a negative number is equality', input: 'n=-5', expected: { filters: [['n', 'eq', [-5], 'n']] } },
  // comparisons
  { what: 'n=>1&n=<9', input: 'n=>1&n=<9', expected: { filters: [['n', 'gt', [1], 'n'], ['n', 'lt', [9], 'n']] } },
  { what: 'n>=5 and n<=7', input: 'n>=5&n<=7', expected: { filters: [['n', 'gte', [5], 'n'], ['n', 'lte', [7], 'n']] } },
  { what: 'encoded operators in the name', input: 'n%3E=5&n%3C=7', expected: { filters: [['n', 'gte', [5], 'n'], ['n', 'lte', [7], 'n']] } },
  { what: 'encoded operators in the value', input: 'n=%3E5&n=%3C7', expected: { filters: [['n', 'gt', [5], 'n'], ['n', 'lt', [7], 'n']] } },
  { what: 'an = after the operator belongs to the value', input: 'title=<=a&title=%3E%3Db', expected: {
    filters: [['title', 'lt', ['=a'], 'title'], ['title', 'gt', ['=b'], 'title']],
  } },
  { what: 'a comparison with a negative number', input: 'n=>-5', expected: { filters: [['n', 'gt', [-5], 'n']] } },
  { what: 'comparisons apply to text', input: 'title=>m&id<=k', expected: { filters: [['title', 'gt', ['m'], 'title'], ['id', 'lte', ['k'], 'id']] } },
  { what: 'a timestamp comparison with an encoded +', input: 'createdAt>=2026-01-01T02:00:00%2B02:00', expected: {
    filters: [['createdAt', 'gte', [JAN_1], 'createdAt']],
  } },
  { what: 'an unencoded + in an offset (read as a space) still means +', input: 'createdAt=>2026-01-01T05:30+05:30', expected: {
    filters: [['createdAt', 'gt', [JAN_1], 'createdAt']],
  } },
  // timestamp forms
  { what: 'timestamp forms', input: 'createdAt=2026-01-01T00:00Z&createdAt=2026-01-01t00:00:00z&createdAt=2026-01-01T00:00:00&createdAt=2026-01-01T01:00:00%2B0100', expected: {
    filters: [0, 1, 2, 3].map(() => ['createdAt', 'eq', [JAN_1], 'createdAt'] as FilterRow),
  } },
  { what: 'a fraction finer than ms is truncated', input: 'createdAt=2026-01-01T00:00:00.1239Z', expected: { filters: [['createdAt', 'eq', [JAN_1 + 123], 'createdAt']] } },
  { what: 'a leap day', input: 'createdAt=2028-02-29', expected: { filters: [['createdAt', 'eq', [Date.UTC(2028, 1, 29)], 'createdAt']] } },
];

const LONG = 'x'.repeat(1001);
const INVALID: { what: string; input: string; options?: ParseQueryOptions; field: string }[] = [
  { what: 'limit not a number', input: 'limit=abc', field: 'limit' },
  { what: 'limit negative', input: 'limit=-1', field: 'limit' },
  { what: 'limit with decimals', input: 'limit=1.5', field: 'limit' },
  { what: 'limit with an exponent', input: 'limit=1e2', field: 'limit' },
  { what: 'limit with a sign', input: 'limit=%2B1', field: 'limit' },
  { what: 'limit empty', input: 'limit=', field: 'limit' },
  { what: 'limit absurdly long', input: 'limit=1234567890123456', field: 'limit' },
  { what: 'limit twice', input: 'limit=1&limit=2', field: 'limit' },
  { what: 'offset negative', input: 'offset=-3', field: 'offset' },
  { what: 'offset not a number', input: 'offset=x', field: 'offset' },
  { what: 'a reserved parameter twice', input: 'after=a&after=b', options: { reserved: ['after'] }, field: 'after' },
  { what: 'an unknown parameter', input: 'foo=1', field: 'foo' },
  { what: 'field names are case-sensitive', input: 'Title=x', field: 'Title' },
  { what: 'an unknown field with >=', input: 'foo>=1', field: 'foo' },
  { what: 'an unknown bracket form', input: 'foo[bar]=1', field: 'foo[bar]' },
  { what: 'a prototype name is no field', input: '__proto__=1', field: '__proto__' },
  { what: 'a truncated escape in a value', input: 'title=100%', field: 'title' },
  { what: 'a non-hex escape in a value', input: 'title=%zz', field: 'title' },
  { what: 'an escape that is not UTF-8', input: 'title=%E0%A4', field: 'title' },
  { what: 'a bad escape in a name', input: 'ti%tle=x', field: 'ti%tle' },
  { what: 'filter without pipes', input: 'filter=title', field: 'filter' },
  { what: 'filter with one pipe', input: 'filter=title|eq', field: 'filter' },
  { what: 'filter on an unknown field', input: 'filter=nope|eq|x', field: 'filter' },
  { what: 'filter with an unknown operator', input: 'filter=title|regex|x', field: 'filter' },
  { what: 'filter with a wrong type', input: 'filter=n|eq|abc', field: 'filter' },
  { what: 'like on a number', input: 'filter=n|like|1%25', field: 'filter' },
  { what: 'like on a timestamp', input: 'filter=createdAt|like|2026%25', field: 'filter' },
  { what: 'like on a list', input: 'filter=members|like|u%25', field: 'filter' },
  { what: 'like with a stray backslash', input: 'filter=title|like|a\\b', field: 'filter' },
  { what: 'like ending in a backslash', input: 'filter=title|like|a\\', field: 'filter' },
  { what: 'an empty in list', input: 'filter=n|in|', field: 'filter' },
  { what: 'an in list with a bad value', input: 'filter=n|in|1,,2', field: 'filter' },
  { what: 'an in list too long', input: `filter=n|in|${Array.from({ length: 101 }, (_, i) => i).join(',')}`, field: 'filter' },
  { what: 'gt on a list', input: 'filter=members|gt|u1', field: 'filter' },
  { what: 'an id with a space', input: 'filter=id|eq|a+b', field: 'filter' },
  { what: 'filter[f][] on an unknown field', input: 'filter[nope][]=1', field: 'filter[nope][]' },
  { what: 'filter[f][] with a wrong type', input: 'filter[n][]=1&filter[n][]=x', field: 'filter[n][]' },
  { what: 'filter[f][] too many', input: Array.from({ length: 101 }, (_, i) => `filter[n][]=${i}`).join('&'), field: 'filter[n][]' },
  { what: 'filter[f] with a wrong type', input: 'filter[createdAt]=soon', field: 'filter[createdAt]' },
  { what: 'sort on an unknown field', input: 'sort[nope]=ASC', field: 'sort[nope]' },
  { what: 'an unknown direction', input: 'sort[title]=UP', field: 'sort[title]' },
  { what: 'an empty direction', input: 'sort[title]=', field: 'sort[title]' },
  { what: 'sort on a list', input: 'sort[members]=ASC', field: 'sort[members]' },
  { what: 'the same sort key twice', input: 'sort[title]=ASC&sort[title]=DESC', field: 'sort[title]' },
  { what: 'sort=f on an unknown field', input: 'sort=nope', field: 'sort' },
  { what: 'sort empty', input: 'sort=', field: 'sort' },
  { what: 'sort twice', input: 'sort=title&sort=n', field: 'sort' },
  { what: 'sort=f on a list', input: 'sort=members', field: 'sort' },
  { what: 'sort=f repeating a sort[f]', input: 'sort[n]=ASC&sort=n', field: 'sort' },
  { what: 'order without sort', input: 'order=asc', field: 'order' },
  { what: 'an unknown order', input: 'sort=title&order=up', field: 'order' },
  { what: 'order with sort=-f', input: 'sort=-title&order=asc', field: 'order' },
  { what: 'a number that is not one', input: 'n=abc', field: 'n' },
  { what: 'a number with an exponent', input: 'n=1e5', field: 'n' },
  { what: 'Infinity', input: 'n=Infinity', field: 'n' },
  { what: 'hex', input: 'n=0x10', field: 'n' },
  { what: 'a range that splits nowhere', input: 'n=1-2-3', field: 'n' },
  { what: 'a date range with a bad half', input: 'createdAt=2026-01-01-2026', field: 'createdAt' },
  { what: 'a comparison with a wrong type', input: 'n=>abc', field: 'n' },
  { what: 'a >= with a wrong type', input: 'n>=abc', field: 'n' },
  { what: '=>= is not an operator', input: 'n=>=5', field: 'n' },
  { what: 'an empty number', input: 'n=', field: 'n' },
  { what: 'a timestamp that is a word', input: 'createdAt=yesterday', field: 'createdAt' },
  { what: 'month 13', input: 'createdAt=2026-13-01', field: 'createdAt' },
  { what: 'February 30', input: 'createdAt=2026-02-30', field: 'createdAt' },
  { what: 'hour 24', input: 'createdAt=2026-01-01T24:00:00Z', field: 'createdAt' },
  { what: 'a month without a day', input: 'createdAt=2026-01', field: 'createdAt' },
  { what: 'a zone without a time', input: 'createdAt=2026-01-01Z', field: 'createdAt' },
  { what: 'an id that is too long', input: `id=${'a'.repeat(65)}`, field: 'id' },
  { what: 'an id with a dot', input: 'id=a.b', field: 'id' },
  { what: 'text that is too long', input: `title=${LONG}`, field: 'title' },
  { what: 'text with NUL', input: 'title=a%00b', field: 'title' },
  { what: 'a comparison on a list', input: 'members=>u1', field: 'members' },
  { what: 'a range on a list', input: 'members<=u1', field: 'members' },
  { what: 'an injected sort field', input: 'sort[title; DROP TABLE x]=ASC', field: 'sort[title; DROP TABLE x]' },
];

/** assert.throws validator: a bad-query ParseFailure (a 400 ERR_BAD_QUERY) whose problem and detail name exactly `field`. */
function isBadQuery(field: string) {
  return (error: unknown): true => {
    assert.ok(error instanceof ParseFailure, `expected a ParseFailure, got ${String(error)}`);
    assert.equal(error.kind, 'bad-query');
    assert.equal(error.problem?.field, field);
    assert.ok(error.detail.includes(field), `detail ${JSON.stringify(error.detail)} names ${field}`);
    return true;
  };
}

describe('parseQuery: valid forms', () => {
  for (const { what, input, options, expected } of VALID) {
    test(what, () => {
      assert.deepEqual(summarize(parseQuery(input, SPEC, options)), { ...DEFAULTS, ...expected });
    });
  }
});

describe('parseQuery: 400 naming the parameter', () => {
  for (const { what, input, options, field } of INVALID) {
    test(what, () => {
      assert.throws(() => parseQuery(input, SPEC, options), isBadQuery(field));
    });
  }
});

describe('parseQuery: timestamps', () => {
  const instant = fc.integer({ min: Date.UTC(1970, 0, 1), max: Date.UTC(9999, 11, 31) });

  test('any toISOString() reads back as the same milliseconds', () => {
    fc.assert(fc.property(instant, (ms) => {
      const query = parseQuery(`createdAt=${encodeURIComponent(new Date(ms).toISOString())}`, SPEC);
      assert.deepEqual(summarize(query).filters, [['createdAt', 'eq', [ms], 'createdAt']]);
    }));
  });

  test('any two ISO instants joined by - are a range', () => {
    fc.assert(fc.property(instant, instant, (low, high) => {
      const text = `${new Date(low).toISOString()}-${new Date(high).toISOString()}`;
      assert.deepEqual(summarize(parseQuery(`createdAt=${text}`, SPEC)).filters, [
        ['createdAt', 'gte', [low], 'createdAt'],
        ['createdAt', 'lte', [high], 'createdAt'],
      ]);
    }));
  });
});

test('fieldsOf: a collection\'s fields from { name: type }, in the order written', () => {
  assert.deepEqual(fieldsOf({ id: 'id', title: 'string', members: 'id-list', createdAt: 'timestamp', x: 'number' }), [
    { name: 'id', type: 'id' },
    { name: 'title', type: 'string' },
    { name: 'members', type: 'id-list' },
    { name: 'createdAt', type: 'timestamp' },
    { name: 'x', type: 'number' },
  ]);
});
