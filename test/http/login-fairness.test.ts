// Logins under a flood, over HTTP: one address's flood (right or wrong passwords) cannot starve or lock out a
// login from another address, and the per-login and per-address limits on password checks answer 429.
import assert from 'node:assert/strict';
import { scryptSync } from 'node:crypto';
import { test } from 'node:test';
import { PasswordHasher, type DeriveKey } from '../../src/resources/session/password-hasher.ts';
import { call, TestClock, withServer, type TestResponse } from './client.ts';
import { dropLoginPauses } from './no-login-pauses.ts';

/** Resolves once `condition` holds, checking after each turn of the event loop (no fixed sleeps). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

/** One hash at a time, each held until `releaseNext()`; `started` lists the passwords in the order hashed. */
function gatedHasher() {
  const started: string[] = [];
  const gates: (() => void)[] = [];
  let open = false;
  const derive: DeriveKey = async (password, salt, n, r, p) => {
    started.push(password);
    if (!open) await new Promise<void>((resolve) => gates.push(resolve));
    return scryptSync(password.normalize('NFC'), salt, 32, { N: n, r, p });
  };
  return {
    // The server's defaults: a queue of 16, so one address may hold 4 hashes running or waiting.
    hasher: new PasswordHasher({ n: 1024, concurrency: 1, maxQueued: 16, refusalPauseMs: 0, derive }),
    started,
    async releaseNext(): Promise<void> {
      await until(() => gates.length > 0);
      gates.shift()!();
    },
    /** Lets every hash through, so that a failed test's server can close. */
    openAll(): void {
      open = true;
      for (const gate of gates.splice(0)) gate();
    },
  };
}

const logIn = (server: Parameters<typeof call>[0], login: string, password: string, from?: string): Promise<TestResponse> =>
  call(server, 'POST', '/session', { json: { login, password }, ...(from ? { from } : {}) });

test('a flood of correct logins to one account from one address cannot make its owner\'s login from another address fail', async (t) => {
  const gate = gatedHasher();
  // Registered first, so it runs before the server closes (which waits for every request in flight).
  t.after(() => gate.openAll());
  // A test clock: the failures' window must not be read across a second's edge (Retry-After 901 on a real clock).
  const server = await withServer(t, { clock: new TestClock() });
  assert.equal((await call(server, 'POST', '/users', { json: { login: 'alice', password: 'alice password' } })).status, 201);
  server.app.services.hasher = gate.hasher;
  let answered = 0;
  const flood: Promise<TestResponse>[] = [];
  for (let i = 0; i < 24; i++) flood.push(logIn(server, 'alice', 'alice password').finally(() => answered++));
  // Every flood login is hashing, waiting or answered (past its address's share of 4, at once: 429).
  await until(() => gate.started.length === 1 && 1 + gate.hasher.queued.interactive + answered === 24);
  let ownerAnswered = false;
  const owner = logIn(server, 'alice', 'alice password', '127.0.0.2').finally(() => { ownerAnswered = true; });
  await until(() => gate.hasher.queued.interactive === 4 || ownerAnswered);
  await gate.releaseNext();
  // A slot came free: the owner's check goes next, ahead of the flood's three that waited longer.
  await until(() => gate.started.length === 2 || ownerAnswered);
  if (ownerAnswered) assert.fail(`the owner was answered ${(await owner).status} before its password was checked`);
  assert.equal(gate.hasher.queued.interactive, 3);
  await gate.releaseNext();
  const answer = await owner;
  assert.equal(answer.status, 201);
  assert.equal(answer.body.userId, (await server.app.services.storage.users.findUserByLogin('alice'))!.id);
  assert.match(String(answer.headers['set-cookie']), /^session=[A-Za-z0-9_-]{43}; HttpOnly; SameSite=Strict; Path=\/; Max-Age=2592000$/);
  for (let i = 0; i < 3; i++) await gate.releaseNext();
  const answers = await Promise.all(flood);
  assert.deepEqual(answers.map((res) => res.status).sort(), [...Array(4).fill(201), ...Array(20).fill(429)]);
  // Refused by the address's share of the budget, or (when more of them were admitted at the same instant, as
  // on a database server's counters) by the failures counted for them until their hashes say otherwise.
  const refusals = new Map([
    ['4 password checks from this address are running or waiting already; try again in 1 s', '1'],
    ['More than 10 failed logins to this account from your address in 900 s; try again in 900 s', '900'],
  ]);
  for (const refused of answers.filter((res) => res.status === 429)) {
    assert.equal(refused.headers['content-type'], 'application/problem+json');
    assert.deepEqual({ ...refused.body, detail: undefined }, {
      type: refused.body.type, title: 'Too Many Requests', status: 429, code: 'ERR_TOO_MANY_REQUESTS', detail: undefined,
    });
    assert.equal(refused.headers['retry-after'], refusals.get(refused.body.detail), refused.body.detail);
  }
});

test('wrong passwords from one address never lock the owner out from another address; the failing address is refused', async (t) => {
  const server = await withServer(t, { loginMaxFailures: 10, loginWindow: 900, clock: new TestClock() });
  dropLoginPauses(server);
  assert.equal((await call(server, 'POST', '/users', { json: { login: 'bob', password: 'bob password' } })).status, 201);
  const statuses: number[] = [];
  for (let i = 0; i < 12; i++) statuses.push((await logIn(server, 'bob', `guess ${i}`)).status);
  assert.deepEqual(statuses, [...Array(10).fill(401), 429, 429]);
  // From addresses that never failed: guesses spread thin, then the owner, whose login is only slowed down (no pause here).
  for (let i = 3; i < 5; i++) assert.equal((await logIn(server, 'bob', 'another guess', `127.0.0.${i}`)).status, 401);
  const owner = await logIn(server, 'bob', 'bob password', '127.0.0.2');
  assert.equal(owner.status, 201);
  assert.equal(owner.headers['location'], '/session');
  assert.equal(owner.body.userId, (await server.app.services.storage.users.findUserByLogin('bob'))!.id);
  const refused = await logIn(server, 'BOB', 'bob password');
  assert.equal(refused.status, 429, 'the address that failed waits, even with the right password');
  assert.equal(refused.headers['retry-after'], '900');
  assert.equal(refused.body.code, 'ERR_TOO_MANY_REQUESTS');
  assert.equal(refused.body.detail, 'More than 10 failed logins to this account from your address in 900 s; try again in 900 s');
});

test('password checks, right or wrong, are limited per login from one address (--login-rate a minute): 429 with Retry-After', async (t) => {
  const clock = new TestClock();
  const server = await withServer(t, { clock, loginRate: 3 });
  dropLoginPauses(server);
  assert.equal((await call(server, 'POST', '/users', { json: { login: 'carol', password: 'carol password' } })).status, 201);
  for (let i = 0; i < 3; i++) assert.equal((await logIn(server, 'carol', 'carol password')).status, 201);
  const limited = await logIn(server, 'Carol', 'carol password');
  assert.equal(limited.status, 429);
  assert.equal(limited.headers['retry-after'], '60');
  assert.equal(limited.headers['content-type'], 'application/problem+json');
  assert.equal(limited.body.code, 'ERR_TOO_MANY_REQUESTS');
  assert.equal(limited.body.detail, 'More than 3 logins to this account from your address in 60 s; try again in 60 s');
  const hashes = server.app.services.hasher.hashesComputed;
  clock.advance(45_000);
  assert.equal((await logIn(server, 'carol', 'carol password')).headers['retry-after'], '15');
  assert.equal(server.app.services.hasher.hashesComputed, hashes, 'a refused check hashes nothing');
  assert.equal((await logIn(server, 'carol', 'carol password', '127.0.0.2')).status, 201, 'another address has a quota of its own');
  clock.advance(15_000);
  assert.equal((await logIn(server, 'carol', 'carol password')).status, 201);
});

test('one address checking many logins is limited to ten times --login-rate a minute; other addresses are not', async (t) => {
  const clock = new TestClock();
  const server = await withServer(t, { clock, loginRate: 2, loginMaxFailures: 1000 });
  dropLoginPauses(server);
  const statuses: number[] = [];
  for (let i = 0; i < 21; i++) statuses.push((await logIn(server, `nobody${i}`, 'password1')).status);
  assert.deepEqual(statuses, [...Array(20).fill(401), 429]);
  const limited = await logIn(server, 'nobody99', 'password1');
  assert.equal(limited.headers['retry-after'], '60');
  assert.equal(limited.body.detail, 'More than 20 logins from your address in 60 s; try again in 60 s');
  assert.equal((await logIn(server, 'nobody99', 'password1', '127.0.0.2')).status, 401);
});
