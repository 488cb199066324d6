// Tests of the query SQL builder: the SQL it writes, the same answers as a plain-TypeScript model, and no way in for injection.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { ParseFailure } from '../../../src/parsers/parse-failure.ts';
import { parseQuery, type CollectionSpec } from '../../../src/parsers/query.ts';
import { addCondition, buildQuerySql, type SqlColumns } from '../../../src/storage/sqlite/query-sql.ts';
import { ITEMS, ITEMS_SCHEMA, ITEMS_SQL, answerQuery, itemsArb, queryArb, renderQuery, type Item } from './query-reference.ts';

const CONTAINS = 'EXISTS (SELECT 1 FROM item_members im WHERE im.item_id = items.id AND im.user_id = ?)';

function sqlFor(rawQuery: string, spec: CollectionSpec = ITEMS, sql: SqlColumns = ITEMS_SQL) {
  return buildQuerySql(parseQuery(rawQuery, spec), sql);
}

function openItems(items: readonly Item[]): Database.Database {
  const db = new Database(':memory:');
  db.exec(ITEMS_SCHEMA);
  const insertItem = db.prepare('INSERT INTO items (id, title, n, created_at, parent_id) VALUES (?, ?, ?, ?, ?)');
  const insertMember = db.prepare('INSERT INTO item_members (item_id, user_id) VALUES (?, ?)');
  db.transaction(() => {
    for (const item of items) {
      insertItem.run(item.id, item.title, item.n, item.createdAt, item.parentId);
      for (const member of item.members) insertMember.run(item.id, member);
    }
  })();
  return db;
}

/** The page and the total, the way a collection handler asks for them. */
function runQuery(db: Database.Database, rawQuery: string): { ids: string[]; total: number } {
  const { where, params, orderBy, limit, offset } = sqlFor(rawQuery);
  const ids = db.prepare(`SELECT items.id FROM items WHERE ${where} ORDER BY ${orderBy} LIMIT ? OFFSET ?`).pluck().all(...params, limit, offset) as string[];
  const total = db.prepare(`SELECT COUNT(*) FROM items WHERE ${where}`).pluck().get(...params) as number;
  return { ids, total };
}

describe('buildQuerySql: the SQL', () => {
  const rows: { what: string; input: string; where: string; params: unknown[]; orderBy?: string }[] = [
    { what: 'no filter', input: '', where: '1', params: [], orderBy: 'items.id ASC' },
    { what: 'equality', input: 'title=x', where: '(items.title = ?)', params: ['x'] },
    { what: 'ne keeps nulls', input: 'filter=parentId|ne|a', where: '(items.parent_id IS NOT ?)', params: ['a'] },
    { what: 'like with an escape character', input: 'filter=title|like|a%25', where: "(items.title LIKE ? ESCAPE '\\')", params: ['a%'] },
    { what: 'in', input: 'filter=n|in|1,2,3', where: '(items.n IN (?, ?, ?))', params: [1, 2, 3] },
    { what: 'comparisons', input: 'n=>1&n<=2&filter=n|lt|3&n>=0', where: '(items.n > ?) AND (items.n <= ?) AND (items.n < ?) AND (items.n >= ?)', params: [1, 2, 3, 0] },
    { what: 'a range is two bounds', input: 'n=1-2', where: '(items.n >= ?) AND (items.n <= ?)', params: [1, 2] },
    { what: 'a list contains', input: 'members=u1', where: `(${CONTAINS})`, params: ['u1'] },
    { what: 'a list does not contain', input: 'filter=members|ne|u1', where: `(NOT (${CONTAINS}))`, params: ['u1'] },
    { what: 'a list contains any', input: 'filter[members][]=u1&filter[members][]=u2', where: `((${CONTAINS}) OR (${CONTAINS}))`, params: ['u1', 'u2'] },
    { what: 'ties broken by id in the last direction', input: 'sort[title]=ASC&sort[n]=DESC', where: '1', params: [], orderBy: 'items.title ASC, items.n DESC, items.id DESC' },
    { what: 'no tie-breaker when id is a key', input: 'sort[id]=DESC&sort[title]=ASC', where: '1', params: [], orderBy: 'items.id DESC, items.title ASC' },
  ];
  for (const { what, input, where, params, orderBy } of rows) {
    test(what, () => {
      const built = sqlFor(input);
      assert.deepEqual({ where: built.where, params: built.params }, { where, params });
      if (orderBy !== undefined) assert.equal(built.orderBy, orderBy);
    });
  }

  test('limit and offset pass through, cut to the largest', () => {
    assert.deepEqual([sqlFor('limit=500&offset=7').limit, sqlFor('limit=500&offset=7').offset], [100, 7]);
  });

  test('another id field gives the default order', () => {
    const spec: CollectionSpec = { idField: 'key', fields: [{ name: 'key', type: 'id' }] };
    assert.equal(sqlFor('', spec, { idField: 'key', columns: { key: 't.key' } }).orderBy, 't.key ASC');
  });

  test("addCondition appends a condition and its values after the query's own", () => {
    assert.deepEqual(addCondition(sqlFor(''), 'items.n > ?', 5), { ...sqlFor(''), where: '(items.n > ?)', params: [5] });
    const built = addCondition(sqlFor('title=x'), 'items.parent_id = ? OR items.id = ?', 'p', 'q');
    assert.deepEqual([built.where, built.params], ['(items.title = ?) AND (items.parent_id = ? OR items.id = ?)', ['x', 'p', 'q']]);
  });

  test('columns without the id field, a field or the contains SQL of a list are a programming error', () => {
    const title: CollectionSpec = { fields: [{ name: 'title', type: 'string' }] };
    assert.throws(() => sqlFor('', title, { idField: 'id', columns: { title: 't.title' } }), (error) => error instanceof Error && !(error instanceof ParseFailure));
    assert.throws(() => sqlFor('title=x', title, { idField: 'id', columns: { id: 't.id' } }), /no column for field title/);
    const tags: CollectionSpec = { fields: [{ name: 'id', type: 'id' }, { name: 'tags', type: 'id-list' }] };
    assert.throws(() => sqlFor('tags=a', tags, { idField: 'id', columns: { id: 't.id' } }), /contains SQL/);
  });
});

describe('buildQuerySql: SQLite semantics', () => {
  const items: Item[] = [
    { id: 'a', title: '100%', n: 1, createdAt: 1, parentId: null, members: [] },
    { id: 'b', title: '100 percent', n: 2, createdAt: 2, parentId: 'a', members: [] },
    { id: 'c', title: 'Élan', n: 3, createdAt: 3, parentId: null, members: [] },
    { id: 'd', title: 'élan ABC', n: 4, createdAt: 4, parentId: 'b', members: [] },
  ];
  const rows: { what: string; input: string; ids: string[] }[] = [
    { what: 'like folds ASCII case', input: 'filter=title|like|%25abc', ids: ['d'] },
    { what: 'like does not fold non-ASCII case (SQLite)', input: 'filter=title|like|%C3%A9lan%25', ids: ['d'] },
    { what: '% is a wildcard', input: 'filter=title|like|100%25', ids: ['a', 'b'] },
    { what: '\\% is a literal percent sign', input: 'filter=title|like|100\\%25', ids: ['a'] },
    { what: 'ne keeps rows whose field is null', input: 'filter=parentId|ne|a', ids: ['a', 'c', 'd'] },
    { what: 'comparisons skip nulls', input: 'parentId=>0', ids: ['b', 'd'] },
    { what: 'nulls sort first ascending', input: 'sort[parentId]=asc', ids: ['a', 'c', 'b', 'd'] },
    { what: 'nulls sort last descending, ties by id descending', input: 'sort=-parentId', ids: ['d', 'b', 'c', 'a'] },
  ];
  for (const { what, input, ids } of rows) {
    test(what, () => {
      const db = openItems(items);
      assert.deepEqual(runQuery(db, input).ids, ids);
      db.close();
    });
  }
});

describe('buildQuerySql: the same answers as the model', () => {
  test('random rows, random queries in every form', () => {
    fc.assert(
      fc.property(itemsArb, queryArb, fc.array(fc.nat(), { minLength: 1, maxLength: 40 }), (items, model, choices) => {
        const rendered = renderQuery(model, choices);
        const db = openItems(items);
        try {
          assert.deepEqual(runQuery(db, rendered.text), answerQuery(items, rendered.query), `query: ${rendered.text}`);
        } finally {
          db.close();
        }
      }),
      { numRuns: 1000 },
    );
  });
});

describe('buildQuerySql: injection', () => {
  const hostile: Item[] = [
    { id: 'a', title: "' OR 1=1 --", n: 1, createdAt: 1, parentId: null, members: ['u1'] },
    { id: 'b', title: '"; DROP TABLE items; --', n: 2, createdAt: 2, parentId: null, members: [] },
    { id: 'c', title: 'id) OR (1=1', n: 3, createdAt: 3, parentId: null, members: [] },
    { id: 'd', title: 'ünï 😀', n: 4, createdAt: 4, parentId: null, members: [] },
    { id: 'e', title: 'plain', n: 5, createdAt: 5, parentId: null, members: [] },
  ];
  const enc = encodeURIComponent;
  const rows: { what: string; input: string; ids?: string[]; field?: string }[] = [
    { what: 'a quote in an equality', input: `title=${enc("' OR 1=1 --")}`, ids: ['a'] },
    { what: 'a statement in an equality', input: `title=${enc('"; DROP TABLE items; --')}`, ids: ['b'] },
    { what: 'a parenthesis in a filter value', input: `filter=title|eq|${enc('id) OR (1=1')}`, ids: ['c'] },
    { what: 'quotes in an in list', input: `filter=title|in|${enc("' OR 1=1 --")},x`, ids: ['a'] },
    { what: 'quotes in a like pattern', input: `filter=title|like|${enc("%' OR '1'='1")}`, ids: [] },
    { what: 'a like pattern finding the hostile rows', input: 'filter=title|like|%25--', ids: ['a', 'b'] },
    { what: 'quotes in filter[f][]', input: `filter[title][]=${enc("' OR ''='")}`, ids: [] },
    { what: 'a comparison with a quote', input: `title=>${enc("'")}`, ids: ['a', 'c', 'd', 'e'] },
    { what: 'unicode', input: `title=${enc('ünï 😀')}`, ids: ['d'] },
    { what: 'an injected sort field', input: 'sort[title; DROP TABLE x]=ASC', field: 'sort[title; DROP TABLE x]' },
    { what: 'an injected sort=', input: `sort=${enc('title; DROP TABLE items')}`, field: 'sort' },
    { what: 'an injected direction', input: `sort[title]=${enc('ASC; DROP TABLE items')}`, field: 'sort[title]' },
    { what: 'an injected order', input: `sort=title&order=${enc('asc, (SELECT 1)')}`, field: 'order' },
    { what: 'an injected field name', input: `${enc('title; DROP TABLE items')}=1`, field: 'title; DROP TABLE items' },
    { what: 'an injected filter field', input: `filter=${enc('title) OR 1=1 --')}|eq|x`, field: 'filter' },
    { what: 'an injected operator', input: `filter=title|${enc('eq) OR (1=1')}|x`, field: 'filter' },
    { what: 'a quote in an id', input: `id=${enc("' OR 1=1 --")}`, field: 'id' },
    { what: 'SQL in a number', input: `n=${enc('1 OR 1=1')}`, field: 'n' },
    { what: 'SQL in a timestamp', input: `createdAt=${enc("2026-01-01' OR 1=1")}`, field: 'createdAt' },
    { what: 'SQL in a list value', input: `members=${enc("u1' OR 1=1")}`, field: 'members' },
    { what: 'SQL in limit', input: `limit=${enc('1; DROP TABLE items')}`, field: 'limit' },
    { what: 'a NUL byte', input: `title=${enc("a\0' OR 1=1")}`, field: 'title' },
  ];
  for (const { what, input, ids, field } of rows) {
    test(what, () => {
      const db = openItems(hostile);
      const schema = db.prepare('SELECT name FROM sqlite_master ORDER BY name').pluck().all();
      if (field === undefined) {
        assert.deepEqual(runQuery(db, input).ids, ids);
      } else {
        assert.throws(() => runQuery(db, input), (error) => error instanceof ParseFailure && error.kind === 'bad-query' && error.problem?.field === field);
      }
      assert.deepEqual(db.prepare('SELECT name FROM sqlite_master ORDER BY name').pluck().all(), schema);
      assert.equal(db.prepare('SELECT COUNT(*) FROM items').pluck().get(), hostile.length);
      db.close();
    });
  }

  test('no text of any query string reaches the SQL', () => {
    const text = fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom("'", '"; DROP TABLE items; --', ') OR (1=1', 'x\0y', '1', 'u1', '2026-01-01'));
    const name = fc.oneof(
      { arbitrary: fc.constantFrom('title', 'id', 'n', 'createdAt', 'members', 'title>', 'n<', 'filter', 'filter[title]', 'filter[title][]', 'sort', 'order', 'sort[title]', 'limit'), weight: 5 },
      { arbitrary: text, weight: 1 },
    );
    const value = fc.oneof(
      text,
      fc.tuple(fc.constantFrom('title', 'id', 'members', 'n', 'x'), fc.constantFrom('eq', 'ne', 'like', 'in', 'gt', 'LTE', 'x'), text)
        .map((parts) => parts.join('|')),
      fc.tuple(fc.constantFrom('>', '<', '', '-'), text).map((parts) => parts.join('')),
      fc.constantFrom('asc', 'DESC', 'title', '-n'),
    );
    const pair = fc.tuple(name, value, fc.boolean()).map(([n, v, strict]) => (strict ? `${encodeURIComponent(n)}=${encodeURIComponent(v)}` : `${n}=${v}`));
    // Strip every piece of SQL our own code writes; what is left must be keywords and punctuation.
    const ours = [CONTAINS, "ESCAPE '\\'", ...Object.values(ITEMS_SQL.columns)];
    fc.assert(fc.property(fc.array(pair, { maxLength: 4 }), (pairs) => {
      let built;
      try {
        built = sqlFor(pairs.join('&'));
      } catch (error) {
        assert.ok(error instanceof ParseFailure && error.kind === 'bad-query', String(error));
        return;
      }
      let rest = `${built.where} ${built.orderBy}`;
      for (const piece of ours) rest = rest.replaceAll(piece, ' ');
      assert.match(rest.replace(/\b(?:AND|OR|NOT|IN|IS|LIKE|ASC|DESC)\b/g, ' '), /^[\s()?,=<>1]*$/);
      assert.ok(built.params.every((param) => typeof param === 'string' || typeof param === 'number'));
    }), { numRuns: 2000 });
  });
});
