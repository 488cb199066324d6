// GET /search over HTTP (docs/protocol.md §5): what is found, what never is, FTS5 syntax taken as text, the index in step, paging.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RunningServer } from '../../src/index.ts';
import { call, registerAndLogIn, TestClock, withServer, type LoggedIn } from './client.ts';

type Result = { type: string; id: string; [field: string]: unknown };

async function post(server: RunningServer, path: string, user: LoggedIn, data: Record<string, unknown>): Promise<any> {
  const res = await call(server, 'POST', path, { token: user.token, json: { data } });
  assert.equal(res.status, 201, res.text);
  return res.body.data;
}

async function search(server: RunningServer, user: LoggedIn, query: string): Promise<{ status: number; results: Result[]; body: any; headers: any }> {
  const res = await call(server, 'GET', `/search?${query}`, { token: user.token });
  return { status: res.status, results: res.body?.data ?? [], body: res.body, headers: res.headers };
}

/** type:id of every result, the quickest thing to compare. */
async function found(server: RunningServer, user: LoggedIn, q: string): Promise<string[]> {
  const { status, results, body } = await search(server, user, `q=${encodeURIComponent(q)}&limit=100`);
  assert.equal(status, 200, `${q}: ${JSON.stringify(body)}`);
  return results.map((result) => `${result.type}:${result.id}`).sort();
}

async function setUp(t: Parameters<typeof withServer>[0]) {
  const clock = new TestClock();
  const server = await withServer(t, { clock });
  const ann = await registerAndLogIn(server, 'ann.lee');
  const bob = await registerAndLogIn(server, 'bobby_tables');
  const eve = await registerAndLogIn(server, 'eve');
  clock.advance(1000);
  const picnic = await post(server, '/chats', ann, { title: 'Crème brûlée club', members: [bob.userId] });
  clock.advance(1000);
  const planning = await post(server, `/chats/${picnic.id}/messages`, ann, { text: 'Planning the picnic for Saturday' });
  clock.advance(1000);
  const berries = await post(server, `/chats/${picnic.id}/messages`, bob, { text: 'I will bring strawberries and crème fraîche' });
  clock.advance(1000);
  const secret = await post(server, '/chats', eve, { title: 'Secret picnic' });
  const hidden = await post(server, `/chats/${secret.id}/messages`, eve, { text: 'Planning a surprise picnic' });
  return { clock, server, ann, bob, eve, picnic, planning, berries, secret, hidden };
}

test('finds messages by a partial word, chats by title and users by login, each with its public fields', async (t) => {
  const { server, ann, bob, picnic, planning, berries } = await setUp(t);
  assert.deepEqual(await found(server, ann, 'plan'), [`message:${planning.id}`]);
  assert.deepEqual(await found(server, ann, 'STRAWB'), [`message:${berries.id}`]);
  assert.deepEqual(await found(server, ann, 'club'), [`chat:${picnic.id}`]);
  assert.deepEqual(await found(server, ann, 'bobby'), [`user:${bob.userId}`]);
  assert.deepEqual(await found(server, ann, 'tab'), [`user:${bob.userId}`], 'a login splits at _ . -');
  assert.deepEqual(await found(server, ann, 'pic sat'), [`message:${planning.id}`], 'every word must match');
  assert.deepEqual(await found(server, ann, 'picnic zebra'), []);
  const { results } = await search(server, ann, 'q=cr');
  const byType = Object.fromEntries(results.map((result) => [result.type, result]));
  const { type: _m, ...message } = byType['message']!;
  const { type: _c, ...chat } = byType['chat']!;
  assert.deepEqual(message, (await call(server, 'GET', `/chats/${picnic.id}/messages/${berries.id}`, { token: ann.token })).body.data);
  assert.deepEqual(chat, (await call(server, 'GET', `/chats/${picnic.id}`, { token: ann.token })).body.data);
  const user = (await search(server, ann, 'q=ann')).results[0]!;
  assert.deepEqual(user, { type: 'user', ...(await call(server, 'GET', `/users/${ann.userId}`, { token: ann.token })).body });
  assert.equal('passwordHash' in user || 'password' in user, false);
});

test('never finds a message or a chat of a chat the caller is not a member of', async (t) => {
  const { server, ann, bob, eve, picnic, planning, secret, hidden } = await setUp(t);
  assert.deepEqual(await found(server, ann, 'picnic'), [`message:${planning.id}`]);
  assert.deepEqual(await found(server, eve, 'picnic'), [`chat:${secret.id}`, `message:${hidden.id}`]);
  assert.deepEqual(await found(server, ann, 'surprise'), []);
  assert.deepEqual(await found(server, ann, 'secret'), []);
  // Membership decides at the moment of the search: leaving hides, joining shows.
  assert.equal((await call(server, 'DELETE', `/chats/${picnic.id}/members/${bob.userId}`, { token: bob.token })).status, 204);
  assert.deepEqual(await found(server, bob, 'plan'), []);
  assert.equal((await call(server, 'PUT', `/chats/${secret.id}/members/${ann.userId}`, { token: eve.token })).status, 204);
  assert.deepEqual(await found(server, ann, 'surprise'), [`message:${hidden.id}`]);
});

test('diacritics and case are ignored both ways', async (t) => {
  const { server, ann, picnic, berries } = await setUp(t);
  const decomposed = await post(server, `/chats/${picnic.id}/messages`, ann, { text: 'cafe\u0301 au lait' });
  assert.deepEqual(await found(server, ann, 'creme brulee'), [`chat:${picnic.id}`]);
  assert.deepEqual(await found(server, ann, 'FRAICHE'), [`message:${berries.id}`]);
  assert.deepEqual(await found(server, ann, 'fraîch'), [`message:${berries.id}`]);
  assert.deepEqual(await found(server, ann, 'café'), [`message:${decomposed.id}`], 'composed query, decomposed text');
  assert.deepEqual(await found(server, ann, 'cafe\u0301'), [`message:${decomposed.id}`], 'decomposed query');
  assert.deepEqual(await found(server, ann, 'CAFE'), [`message:${decomposed.id}`]);
});

test('FTS5 syntax in q is only text: quotes, stars, NEAR, OR, NOT, column filters and minus', async (t) => {
  const { server, ann, picnic } = await setUp(t);
  const alpha = await post(server, `/chats/${picnic.id}/messages`, ann, { text: 'alpha beta' });
  await post(server, `/chats/${picnic.id}/messages`, ann, { text: 'gamma delta' });
  const rows: [string, string[]][] = [
    ['"alpha', [`message:${alpha.id}`]],
    ['"alpha beta"', [`message:${alpha.id}`]],
    ['"alpha" "', [`message:${alpha.id}`]],
    ['alp*', [`message:${alpha.id}`]],
    ['alpha OR gamma', []],
    ['alpha AND gamma', []],
    ['alpha NOT beta', []],
    ['NEAR(alpha beta)', []],
    ['NEAR(alpha beta, 1', []],
    ['NEAR(', []],
    ['text:alpha', []],
    ['title:club', []],
    ['{text}:alpha', []],
    // A minus excludes nothing: it separates words, and every word must match.
    ['alpha -beta', [`message:${alpha.id}`]],
    ['-gamma alpha', []],
    ['^alpha', [`message:${alpha.id}`]],
    ['alpha + beta', [`message:${alpha.id}`]],
    ["alpha' OR '1'='1", []],
    ['(alpha)', [`message:${alpha.id}`]],
  ];
  for (const [q, expected] of rows) assert.deepEqual(await found(server, ann, q), expected, q);
  for (const q of ['"', '*', '"*"', '(', '-', ':', '()', '^', '"" ""']) {
    const { status, body } = await search(server, ann, `q=${encodeURIComponent(q)}`);
    assert.equal(status, 400, q);
    assert.deepEqual(body.errors.map((error: { field: string }) => error.field), ['q'], q);
  }
});

test('the index follows edits, deletions, renames and login changes', async (t) => {
  const { server, ann, bob, picnic, planning, berries } = await setUp(t);
  const edited = await call(server, 'PATCH', `/chats/${picnic.id}/messages/${planning.id}`, { token: ann.token, json: { data: { text: 'Cancelled because of rain' } } });
  assert.equal(edited.status, 200, edited.text);
  assert.deepEqual(await found(server, ann, 'planning'), []);
  assert.deepEqual(await found(server, ann, 'rain'), [`message:${planning.id}`]);
  assert.equal((await call(server, 'DELETE', `/chats/${picnic.id}/messages/${berries.id}`, { token: bob.token })).status, 204);
  assert.deepEqual(await found(server, ann, 'strawberries'), []);
  assert.equal((await call(server, 'PATCH', `/chats/${picnic.id}`, { token: ann.token, json: { data: { title: 'Rainy day club' } } })).status, 200);
  assert.deepEqual(await found(server, ann, 'brulee'), []);
  assert.deepEqual(await found(server, ann, 'rain'), [`chat:${picnic.id}`, `message:${planning.id}`]);
  assert.equal((await call(server, 'PATCH', '/users', { token: bob.token, json: { login: 'robert' } })).status, 200);
  assert.deepEqual(await found(server, ann, 'bobby'), []);
  assert.deepEqual(await found(server, ann, 'rob'), [`user:${bob.userId}`]);
  assert.equal((await call(server, 'DELETE', `/chats/${picnic.id}`, { token: ann.token })).status, 204);
  assert.deepEqual(await found(server, ann, 'rain'), []);
});

test('results page like any collection: newest first, meta, Link, filters and sorts on the common fields', async (t) => {
  const { clock, server, ann, bob, picnic } = await setUp(t);
  const posted: string[] = [];
  for (let i = 0; i < 5; i += 1) {
    clock.advance(60_000);
    posted.push((await post(server, `/chats/${picnic.id}/messages`, i % 2 === 0 ? ann : bob, { text: `report number ${i}` })).id);
  }
  clock.advance(60_000);
  const reports = await post(server, '/chats', ann, { title: 'Reports' });
  const first = await search(server, ann, 'q=report&limit=2');
  assert.equal(first.status, 200);
  assert.deepEqual(first.body.meta, { total: 6, limit: 2, offset: 0 });
  assert.deepEqual(first.results.map((result) => result.id), [reports.id, posted[4]], 'newest first');
  assert.equal(first.headers['link'], '</search?q=report&limit=2&offset=2>; rel="next"');
  const second = await search(server, ann, 'q=report&limit=2&offset=2');
  assert.deepEqual(second.results.map((result) => result.id), [posted[3], posted[2]]);
  assert.match(second.headers['link'], /<\/search\?q=report&limit=2&offset=4>; rel="next"/);
  assert.match(second.headers['link'], /<\/search\?q=report&limit=2&offset=0>; rel="prev"/);
  const oldest = await search(server, ann, 'q=report&sort=createdAt&type=message&limit=1');
  assert.deepEqual([oldest.results.map((result) => result.id), oldest.body.meta.total], [[posted[0]], 5]);
  const chats = await search(server, ann, 'q=report&filter=type|in|chat,user');
  assert.deepEqual(chats.results.map((result) => `${result.type}:${result.id}`), [`chat:${reports.id}`]);
  const inChat = await search(server, ann, `q=report&chatId=${picnic.id}&createdAt>=${new Date(clock.time - 90_000).toISOString()}`);
  assert.deepEqual(inChat.results.map((result) => result.id), [posted[4]]);
  const byId = await search(server, ann, 'q=report&sort[id]=DESC&limit=100');
  assert.deepEqual(byId.results.map((result) => result.id), [reports.id, ...posted].sort().reverse());
  const capped = await search(server, ann, 'q=report&limit=500');
  assert.equal(capped.body.meta.limit, 100);
  const xml = await call(server, 'GET', '/search?q=report', { token: ann.token, headers: { accept: 'application/xml' } });
  assert.equal(xml.status, 200);
  assert.match(xml.text, /<collection /);
});

test('a missing, empty or repeated q, and other bad parameters, answer 400 naming them', async (t) => {
  const { server, ann } = await setUp(t);
  const rows: [string, string][] = [
    ['', 'q'],
    ['q=', 'q'],
    ['q=+++', 'q'],
    ['q=a&q=b', 'q'],
    [`q=${'a'.repeat(1001)}`, 'q'],
    ['q=a&login=ann', 'login'],
    ['q=a&limit=abc', 'limit'],
    ['q=a&sort[text]=ASC', 'sort[text]'],
    ['q=a&type=>1&createdAt=soon', 'createdAt'],
  ];
  for (const [query, field] of rows) {
    const { status, body } = await search(server, ann, query);
    assert.equal(status, 400, query);
    assert.equal(body.code, 'ERR_BAD_QUERY', query);
    assert.deepEqual(body.errors.map((error: { field: string }) => error.field), [field], query);
  }
  assert.equal((await call(server, 'GET', '/search?q=ann')).status, 401, 'a session is needed');
});

test('OPTIONS answers 204 with Allow, POST 405 with the same Allow, HEAD like GET without a body', async (t) => {
  const { server, ann } = await setUp(t);
  const options = await call(server, 'OPTIONS', '/search');
  assert.equal(options.status, 204);
  assert.equal(options.headers['allow'], 'OPTIONS, GET, HEAD');
  assert.equal(options.raw.length, 0);
  const posted = await call(server, 'POST', '/search', { token: ann.token, json: { q: 'x' } });
  assert.equal(posted.status, 405);
  assert.equal(posted.headers['allow'], 'OPTIONS, GET, HEAD');
  for (const method of ['PUT', 'PATCH', 'DELETE']) assert.equal((await call(server, method, '/search', { token: ann.token })).status, 405, method);
  const get = await call(server, 'GET', '/search?q=ann', { token: ann.token });
  const head = await call(server, 'HEAD', '/search?q=ann', { token: ann.token });
  assert.equal(head.status, 200);
  assert.equal(head.raw.length, 0);
  assert.equal(head.headers['content-length'], get.headers['content-length']);
});
