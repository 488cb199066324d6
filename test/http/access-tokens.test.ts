// Personal access tokens and bots (docs/protocol.md §16.1, §16.2): made by their user (or a bot's owner), shown once,
// stored hashed, scoped, refused where tokens may not go, revoked with their streams; bots cannot log in or read pages.
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import type { RunningServer } from '../../src/index.ts';
import { call, registerAndLogIn, runSql, withServer, type LoggedIn, type TestResponse } from './client.ts';
import { openReady } from './event-stream.ts';

async function makeToken(server: RunningServer, owner: LoggedIn, userId: string, data: Record<string, unknown>): Promise<TestResponse> {
  return call(server, 'POST', `/users/${userId}/tokens`, { token: owner.token, json: { data } });
}

async function setUp(t: TestContext): Promise<{ server: RunningServer; alice: LoggedIn; bob: LoggedIn }> {
  const server = await withServer(t);
  return { server, alice: await registerAndLogIn(server, 'alice'), bob: await registerAndLogIn(server, 'bob') };
}

test('POST /users/{id}/tokens: 201 with the token once; GET lists it without; the database holds only its hash', async (t) => {
  const { server, alice } = await setUp(t);
  const made = await makeToken(server, alice, alice.userId, { name: 'CI', scopes: ['read', 'write'] });
  assert.equal(made.status, 201, made.text);
  const token = made.body.data;
  assert.match(token.token, /^chat_pat_[A-Za-z0-9_-]{43}$/);
  assert.deepEqual({ ...token, id: undefined, token: undefined, createdAt: undefined },
    { id: undefined, userId: alice.userId, name: 'CI', token: undefined, scopes: ['read', 'write'], createdAt: undefined, lastUsedAt: null, expiresAt: null });
  assert.equal(made.headers.location, `/users/${alice.userId}/tokens/${token.id}`);
  const listed = await call(server, 'GET', `/users/${alice.userId}/tokens`, { token: alice.token });
  assert.equal(listed.status, 200);
  assert.deepEqual(listed.body.data.map((item: { id: string; token: unknown }) => [item.id, item.token]), [[token.id, null]]);
  const rows = await runSql(server, 'SELECT token_hash FROM access_tokens');
  assert.equal(rows.length, 1);
  assert.ok(!JSON.stringify(rows).includes(token.token), 'only the hash is stored');
  // Used as a Bearer token, it is its user.
  const me = await call(server, 'GET', `/users/${alice.userId}`, { token: token.token });
  assert.equal(me.status, 200);
  const after = await call(server, 'GET', `/users/${alice.userId}/tokens/${token.id}`, { token: alice.token });
  assert.notEqual(after.body.data.lastUsedAt, null, 'lastUsedAt moved');
});

test('a token of someone else\'s is 403; bad fields name the field; write without read is refused', async (t) => {
  const { server, alice, bob } = await setUp(t);
  assert.equal((await makeToken(server, bob, alice.userId, { name: 'x' })).status, 403);
  assert.equal((await makeToken(server, alice, 'nobody0000000000000000000', { name: 'x' })).status, 404);
  for (const [data, field] of [[{}, 'data.name'], [{ name: 'x', scopes: ['write'] }, 'data.scopes'], [{ name: 'x', scopes: ['admin'] }, 'data.scopes'],
    [{ name: 'x', expiresAt: '2000-01-01T00:00:00Z' }, 'data.expiresAt'], [{ name: 'x', extra: 1 }, 'data.extra']] as const) {
    const res = await makeToken(server, alice, alice.userId, data);
    assert.equal(res.status, 400, JSON.stringify(data));
    assert.equal(res.body.errors[0].field, field);
  }
});

test('scopes: a read token reads and streams but may not write (403 ERR_TOKEN_SCOPE); a write token writes', async (t) => {
  const { server, alice } = await setUp(t);
  const read = (await makeToken(server, alice, alice.userId, { name: 'r', scopes: ['read'] })).body.data.token;
  const write = (await makeToken(server, alice, alice.userId, { name: 'w' })).body.data.token;
  assert.equal((await call(server, 'GET', '/chats', { token: read })).status, 200);
  const refused = await call(server, 'POST', '/chats', { token: read, json: { data: { title: 'No' } } });
  assert.deepEqual([refused.status, refused.body.code], [403, 'ERR_TOKEN_SCOPE']);
  assert.equal((await call(server, 'POST', '/chats', { token: write, json: { data: { title: 'Yes' } } })).status, 201);
});

test('a token cannot manage tokens, sessions, invites or its owner\'s password (403 ERR_TOKEN_NOT_ALLOWED)', async (t) => {
  const { server, alice } = await setUp(t);
  const token = (await makeToken(server, alice, alice.userId, { name: 'all' })).body.data.token;
  const tries: [string, string, unknown?][] = [
    ['POST', `/users/${alice.userId}/tokens`, { data: { name: 'more' } }], ['GET', `/users/${alice.userId}/tokens`],
    ['GET', '/session'], ['DELETE', '/session'], ['POST', '/invites', { data: {} }], ['GET', '/invites'],
    ['PATCH', `/users/${alice.userId}`, { password: 'a new long password', currentPassword: alice.password }],
  ];
  for (const [method, path, json] of tries) {
    const res = await call(server, method, path, { token, ...(json === undefined ? {} : { json }) });
    assert.deepEqual([res.status, res.body.code], [403, 'ERR_TOKEN_NOT_ALLOWED'], `${method} ${path}`);
  }
});

test('DELETE revokes: the token stops working and its open stream ends at once', async (t) => {
  const { server, alice } = await setUp(t);
  const made = (await makeToken(server, alice, alice.userId, { name: 'stream' })).body.data;
  const stream = await openReady(server, { token: made.token });
  t.after(() => stream.close());
  assert.equal((await call(server, 'DELETE', `/users/${alice.userId}/tokens/${made.id}`, { token: alice.token })).status, 204);
  await stream.ended;
  const res = await call(server, 'GET', '/chats', { token: made.token });
  assert.equal(res.status, 401);
  assert.equal((await call(server, 'DELETE', `/users/${alice.userId}/tokens/${made.id}`, { token: alice.token })).status, 404);
});

test('bots: POST /bots makes a user of kind bot owned by its maker, who makes its tokens; it cannot log in nor read pages', async (t) => {
  const { server, alice, bob } = await setUp(t);
  const made = await call(server, 'POST', '/bots', { token: alice.token, json: { data: { login: 'ci-bot' } } });
  assert.equal(made.status, 201, made.text);
  assert.deepEqual({ login: made.body.login, kind: made.body.kind, ownerId: made.body.ownerId, role: made.body.role }, { login: 'ci-bot', kind: 'bot', ownerId: alice.userId, role: 'member' });
  const botId = made.body.id;
  assert.equal((await call(server, 'GET', `/users/${alice.userId}`, { token: alice.token })).body.kind, 'user');
  assert.equal((await makeToken(server, bob, botId, { name: 'x' })).status, 403, 'only its owner makes its tokens');
  const token = (await makeToken(server, alice, botId, { name: 'bot' })).body.data.token;
  const chat = await call(server, 'POST', '/chats', { token, json: { data: { title: 'Bot chat' } } });
  assert.equal(chat.status, 201);
  assert.equal(chat.body.data.ownerId, botId);
  const login = await call(server, 'POST', '/session', { json: { login: 'ci-bot', password: '' } });
  assert.equal(login.status, 400, 'an empty password is refused before anything');
  const guess = await call(server, 'POST', '/session', { json: { login: 'ci-bot', password: 'anything at all' } });
  assert.deepEqual([guess.status, guess.body.code], [401, 'ERR_BAD_CREDENTIALS']);
  const page = await call(server, 'GET', '/chats', { token, headers: { accept: 'text/html' } });
  assert.equal(page.status, 403);
  assert.equal((await call(server, 'POST', '/bots', { token: alice.token, json: { data: { login: 'CI-BOT' } } })).status, 409);
});

test('--members-create-bots=false: only administrators create bots', async (t) => {
  const server = await withServer(t, { membersCreateBots: false });
  const admin = await registerAndLogIn(server, 'root');
  const member = await registerAndLogIn(server, 'mia');
  assert.equal((await call(server, 'POST', '/bots', { token: member.token, json: { data: { login: 'bot1' } } })).status, 403);
  assert.equal((await call(server, 'POST', '/bots', { token: admin.token, json: { data: { login: 'bot2' } } })).status, 201);
});

test('a deactivation ends the streams a token holds (its token answers 403 meanwhile); an erasure deletes the tokens', async (t) => {
  const server = await withServer(t);
  const admin = await registerAndLogIn(server, 'root');
  const bob = await registerAndLogIn(server, 'bob');
  const token = (await makeToken(server, bob, bob.userId, { name: 'stream' })).body.data.token;
  const stream = await openReady(server, { token });
  t.after(() => stream.close());
  assert.equal((await call(server, 'PATCH', `/users/${bob.userId}`, { token: admin.token, json: { active: false } })).status, 200);
  await stream.ended;
  const refused = await call(server, 'GET', '/chats', { token });
  assert.deepEqual([refused.status, refused.body.code], [403, 'ERR_ACCOUNT_DEACTIVATED']);
  assert.equal((await call(server, 'PATCH', `/users/${bob.userId}`, { token: admin.token, json: { active: true } })).status, 200);
  assert.equal((await call(server, 'GET', '/chats', { token })).status, 200, 'reactivated, the token works again');
  assert.equal((await call(server, 'DELETE', `/users/${bob.userId}`, { token, json: { password: bob.password } })).body.code, 'ERR_TOKEN_NOT_ALLOWED', 'no erasure with a token');
  assert.equal((await call(server, 'DELETE', `/users/${bob.userId}?keepMessages=true`, { token: admin.token })).status, 204);
  assert.equal((await call(server, 'GET', '/chats', { token })).status, 401);
  assert.deepEqual(await runSql(server, 'SELECT id FROM access_tokens'), []);
});
