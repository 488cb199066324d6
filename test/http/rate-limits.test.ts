// docs/protocol.md §11.1 over HTTP: the per-user write limit and the per-address registration limit, checked before any
// work, with Retry-After and the IETF RateLimit fields on every answer of a limited route; --trust-proxy.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createChat } from './chat-fixtures.ts';
import { call, registerAndLogIn, TestClock, withServer, type TestResponse } from './client.ts';
import { dropLoginPauses } from './no-login-pauses.ts';

function assertRateFields(res: TestResponse, name: string, quota: number, window: number, remaining: number, seconds: number): void {
  assert.equal(res.headers['ratelimit-policy'], `"${name}";q=${quota};w=${window}`);
  assert.equal(res.headers['ratelimit'], `"${name}";r=${remaining};t=${seconds}`);
}

test('a user past --write-rate writes a minute gets 429 with Retry-After and nothing is written', async (t) => {
  const clock = new TestClock();
  const server = await withServer(t, { clock, writeRate: 3 });
  const alice = await registerAndLogIn(server, 'alice');
  const bob = await registerAndLogIn(server, 'bob');
  const chat = await createChat(server, alice, { title: 'Team', members: [bob.userId] });
  const post = (token: string, text: string) => call(server, 'POST', `/chats/${chat.id}/messages`, { token, json: { data: { text } } });
  clock.advance(10_000);
  const second = await post(alice.token, 'one');
  assert.equal(second.status, 201);
  assertRateFields(second, 'writes', 3, 60, 1, 50);
  // A refused write is still a write answer of a limited route: it carries the fields too.
  const invalid = await call(server, 'POST', `/chats/${chat.id}/messages`, { token: alice.token, json: { data: {} } });
  assert.equal(invalid.status, 400);
  assertRateFields(invalid, 'writes', 3, 60, 0, 50);
  const over = await post(alice.token, 'two');
  assert.equal(over.status, 429);
  assert.equal(over.body.code, 'ERR_TOO_MANY_REQUESTS');
  assert.equal(over.headers['retry-after'], '50');
  assertRateFields(over, 'writes', 3, 60, 0, 50);
  // Reads are not limited; the refused message was not stored; another user has a quota of their own.
  const history = await call(server, 'GET', `/chats/${chat.id}/messages`, { token: alice.token });
  assert.equal(history.status, 200);
  assert.equal(history.headers['ratelimit'], undefined);
  assert.deepEqual(history.body.data.map((message: { text: string }) => message.text), ['one']);
  assert.equal((await post(bob.token, 'from bob')).status, 201);
  assert.equal((await call(server, 'PATCH', '/session', { token: alice.token })).status, 429);
  // The window ends after 60 s and the quota is whole again.
  clock.advance(50_000);
  const again = await post(alice.token, 'three');
  assert.equal(again.status, 201);
  assertRateFields(again, 'writes', 3, 60, 2, 60);
  // Logging out is never refused, even with the quota used up.
  const other = await registerAndLogIn(server, 'carol');
  for (let i = 0; i < 3; i++) await call(server, 'PATCH', '/session', { token: other.token });
  assert.equal((await call(server, 'DELETE', '/session', { token: other.token })).status, 204);
});

test('the finding: one user cannot post 10,000 messages; the default is 600 a minute', async (t) => {
  const clock = new TestClock();
  const server = await withServer(t, { clock, writeRate: 600 });
  const alice = await registerAndLogIn(server, 'alice');
  const chat = await createChat(server, alice, { title: 'Flood' });
  const statuses: number[] = [];
  for (let i = 0; i < 600; i++) {
    statuses.push((await call(server, 'POST', `/chats/${chat.id}/messages`, { token: alice.token, json: { data: { text: `m${i}` } } })).status);
  }
  assert.deepEqual([...new Set(statuses)], [201, 429]);
  assert.equal(statuses.indexOf(429), 599, 'the chat creation was write 1, so message 600 is write 601');
  const history = await call(server, 'GET', `/chats/${chat.id}/messages?limit=1`, { token: alice.token });
  assert.equal(history.body.meta.total, 599);
});

test('--register-rate counts registrations per address before any hashing; a failed one gives its place back', async (t) => {
  const clock = new TestClock();
  const server = await withServer(t, { clock, registerRate: 2 });
  const { hasher } = server.app.services;
  const register = (login: string, headers: Record<string, string> = {}) => call(server, 'POST', '/users', { json: { login, password: 'pass word 1' }, headers });
  const first = await register('alice');
  assert.equal(first.status, 201);
  assertRateFields(first, 'registrations', 2, 3600, 1, 3600);
  const taken = await register('ALICE');
  assert.equal(taken.status, 409);
  assertRateFields(taken, 'registrations', 2, 3600, 0, 3600);
  assert.equal((await register('bob')).status, 201, 'the taken login did not use up the quota');
  const hashes = hasher.hashesComputed;
  const over = await register('carol');
  assert.equal(over.status, 429);
  assert.equal(over.headers['retry-after'], '3600');
  assertRateFields(over, 'registrations', 2, 3600, 0, 3600);
  assert.equal(hasher.hashesComputed, hashes, 'no hash was spent on the refused registration');
  assert.equal(await server.app.services.storage.users.findUserByLogin('carol'), undefined);
  // X-Forwarded-For is ignored unless --trust-proxy: a client cannot pick a fresh address.
  assert.equal((await register('carol', { 'x-forwarded-for': '203.0.113.9' })).status, 429);
  clock.advance(3600 * 1000);
  assert.equal((await register('carol')).status, 201);
});

test('with --trust-proxy the address is the last X-Forwarded-For entry, and an IPv6 /64 is one address', async (t) => {
  const server = await withServer(t, { registerRate: 1, trustProxy: true });
  const register = (login: string, forwarded: string) => call(server, 'POST', '/users', { json: { login, password: 'pass word 1' }, headers: { 'x-forwarded-for': forwarded } });
  assert.equal((await register('alice', '198.51.100.7, 203.0.113.1')).status, 201);
  // The client-written entries on the left change nothing: the proxy's own entry is the same address.
  assert.equal((await register('bob', '192.0.2.99, 203.0.113.1')).status, 429);
  assert.equal((await register('bob', '203.0.113.2')).status, 201);
  assert.equal((await register('carol', '2001:db8:1:2::1')).status, 201);
  assert.equal((await register('dave', '2001:db8:1:2:ffff::9')).status, 429, 'the same /64');
  assert.equal((await register('dave', '2001:db8:1:3::1')).status, 201);
  // Not an address at all: the socket's own address counts instead.
  assert.equal((await register('erin', 'unknown')).status, 201);
  assert.equal((await register('fred', 'garbage')).status, 429);
});

test('failed logins are counted per forwarded address with --trust-proxy', async (t) => {
  const server = await withServer(t, { trustProxy: true, loginMaxFailures: 1 });
  dropLoginPauses(server);
  await call(server, 'POST', '/users', { json: { login: 'alice', password: 'pass word 1' } });
  const attempt = (login: string, forwarded: string) => call(server, 'POST', '/session', { json: { login, password: 'wrong password' }, headers: { 'x-forwarded-for': forwarded } });
  for (let i = 0; i < 10; i++) assert.equal((await attempt(`nobody${i}`, '203.0.113.5')).status, 401);
  assert.equal((await attempt('nobody-else', '203.0.113.5')).status, 429, 'the address is over ten times the limit');
  assert.equal((await attempt('nobody-else', '203.0.113.6')).status, 401);
});
