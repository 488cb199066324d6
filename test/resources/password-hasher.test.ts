// Password hashing: scrypt with parameters stored per hash, verification, and the bound on concurrent hashes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { HttpError } from '../../src/http/http-error.ts';
import { PasswordHasher } from '../../src/resources/session/password-hasher.ts';

test('hashes carry their parameters and verify; old parameters keep verifying', async () => {
  const small = new PasswordHasher({ n: 1024, concurrency: 2 });
  const stored = await small.hash('pässword');
  assert.match(stored, /^scrypt\$1024\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
  assert.notEqual(await small.hash('pässword'), stored, 'salted');
  assert.equal(await small.verify('pässword', stored), true);
  assert.equal(await small.verify('pa\u0308ssword', stored), true, 'NFC-normalised');
  assert.equal(await small.verify('password', stored), false);
  const larger = new PasswordHasher({ n: 4096, concurrency: 2 });
  assert.equal(await larger.verify('pässword', stored), true);
  assert.equal(await larger.verify('pässword', 'not-a-hash'), false);
  assert.equal(await larger.verifyNothing('anything'), false);
});

test('the default N=2^17 works within maxmem', async () => {
  const hasher = new PasswordHasher({ n: 2 ** 17, concurrency: 1 });
  const stored = await hasher.hash('correct horse');
  assert.match(stored, /^scrypt\$131072\$8\$1\$/);
  assert.equal(await hasher.verify('correct horse', stored), true);
});

test('no more hashes run at once than the bound', async () => {
  const hasher = new PasswordHasher({ n: 1024, concurrency: 2 });
  let peak = 0;
  const budget = (hasher as any).budget;
  const original = budget.run.bind(budget);
  budget.run = (work: () => Promise<unknown>, options: unknown) => original(async () => {
    peak = Math.max(peak, budget.running.interactive);
    return work();
  }, options);
  await Promise.all(Array.from({ length: 12 }, (_, i) => hasher.hash(`password ${i}`)));
  assert.equal(peak, 2);
  assert.equal(hasher.hashesComputed, 12);
});

/** One gate per started hash; `open()` lets the oldest finish. */
function gated(concurrency: number, maxQueued: number, refusalPauseMs = 0) {
  const gates: (() => void)[] = [];
  const started: string[] = [];
  const hasher = new PasswordHasher({
    n: 1024, concurrency, maxQueued, refusalPauseMs,
    derive: async (password) => {
      started.push(password);
      await new Promise<void>((resolve) => gates.push(resolve));
      return Buffer.alloc(32);
    },
  });
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  return { hasher, started, gates, settle, open: async () => { gates.shift()!(); await settle(); await settle(); } };
}

test('registrations get half the budget (at least one) and wait while a login hashes or waits', async () => {
  const { hasher, started, open, settle } = gated(4, 10);
  const registrations = ['r1', 'r2', 'r3'].map((password) => hasher.hash(password, { priority: 'background' }));
  await settle();
  assert.deepEqual(started, ['r1', 'r2'], 'two of four slots for registrations');
  const logins = ['l1', 'l2', 'l3', 'l4', 'l5'].map((password) => hasher.hash(password));
  await settle();
  assert.deepEqual(started, ['r1', 'r2', 'l1', 'l2', 'l3', 'l4'], 'logins have their own four slots');
  await open(); // r1 ends: r3 may not start, l5 waits
  assert.deepEqual(hasher.queued, { interactive: 1, background: 1 });
  for (let i = 0; i < 7; i++) await open();
  assert.deepEqual(started.slice(6), ['l5', 'r3']);
  await Promise.all([...registrations, ...logins]);
});

test('past maxQueued a hash is refused 503 with Retry-After; an aborted waiter is dropped and unblocks registrations', async () => {
  const { hasher, started, open, settle } = gated(1, 1);
  const running = hasher.hash('l1');
  const waiting = new AbortController();
  const queued = hasher.hash('l2', { signal: waiting.signal });
  await settle();
  await assert.rejects(hasher.hash('l3'), (error: HttpError) => error.code === 'ERR_SERVER_BUSY' && /^\d+$/.test(error.headers['Retry-After']!));
  const registration = hasher.hash('r1', { priority: 'background' });
  await settle();
  assert.deepEqual(hasher.queued, { interactive: 1, background: 1 });
  waiting.abort();
  await assert.rejects(queued, { name: 'AbortError' });
  await open();
  assert.deepEqual(started, ['l1', 'r1'], 'l2 never ran; r1 ran once no login was left');
  await open();
  await Promise.all([running, registration]);
  const aborted = new AbortController();
  aborted.abort();
  await assert.rejects(hasher.hash('l4', { signal: aborted.signal }), { name: 'AbortError' });
  assert.equal(hasher.hashesComputed, 2);
});

test('a refusal waits out its pause before it is sent, and lets a departed client go at once', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const { hasher, open, settle } = gated(1, 0, 1000);
  const running = hasher.hash('l1');
  let settled = false;
  const refused = hasher.hash('l2').finally(() => { settled = true; });
  await settle();
  t.mock.timers.tick(999);
  await settle();
  assert.equal(settled, false, 'not before the pause is over');
  t.mock.timers.tick(1);
  await assert.rejects(refused, { code: 'ERR_SERVER_BUSY' });
  const leaving = new AbortController();
  const abandoned = hasher.hash('l3', { signal: leaving.signal });
  leaving.abort();
  await assert.rejects(abandoned, { name: 'AbortError' });
  await open();
  await running;
});
