// When a failed delivery is tried again (docs/protocol.md §16.5): doubling from the first delay to the cap, Retry-After
// honoured when longer, given up past the window; and what a reply means by default.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { judgeByStatus, parseRetryAfter } from '../../src/outbound/outbound-kind.ts';
import { DEFAULT_RETRY_POLICY, scheduleRetry } from '../../src/outbound/retry-schedule.ts';

const noJitter = () => 0;

test('5 s, 10 s, 20 s, ... capped at an hour; a longer Retry-After wins; nothing after 24 h', () => {
  const delays = [1, 2, 3, 4, 12, 13].map((attempts) => scheduleRetry(DEFAULT_RETRY_POLICY, 0, attempts, 0, undefined, noJitter));
  assert.deepEqual(delays, [5_000, 10_000, 20_000, 40_000, 3_600_000, 3_600_000]);
  assert.equal(scheduleRetry(DEFAULT_RETRY_POLICY, 0, 1, 0, 120_000, noJitter), 120_000);
  assert.equal(scheduleRetry(DEFAULT_RETRY_POLICY, 0, 1, 0, 1_000, noJitter), 5_000, 'a shorter Retry-After does not hurry the backoff');
  assert.equal(scheduleRetry(DEFAULT_RETRY_POLICY, 0, 20, 23 * 3_600_000 + 1, undefined, noJitter), undefined);
  assert.equal(scheduleRetry(DEFAULT_RETRY_POLICY, 0, 20, 23 * 3_600_000 - 1, undefined, noJitter), 24 * 3_600_000 - 1);
});

test('Retry-After: seconds or a date; the default judge honours it on 429 and 5xx only', () => {
  assert.equal(parseRetryAfter('30', 0), 30_000);
  assert.equal(parseRetryAfter(new Date(60_000).toUTCString(), 0), 60_000);
  assert.equal(parseRetryAfter('soon', 0), undefined);
  const reply = (status: number, retryAfter?: string) => ({ status, headers: retryAfter ? { 'retry-after': retryAfter } : {}, body: Buffer.alloc(0), durationMs: 1, error: null });
  assert.deepEqual(judgeByStatus(reply(204)), { outcome: 'delivered' });
  assert.deepEqual(judgeByStatus(reply(429, '7')), { outcome: 'retry', afterMs: 7_000 });
  assert.deepEqual(judgeByStatus(reply(503, '9')), { outcome: 'retry', afterMs: 9_000 });
  assert.deepEqual(judgeByStatus(reply(400, '9')), { outcome: 'retry' });
  assert.deepEqual(judgeByStatus({ ...reply(0), error: 'ECONNREFUSED' }), { outcome: 'retry' });
});
