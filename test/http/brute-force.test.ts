// Brute force: failed logins per login from one address and per address are limited before any hashing (429, Retry-After).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { call, TestClock, withServer } from './client.ts';
import { dropLoginPauses } from './no-login-pauses.ts';

test('1,000 wrong passwords, 50 at a time, cause at most the allowed number of hashes', async (t) => {
  const clock = new TestClock();
  const server = await withServer(t, { clock, loginMaxFailures: 10, loginWindow: 900 });
  await call(server, 'POST', '/users', { json: { login: 'target', password: 'the right one' } });
  // The 429s come at once here (no refusal pause nor slow-down): this test counts hashes, it does not time refusals.
  dropLoginPauses(server);
  const { hasher } = server.app.services;
  const before = hasher.hashesComputed;
  const statuses: number[] = [];
  for (let batch = 0; batch < 20; batch++) {
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) =>
      call(server, 'POST', '/session', { json: { login: 'target', password: `guess ${batch}-${i}` } })));
    statuses.push(...answers.map((answer) => answer.status));
  }
  assert.equal(hasher.hashesComputed - before, 10);
  assert.equal(statuses.filter((status) => status === 401).length, 10);
  assert.equal(statuses.filter((status) => status === 429).length, 990);
  const limited = await call(server, 'POST', '/session', { json: { login: 'TARGET', password: 'the right one' } });
  assert.equal(limited.status, 429, 'even the right password waits at the address that failed, in any letter case');
  assert.equal(limited.body.code, 'ERR_TOO_MANY_REQUESTS');
  assert.equal(limited.headers['retry-after'], '900');
  clock.advance(600_000);
  assert.equal((await call(server, 'POST', '/session', { json: { login: 'target', password: 'x' } })).headers['retry-after'], '300');
  clock.advance(300_001);
  assert.equal((await call(server, 'POST', '/session', { json: { login: 'target', password: 'the right one' } })).status, 201);
});

test('a success clears the login\'s failures; other logins are not affected', async (t) => {
  const server = await withServer(t, { loginMaxFailures: 3 });
  dropLoginPauses(server);
  await call(server, 'POST', '/users', { json: { login: 'ivan', password: 'password1' } });
  await call(server, 'POST', '/users', { json: { login: 'judy', password: 'password1' } });
  for (let i = 0; i < 2; i++) assert.equal((await call(server, 'POST', '/session', { json: { login: 'ivan', password: 'wrong one' } })).status, 401);
  assert.equal((await call(server, 'POST', '/session', { json: { login: 'ivan', password: 'password1' } })).status, 201);
  for (let i = 0; i < 3; i++) assert.equal((await call(server, 'POST', '/session', { json: { login: 'ivan', password: 'wrong one' } })).status, 401);
  assert.equal((await call(server, 'POST', '/session', { json: { login: 'ivan', password: 'password1' } })).status, 429);
  assert.equal((await call(server, 'POST', '/session', { json: { login: 'judy', password: 'password1' } })).status, 201);
});

test('one address guessing many logins is limited too (ten times the per-login limit)', async (t) => {
  const server = await withServer(t, { loginMaxFailures: 2 });
  dropLoginPauses(server);
  const statuses: number[] = [];
  for (let i = 0; i < 25; i++) {
    statuses.push((await call(server, 'POST', '/session', { json: { login: `someone${i}`, password: 'password1' } })).status);
  }
  assert.deepEqual(statuses, [...Array(20).fill(401), ...Array(5).fill(429)]);
});
