// Property test over HTTP: random data made through the API, random valid queries; the API's page equals the same query computed in TypeScript.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { ALL_ROUTES } from '../../src/resources/all-routes.ts';
import type { RunningServer } from '../../src/index.ts';
import { call, registerAndLogIn, TestClock, withServer, type LoggedIn } from './client.ts';
import { answerQuery, chooser, MESSAGE_MODEL_FIELDS, queryArbitrary, renderQuery, USER_MODEL_FIELDS, valuePools, type Item, type ModelField } from './query-model.ts';

const RUNS = 150;
const HOUR = 3_600_000;

const has = (method: string, pattern: string): boolean => ALL_ROUTES.some((route) => route.method === method && route.pattern === pattern);

const USER_FIELDS = USER_MODEL_FIELDS;
const MESSAGE_FIELDS = MESSAGE_MODEL_FIELDS;

// Logins: docs/protocol.md §1.7, 3-32 of letters, digits, '.', '_', '-'; few letters so that case and order collide.
const loginArb = fc.string({ unit: fc.constantFrom('a', 'b', 'A', 'B', 'z', '0', '9', '.', '_', '-'), minLength: 3, maxLength: 6 });
// Message texts: the characters that matter to LIKE, to encoding and to byte order.
const textArb = fc.string({ unit: fc.constantFrom('a', 'b', 'A', 'B', ' ', '-', '%', '_', '\\', '|', ',', '&', '+', '=', '<', '>', "'", 'é', 'É', '😀'), minLength: 1, maxLength: 6 });

/** Every item of a collection, unfiltered, following the pages (the model's input). */
async function fetchAll(server: RunningServer, path: string, token: string): Promise<Item[]> {
  const items: Item[] = [];
  for (let offset = 0; ; offset += 100) {
    const res = await call(server, 'GET', `${path}?limit=100&offset=${offset}`, { token });
    assert.equal(res.status, 200, res.text);
    items.push(...(res.body.data as Item[]));
    if (items.length >= res.body.meta.total) return items;
  }
}

async function checkCollection(server: RunningServer, path: string, token: string, fields: readonly ModelField[], extra: Record<string, (string | number)[]>): Promise<void> {
  const items = await fetchAll(server, path, token);
  const idField = fields.find((field) => field.name === 'id')!;
  const pools = valuePools(items, fields, extra);
  await fc.assert(
    fc.asyncProperty(queryArbitrary(fields, pools), fc.array(fc.nat(), { minLength: 1, maxLength: 24 }), async (generated, choices) => {
      const { text, query } = renderQuery(generated, chooser(choices));
      const res = await call(server, 'GET', `${path}?${text}`, { token });
      assert.equal(res.status, 200, `${text}: ${res.text}`);
      const expected = answerQuery(items, query, idField);
      assert.deepEqual({ ids: res.body.data.map((item: Item) => item['id']), total: res.body.meta.total }, expected, text);
      assert.equal(res.body.meta.limit, Math.min(query.limit ?? 20, 100));
      assert.equal(res.body.meta.offset, query.offset ?? 0);
    }),
    { numRuns: RUNS },
  );
}

test('GET /users answers random valid queries as the model does', async (t) => {
  const clock = new TestClock();
  const server = await withServer(t, { clock });
  const logins = fc.sample(fc.uniqueArray(loginArb, { selector: (login) => login.toLowerCase(), minLength: 40, maxLength: 40 }), { numRuns: 1, seed: 5 })[0]!;
  const steps = fc.sample(fc.constantFrom(0, 0, 1, 999, HOUR, 24 * HOUR), { numRuns: logins.length, seed: 6 });
  for (const [i, login] of logins.entries()) {
    clock.advance(steps[i]!);
    assert.equal((await call(server, 'POST', '/users', { json: { login, password: 'password 1234' } })).status, 201);
  }
  // A few renames, later, so updatedAt differs from createdAt and the new logins are found.
  const users: { token: string; userId: string }[] = [];
  for (const [i, login] of logins.filter((_, i) => i % 8 === 0).entries()) {
    clock.advance(HOUR);
    const session = await call(server, 'POST', '/session', { json: { login, password: 'password 1234' } });
    users.push({ token: session.body.token, userId: session.body.userId });
    assert.equal((await call(server, 'PATCH', '/users', { token: session.body.token, json: { login: `${login}-${i}` } })).status, 200);
  }
  const first = users[0]!;
  await checkCollection(server, '/users', first.token, USER_FIELDS, {
    login: logins.slice(0, 5).map((login) => login.toUpperCase()).concat(['a', 'zzz', '-']),
    id: ['0', 'ZZZZ', first.userId.toLowerCase()],
    createdAt: [clock.time, Date.UTC(2026, 10, 21)],
  });
});

test('GET /chats/{id}/messages answers random valid queries as the model does', { skip: !has('POST', '/chats/:chatId/messages') && 'messages are not routed yet' }, async (t) => {
  const clock = new TestClock();
  // Posts span weeks of test time; sessions must outlive them.
  const server = await withServer(t, { clock, sessionTtl: 365 * 86_400, sessionMaxAge: 365 * 86_400 });
  const owner = await registerAndLogIn(server);
  const others = [await registerAndLogIn(server), await registerAndLogIn(server)];
  const chat = await call(server, 'POST', '/chats', { token: owner.token, json: { data: { title: 'property', members: others.map((user) => user.userId) } } });
  assert.equal(chat.status, 201, chat.text);
  const chatId: string = chat.body.data.id;
  const path = `/chats/${encodeURIComponent(chatId)}/messages`;
  const authors = [owner, ...others];
  const texts = fc.sample(textArb, { numRuns: 60, seed: 7 });
  const steps = fc.sample(fc.tuple(fc.constantFrom(0, 0, 1, 999, HOUR, 24 * HOUR), fc.nat({ max: 9 })), { numRuns: texts.length, seed: 8 });
  const posted: string[] = [];
  for (const [i, text] of texts.entries()) {
    const [step, choice] = steps[i]!;
    clock.advance(step);
    const replyTo = choice < 3 && posted.length > 0 ? posted[(choice * 7 + i) % posted.length]! : undefined;
    const res = await call(server, 'POST', path, { token: authors[choice % authors.length]!.token, json: { data: { text, ...(replyTo ? { replyTo } : {}) } } });
    assert.equal(res.status, 201, res.text);
    posted.push(res.body.data.id);
  }
  // Edits move updatedAt; a second chat's messages must never show up here.
  for (const id of posted.slice(0, 6)) {
    clock.advance(HOUR);
    assert.equal((await call(server, 'PATCH', `${path}/${id}`, { token: (await findAuthor(server, path, id, authors)).token, json: { data: { text: 'edited' } } })).status, 200);
  }
  const elsewhere = await call(server, 'POST', '/chats', { token: owner.token, json: { data: { title: 'other' } } });
  await call(server, 'POST', `/chats/${elsewhere.body.data.id}/messages`, { token: owner.token, json: { data: { text: 'a' } } });
  await checkCollection(server, path, owner.token, MESSAGE_FIELDS, {
    text: ['A', 'é', 'É', 'zz'],
    chatId: [elsewhere.body.data.id],
    createdAt: [clock.time + 1],
  });
});

async function findAuthor(server: RunningServer, path: string, id: string, users: LoggedIn[]): Promise<LoggedIn> {
  const res = await call(server, 'GET', `${path}/${id}`, { token: users[0]!.token });
  return users.find((user) => user.userId === res.body.data.authorId)!;
}
