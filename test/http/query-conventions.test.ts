// The query conventions of docs/protocol.md §6 over HTTP, on every collection: each form, limits, errors, Link, and injection.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { RunningServer } from '../../src/index.ts';
import { ALL_ROUTES } from '../../src/resources/all-routes.ts';
import { gif, png } from './avatar-fixtures.ts';
import { call, registerAndLogIn, TestClock, withServer, type LoggedIn } from './client.ts';
import { answerQuery, MESSAGE_MODEL_FIELDS, USER_MODEL_FIELDS, type Item, type ModelField, type ModelFilter, type ModelOp, type ModelQuery, type ModelSort } from './query-model.ts';

const MINUTE = 60_000;
const routed = (pattern: string): boolean => ALL_ROUTES.some((route) => route.method === 'GET' && route.pattern === pattern);

/** A collection with data in it, as the tests below need it. */
interface Seeded {
  server: RunningServer;
  path: string;
  token: string;
  fields: readonly ModelField[];
  /** The field that orders by default and breaks ties. */
  idField: string;
  /** A text field and a timestamp field to write the forms with. */
  text: string;
  time: string;
  /** An id-list field, if the resource has one, and a value it holds. */
  list?: { field: string; value: string };
  /** A number field, if the resource has one. */
  number?: string;
  /**
   * The order without a sort, when it is not by id (avatars: the current one first, then newest), over
   * fields the model adds to each item (`extend`) because the resource does not show them.
   */
  defaultSort?: ModelSort[];
  extend?: (item: Item) => Item;
  /** More than 100 items, so that a cut limit shows. */
  many: boolean;
}

interface CollectionCase {
  name: string;
  pattern: string;
  seed(clock: TestClock, server: RunningServer): Promise<Seeded>;
}

// Texts that look like SQL; some are stored as data, so a literal match has something to find.
const INJECTIONS = [
  "' OR '1'='1",
  "' OR 1=1 --",
  '"; DROP TABLE users; --',
  '1) OR (1=1',
  "x' UNION SELECT password_hash, 1, 2 FROM users --",
  "%' OR 1=1 --",
  "\\'",
  '?',
  '?1',
  '@userId',
  '$1',
  ':name',
  'NULL',
  '1; DELETE FROM messages',
  ']',
  '[',
  '|',
  '||',
  '*',
  '%',
  '_',
  'ROWID',
  'sqlite_master',
  "' || (SELECT login FROM users LIMIT 1) || '",
  '`login`',
  'a\u0000b',
  'é\'"😀',
];

async function post(server: RunningServer, path: string, token: string, data: unknown, wrap = true): Promise<any> {
  const res = await call(server, 'POST', path, { token, json: wrap ? { data } : data });
  assert.equal(res.status, 201, `${path}: ${res.text}`);
  return wrap ? res.body.data : res.body;
}

async function registerSome(server: RunningServer, clock: TestClock, count: number, prefix: string): Promise<LoggedIn[]> {
  const users: LoggedIn[] = [];
  for (let i = 0; i < count; i += 1) {
    clock.advance(i % 3 === 0 ? 0 : MINUTE);
    users.push(await registerAndLogIn(server, `${prefix}${i % 2 === 0 ? 'A' : 'b'}${i}`));
  }
  return users;
}

const CASES: CollectionCase[] = [
  {
    name: 'users',
    pattern: '/users',
    async seed(clock, server) {
      const [caller] = await registerSome(server, clock, 1, 'caller');
      for (let i = 0; i < 104; i += 1) {
        clock.advance(i % 4 === 0 ? 0 : MINUTE * (i % 7));
        const login = ['Ann', 'bob', 'ZED', 'a_b', 'a-b', 'x.y'][i % 6]! + i;
        assert.equal((await call(server, 'POST', '/users', { json: { login, password: 'password 1234' } })).status, 201);
      }
      return {
        server, path: '/users', token: caller!.token, idField: 'id', text: 'login', time: 'createdAt', many: true,
        fields: USER_MODEL_FIELDS,
      };
    },
  },
  {
    name: 'chats',
    pattern: '/chats',
    async seed(clock, server) {
      const [caller, ...others] = await registerSome(server, clock, 5, 'chatter');
      const titles = ['Team', 'team b', "' OR '1'='1", 'Équipe', 'a_b%c', '"; DROP TABLE users; --', 'Zulu', 'x'];
      for (const [i, title] of titles.entries()) {
        clock.advance(i % 3 === 0 ? 0 : MINUTE);
        const members = others.filter((_, at) => (i >> at) % 2 === 1).map((user) => user.userId);
        await post(server, '/chats', caller!.token, { title, members });
      }
      // Someone else's chat is never listed.
      await post(server, '/chats', others[0]!.token, { title: 'Team secret' });
      return {
        server, path: '/chats', token: caller!.token, idField: 'id', text: 'title', time: 'createdAt', many: false,
        list: { field: 'members', value: others[1]!.userId },
        fields: [
          { name: 'id', kind: 'id' },
          { name: 'title', kind: 'string' },
          { name: 'ownerId', kind: 'id' },
          { name: 'members', kind: 'id-list' },
          { name: 'createdAt', kind: 'timestamp' },
          { name: 'updatedAt', kind: 'timestamp' },
        ],
      };
    },
  },
  {
    name: 'members',
    pattern: '/chats/:chatId/members',
    async seed(clock, server) {
      const [caller, ...others] = await registerSome(server, clock, 8, 'member');
      const chat = await post(server, '/chats', caller!.token, { title: 'members' });
      for (const [i, other] of others.entries()) {
        clock.advance(i % 3 === 0 ? 0 : MINUTE);
        const res = await call(server, 'PUT', `/chats/${chat.id}/members/${other.userId}`, { token: caller!.token });
        assert.equal(res.status, 204, res.text);
      }
      return {
        server, path: `/chats/${chat.id}/members`, token: caller!.token, idField: 'userId', text: 'login', time: 'addedAt', many: false,
        fields: [
          { name: 'userId', kind: 'id' },
          { name: 'login', kind: 'string', nocase: true },
          { name: 'addedAt', kind: 'timestamp' },
        ],
      };
    },
  },
  {
    name: 'messages',
    pattern: '/chats/:chatId/messages',
    async seed(clock, server) {
      const [caller, other] = await registerSome(server, clock, 2, 'poster');
      const chat = await post(server, '/chats', caller!.token, { title: 'history', members: [other!.userId] });
      const path = `/chats/${chat.id}/messages`;
      const texts = ['hello', 'Hello again', "' OR '1'='1", '100% sure', 'a_b', 'back\\slash', 'é😀', '"; DROP TABLE users; --', '|pipe|'];
      let previous: string | undefined;
      for (let i = 0; i < 105; i += 1) {
        clock.advance(i % 5 === 0 ? 0 : MINUTE * (i % 4));
        const author = i % 3 === 0 ? other! : caller!;
        const replyTo = i % 7 === 0 ? previous : undefined;
        previous = (await post(server, path, author.token, { text: `${texts[i % texts.length]}${i % 2 === 0 ? '' : ` ${i}`}`, ...(replyTo ? { replyTo } : {}) })).id;
      }
      const elsewhere = await post(server, '/chats', caller!.token, { title: 'elsewhere' });
      await post(server, `/chats/${elsewhere.id}/messages`, caller!.token, { text: 'hello' });
      return {
        server, path, token: caller!.token, idField: 'id', text: 'text', time: 'createdAt', many: true,
        fields: MESSAGE_MODEL_FIELDS,
      };
    },
  },
  {
    name: 'avatars',
    pattern: '/users/:userId/avatar',
    async seed(clock, server) {
      const [caller] = await registerSome(server, clock, 1, 'pictured');
      const path = `/users/${caller!.userId}/avatar`;
      const ids: string[] = [];
      for (let i = 0; i < 9; i += 1) {
        clock.advance(i % 3 === 0 ? 0 : MINUTE);
        const [w, h] = [40 + (i % 4) * 10, 30 + (i % 3) * 10];
        const bytes = i % 2 === 0 ? png(w, h) : gif(w, h);
        const zone = { x: i % 3, y: 1.5 * (i % 2), width: 10 + (i % 5), height: 10 + (i % 4) * 0.25 };
        ids.push((await post(server, path, caller!.token, { avatar: bytes.toString('base64'), ...zone }, false)).id);
      }
      const current = ids[4]!;
      assert.equal((await call(server, 'PATCH', '/users', { token: caller!.token, json: { avatar: current } })).status, 200);
      const isCurrent: ModelField = { name: '(current)', kind: 'number' };
      return {
        server, path, token: caller!.token, idField: 'id', text: 'contentType', time: 'createdAt', number: 'width', many: false,
        defaultSort: [{ field: isCurrent, direction: 'DESC' }, { field: { name: 'createdAt', kind: 'timestamp' }, direction: 'DESC' }],
        extend: (item) => ({ ...item, '(current)': item['id'] === current ? 1 : 0 }),
        fields: [
          { name: 'id', kind: 'id' },
          { name: 'userId', kind: 'id' },
          { name: 'contentType', kind: 'string' },
          { name: 'imageWidth', kind: 'number' },
          { name: 'imageHeight', kind: 'number' },
          { name: 'x', kind: 'number' },
          { name: 'y', kind: 'number' },
          { name: 'width', kind: 'number' },
          { name: 'height', kind: 'number' },
          { name: 'createdAt', kind: 'timestamp' },
        ],
      };
    },
  },
];

async function fetchAll(seeded: Seeded): Promise<Item[]> {
  const items: Item[] = [];
  for (let offset = 0; ; offset += 100) {
    const res = await call(seeded.server, 'GET', `${seeded.path}?limit=100&offset=${offset}`, { token: seeded.token });
    assert.equal(res.status, 200, res.text);
    items.push(...(res.body.data as Item[]));
    if (items.length >= res.body.meta.total) return items;
  }
}

/** Asks the API and the model the same question. */
async function assertSameAnswer(seeded: Seeded, items: readonly Item[], queryString: string, query: ModelQuery): Promise<{ total: number }> {
  const res = await call(seeded.server, 'GET', `${seeded.path}?${queryString}`, { token: seeded.token });
  assert.equal(res.status, 200, `${queryString}: ${res.text}`);
  const extended = seeded.extend ? items.map(seeded.extend) : items;
  const ordered = query.sort.length === 0 && seeded.defaultSort ? { ...query, sort: seeded.defaultSort } : query;
  const expected = answerQuery(extended, ordered, fieldOf(seeded, seeded.idField));
  assert.deepEqual({ ids: res.body.data.map((item: Item) => item[seeded.idField]), total: res.body.meta.total }, expected, queryString);
  return expected;
}

function fieldOf(seeded: Seeded, name: string): ModelField {
  const field = seeded.fields.find((candidate) => candidate.name === name);
  assert.ok(field, name);
  return field;
}

function parseLinks(header: string | string[] | undefined): Record<string, string> {
  const links: Record<string, string> = {};
  for (const match of String(header ?? '').matchAll(/<([^>]*)>;\s*rel="([^"]*)"/g)) links[match[2]!] = match[1]!;
  return links;
}

const enc = encodeURIComponent;

function checkCollection(collection: CollectionCase): void {
  test(`${collection.name}: the query conventions`, { skip: !routed(collection.pattern) && `${collection.pattern} is not routed yet` }, async (t) => {
    const clock = new TestClock();
    const server = await withServer(t, { clock });
    const seeded = await collection.seed(clock, server);
    const items = await fetchAll(seeded);
    assert.ok(items.length >= 5, 'enough data to page through');
    const text = fieldOf(seeded, seeded.text);
    const time = fieldOf(seeded, seeded.time);
    const id = fieldOf(seeded, seeded.idField);
    const filter = (field: ModelField, op: ModelOp, ...values: (string | number)[]): ModelFilter => ({ field, op, values });
    const sortBy = (field: ModelField, direction: 'ASC' | 'DESC'): ModelSort => ({ field, direction });
    const query = (part: Partial<ModelQuery>): ModelQuery => ({ filters: [], sort: [], limit: null, offset: null, ...part });

    const times = [...new Set(items.map((item) => Date.parse(String(item[time.name]))))].sort((a, b) => a - b);
    const low = times[1] ?? times[0]!;
    const high = times.at(-2) ?? times.at(-1)!;
    const iso = (ms: number): string => new Date(ms).toISOString();
    const word = String(items[2]![text.name]);
    const someIds = [String(items[0]![id.name]), String(items[3]![id.name])];
    const firstChar = [...word][0]!;
    const like = `%${/[%_\\]/.test(firstChar) ? `\\${firstChar}` : firstChar}%`;

    await t.test('every form of the table, alone and combined with AND, answers as the model does', async () => {
      const rows: [string, ModelQuery][] = [
        ['', query({})],
        ['limit=3&offset=2', query({ limit: 3, offset: 2 })],
        [`filter=${text.name}|eq|${enc(word)}`, query({ filters: [filter(text, 'eq', word)] })],
        [`filter=${text.name}|ne|${enc(word)}`, query({ filters: [filter(text, 'ne', word)] })],
        [`filter=${text.name}|like|${enc(like)}`, query({ filters: [filter(text, 'like', like)] })],
        [`filter=${text.name}|LIKE|${enc(word.toUpperCase())}`, query({ filters: [filter(text, 'like', word.toUpperCase())] })],
        [`filter=${id.name}|in|${someIds.join(',')}`, query({ filters: [filter(id, 'in', ...someIds)] })],
        [`filter=${time.name}|gt|${iso(low)}`, query({ filters: [filter(time, 'gt', low)] })],
        [`filter=${time.name}|gte|${iso(low)}`, query({ filters: [filter(time, 'gte', low)] })],
        [`filter=${time.name}|lt|${iso(high)}`, query({ filters: [filter(time, 'lt', high)] })],
        [`filter=${time.name}|lte|${iso(high)}`, query({ filters: [filter(time, 'lte', high)] })],
        [`filter[${id.name}][]=${someIds[0]}&filter[${id.name}][]=${someIds[1]}`, query({ filters: [filter(id, 'in', ...someIds)] })],
        [`sort[${text.name}]=DESC&sort[${time.name}]=asc`, query({ sort: [sortBy(text, 'DESC'), sortBy(time, 'ASC')] })],
        [`sort[${time.name}]=Desc`, query({ sort: [sortBy(time, 'DESC')] })],
        [`sort=${time.name}&order=desc`, query({ sort: [sortBy(time, 'DESC')] })],
        [`sort=${text.name}`, query({ sort: [sortBy(text, 'ASC')] })],
        [`sort=-${text.name}`, query({ sort: [sortBy(text, 'DESC')] })],
        [`${text.name}=${enc(word)}`, query({ filters: [filter(text, 'eq', word)] })],
        [`${time.name}=${iso(low)}`, query({ filters: [filter(time, 'eq', low)] })],
        [`${time.name}=${iso(low)}-${iso(high)}`, query({ filters: [filter(time, 'range', low, high)] })],
        [`${time.name}=${iso(low).slice(0, 10)}-${iso(high + 86_400_000).slice(0, 10)}`, query({ filters: [filter(time, 'range', Date.parse(iso(low).slice(0, 10)), Date.parse(iso(high + 86_400_000).slice(0, 10)))] })],
        [`${time.name}=>${iso(low)}&${time.name}=<${iso(high)}`, query({ filters: [filter(time, 'gt', low), filter(time, 'lt', high)] })],
        [`${time.name}>=${iso(low)}`, query({ filters: [filter(time, 'gte', low)] })],
        [`${time.name}<=${enc(iso(high).replace('Z', '+00:00'))}`, query({ filters: [filter(time, 'lte', high)] })],
        [
          `${time.name}>=${iso(low)}&filter=${text.name}|like|${enc(like)}&sort=-${time.name}&limit=4&offset=1&filter=${id.name}|ne|${someIds[0]}`,
          query({ filters: [filter(time, 'gte', low), filter(text, 'like', like), filter(id, 'ne', someIds[0]!)], sort: [sortBy(time, 'DESC')], limit: 4, offset: 1 }),
        ],
      ];
      if (seeded.number) {
        const number = fieldOf(seeded, seeded.number);
        const values = [...new Set(items.map((item) => Number(item[number.name])))].sort((a, b) => a - b);
        const [a = 0, b = 0] = [values[1] ?? values[0], values.at(-2) ?? values.at(-1)];
        rows.push(
          [`${number.name}=${a}`, query({ filters: [filter(number, 'eq', a)] })],
          [`${number.name}=${a}-${b}`, query({ filters: [filter(number, 'range', a, b)] })],
          [`${number.name}=>${a}&${number.name}=<${b}`, query({ filters: [filter(number, 'gt', a), filter(number, 'lt', b)] })],
          [`${number.name}>=${a}&${number.name}<=${b}`, query({ filters: [filter(number, 'gte', a), filter(number, 'lte', b)] })],
          [`filter=${number.name}|in|${values.slice(0, 2).join(',')},-1.5`, query({ filters: [filter(number, 'in', ...values.slice(0, 2), -1.5)] })],
          [`filter[${number.name}][]=${a}&filter[${number.name}][]=${b}`, query({ filters: [filter(number, 'in', a, b)] })],
          [`filter=${number.name}|ne|${a}&sort=-${number.name}`, query({ filters: [filter(number, 'ne', a)], sort: [sortBy(number, 'DESC')] })],
        );
      }
      if (seeded.list) {
        const list = fieldOf(seeded, seeded.list.field);
        const value = seeded.list.value;
        rows.push(
          [`${list.name}=${value}`, query({ filters: [filter(list, 'eq', value)] })],
          [`filter=${list.name}|ne|${value}`, query({ filters: [filter(list, 'ne', value)] })],
          [`filter[${list.name}][]=${value}&filter[${list.name}][]=nobody`, query({ filters: [filter(list, 'in', value, 'nobody')] })],
        );
      }
      for (const [queryString, model] of rows) await assertSameAnswer(seeded, items, queryString, model);
      // The filters above were written to find something, not nothing.
      assert.ok((await assertSameAnswer(seeded, items, `${text.name}=${enc(word)}`, rows[2]![1])).total >= 1);
      assert.ok((await assertSameAnswer(seeded, items, rows[19]![0], rows[19]![1])).total >= 2);
    });

    await t.test('a limit over 100 is cut to 100 and meta says so', async () => {
      const res = await call(server, 'GET', `${seeded.path}?limit=1000`, { token: seeded.token });
      assert.equal(res.status, 200);
      assert.equal(res.body.meta.limit, 100);
      assert.equal(res.body.data.length, Math.min(items.length, 100));
      if (seeded.many) assert.equal(res.body.data.length, 100);
      const standard = await call(server, 'GET', seeded.path, { token: seeded.token });
      assert.deepEqual([standard.body.meta.limit, standard.body.meta.offset, standard.body.meta.total], [20, 0, items.length]);
    });

    await t.test('malformed paging, unknown fields and wrong types answer 400 naming the parameter', async () => {
      const rows: [string, string][] = [
        ['limit=abc', 'limit'],
        ['limit=-1', 'limit'],
        ['offset=1.5', 'offset'],
        ['nope=1', 'nope'],
        ['filter=nope|eq|1', 'filter'],
        ['filter[nope][]=1', 'filter[nope][]'],
        ['sort[nope]=ASC', 'sort[nope]'],
        ['sort=nope', 'sort'],
        [`sort[${text.name}]=sideways`, `sort[${text.name}]`],
        [`filter=${text.name}|regex|a`, 'filter'],
        [`${time.name}=yesterday`, time.name],
        [`filter=${time.name}|like|2026%25`, 'filter'],
      ];
      for (const [queryString, field] of rows) {
        const res = await call(server, 'GET', `${seeded.path}?${queryString}`, { token: seeded.token });
        assert.equal(res.status, 400, queryString);
        assert.equal(res.headers['content-type'], 'application/problem+json');
        assert.deepEqual(res.body.errors.map((error: { field: string }) => error.field), [field], queryString);
      }
    });

    await t.test('Link carries next and prev with the other parameters kept', async () => {
      const total = items.length;
      const at = (queryString: string) => call(server, 'GET', `${seeded.path}?${queryString}`, { token: seeded.token });
      assert.deepEqual(parseLinks((await at('limit=2')).headers['link']), { next: `${seeded.path}?limit=2&offset=2` });
      assert.deepEqual(parseLinks((await at('limit=2&offset=2')).headers['link']), {
        next: `${seeded.path}?limit=2&offset=4`,
        prev: `${seeded.path}?limit=2&offset=0`,
      });
      assert.deepEqual(parseLinks((await at(`sort=-${time.name}&offset=3&limit=2`)).headers['link']), {
        next: `${seeded.path}?sort=-${time.name}&limit=2&offset=5`,
        prev: `${seeded.path}?sort=-${time.name}&limit=2&offset=1`,
      });
      // prev from an offset that is not a multiple of the limit starts at 0, never below.
      assert.deepEqual(parseLinks((await at('limit=4&offset=1')).headers['link']).prev, `${seeded.path}?limit=4&offset=0`);
      assert.deepEqual(parseLinks((await at(`limit=2&offset=${total - 1}`)).headers['link']), { prev: `${seeded.path}?limit=2&offset=${total - 3}` });
      assert.equal((await at('limit=100')).headers['link'] === undefined, total <= 100);
      const lastPage = await at(`limit=2&offset=${total - 2}`);
      assert.equal(parseLinks(lastPage.headers['link']).next, undefined);
    });

    await t.test('SQL in any parameter is refused or taken literally, and the data stays intact', async () => {
      for (const payload of INJECTIONS) {
        const p = enc(payload);
        // Forms where the payload is a value: 400, or exactly the literal answer.
        const asValue: [string, ModelFilter[]][] = [
          [`${text.name}=${p}`, [filter(text, 'eq', payload)]],
          [`filter=${text.name}|eq|${p}`, [filter(text, 'eq', payload)]],
          [`filter=${text.name}|ne|${p}`, [filter(text, 'ne', payload)]],
          [`filter=${text.name}|like|${p}`, [filter(text, 'like', payload)]],
          [`filter=${text.name}|in|${p}`, [filter(text, 'in', ...payload.split(','))]],
          [`filter[${text.name}][]=${p}`, [filter(text, 'in', payload)]],
          [`filter[${text.name}]=${p}`, [filter(text, 'eq', payload)]],
          [`${text.name}>=${p}`, [filter(text, 'gte', payload)]],
          [`${text.name}<=${p}`, [filter(text, 'lte', payload)]],
          [`${text.name}=>${p}`, [filter(text, 'gt', payload)]],
          [`${text.name}=<${p}`, [filter(text, 'lt', payload)]],
          [`${id.name}=${p}`, [filter(id, 'eq', payload)]],
        ];
        for (const [queryString, filters] of asValue) {
          const res = await call(server, 'GET', `${seeded.path}?${queryString}`, { token: seeded.token });
          if (res.status === 400) {
            assert.equal(res.body.code, 'ERR_BAD_QUERY', queryString);
            continue;
          }
          await assertSameAnswer(seeded, items, queryString, query({ filters }));
        }
        // Forms where the payload names a field, an operator, a direction or a page: always 400.
        const asName = [
          `${p}=1`, `${p}>=1`, `filter=${p}|eq|x`, `filter=${text.name}|${p}|x`, `filter[${p}][]=x`, `filter[${p}]=x`,
          `sort[${p}]=ASC`, `sort=${p}`, `sort=-${p}`, `sort[${text.name}]=${p}`, `sort=${text.name}&order=${p}`,
          `limit=${p}`, `offset=${p}`, `${time.name}=${p}`, `${time.name}=>${p}`,
        ];
        for (const queryString of asName) {
          const res = await call(server, 'GET', `${seeded.path}?${queryString}`, { token: seeded.token });
          assert.equal(res.status, 400, queryString);
          assert.equal(res.body.code, 'ERR_BAD_QUERY', queryString);
        }
      }
      assert.deepEqual(await fetchAll(seeded), items, 'the collection is unchanged');
      const users = await call(server, 'GET', '/users?limit=0', { token: seeded.token });
      assert.equal(users.status, 200, 'the users table is still there');
    });
  });
}

describe('query conventions on every collection', () => {
  for (const collection of CASES) checkCollection(collection);
});
