// The login limiter on its own: what it refuses, what it only slows down, and the pause before a refusal.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { HttpError } from '../../src/http/http-error.ts';
import { LoginLimiter } from '../../src/resources/session/login-limiter.ts';
import { MemoryRateCounters } from '../../src/storage/memory-rate-counters.ts';

const settle = () => new Promise((resolve) => setImmediate(resolve));

function limiter(options: { refusalPauseMs?: number; slowDownMs?: number } = {}) {
  const clock = { time: Date.UTC(2026, 10, 25, 9), now() { return this.time; } };
  return new LoginLimiter({ maxFailures: 3, windowMs: 900_000, checkRate: 0, refusalPauseMs: 0, slowDownMs: 0, ...options, clock, store: new MemoryRateCounters() });
}

test('failures refuse the login from the failing address only; failures from everywhere only slow the login down', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const limits = limiter({ slowDownMs: 1000 });
  for (let i = 0; i < 3; i++) {
    await limits.admit('owner', '10.0.0.1');
    await limits.fail('owner', '10.0.0.1');
  }
  await assert.rejects(limits.admit('Owner', '10.0.0.1'), (error: HttpError) =>
    error.status === 429 && error.headers['Retry-After'] === '900' && error.message === 'More than 3 failed logins to this account from your address in 900 s; try again in 900 s');
  let admitted = false;
  const owner = limits.admit('owner', '10.0.0.2').then(() => { admitted = true; });
  await settle();
  assert.equal(admitted, false, 'slowed down: the login failed three times from somewhere');
  t.mock.timers.tick(1000);
  await owner;
  await limits.forgive('owner', '10.0.0.2');
  await limits.admit('someone-else', '10.0.0.2');
});

test('a refusal waits out its pause before it is thrown, and a client that leaves is let go at once', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const limits = limiter({ refusalPauseMs: 1000 });
  for (let i = 0; i < 3; i++) await limits.admit('owner', '10.0.0.1');
  let settled = false;
  const refused = limits.admit('owner', '10.0.0.1').finally(() => { settled = true; });
  await settle();
  t.mock.timers.tick(999);
  await settle();
  assert.equal(settled, false, 'not before the pause is over');
  t.mock.timers.tick(1);
  await assert.rejects(refused, { status: 429 });
  const leaving = new AbortController();
  const abandoned = limits.admit('owner', '10.0.0.1', leaving.signal);
  leaving.abort();
  await assert.rejects(abandoned, { status: 429 });
});

test('withdraw gives back everything admit counted', async () => {
  const limits = limiter();
  for (let i = 0; i < 10; i++) {
    await limits.admit('owner', '10.0.0.1');
    await limits.withdraw('owner', '10.0.0.1');
  }
  await limits.admit('owner', '10.0.0.1');
});
