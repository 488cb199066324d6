// The hash budget's fair queue: addresses served in turn, each within its share of slots and queue, abandoned work dropped.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { HttpError } from '../../src/http/http-error.ts';
import { FairQueue } from '../../src/resources/session/fair-queue.ts';
import { HashBudget } from '../../src/resources/session/hash-budget.ts';

/** Work that starts by writing its name down and ends when `finish()` lets the oldest running one go. */
function gatedBudget(options: { concurrency: number; maxQueued?: number; maxPerKey?: number }) {
  const budget = new HashBudget({ ...options, refusalPauseMs: 0 });
  const started: string[] = [];
  const gates: (() => void)[] = [];
  const settle = async (): Promise<void> => {
    for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
  };
  const run = (name: string, key?: string, signal?: AbortSignal): Promise<string> => budget.run(async () => {
    started.push(name);
    await new Promise<void>((resolve) => gates.push(resolve));
    return name;
  }, { ...(key === undefined ? {} : { key }), ...(signal ? { signal } : {}) });
  const finish = async (): Promise<void> => {
    await settle();
    gates.shift()!();
    await settle();
  };
  return { budget, started, run, finish, settle };
}

test('the fair queue takes keys in turn, oldest first within a key, skipping keys that may not run now', () => {
  const queue = new FairQueue<string>();
  for (const [key, item] of [['a', 'a1'], ['a', 'a2'], ['a', 'a3'], ['b', 'b1'], ['c', 'c1'], ['b', 'b2']] as const) queue.push(key, item);
  assert.equal(queue.size, 6);
  assert.equal(queue.shift(), 'a1');
  assert.equal(queue.shift(), 'b1');
  assert.equal(queue.shift((key) => key !== 'c'), 'a2', 'c is skipped, not dropped');
  assert.equal(queue.shift(), 'c1');
  assert.equal(queue.remove('b', 'b2'), true);
  assert.equal(queue.remove('b', 'b2'), false);
  assert.equal(queue.shift((key) => key !== 'a'), undefined);
  assert.equal(queue.shift(), 'a3');
  assert.equal(queue.size, 0);
  queue.served('x');
  queue.push('x', 'x1');
  queue.push('y', 'y1');
  assert.equal(queue.shift(), 'y1', 'x started one without waiting: that was its turn');
  assert.equal(queue.shift(), 'x1');
});

test('a newcomer goes ahead of the next item of a key that is being served, however long that key\'s line', () => {
  const queue = new FairQueue<string>();
  queue.served('f');
  for (const item of ['f2', 'f3', 'f4']) queue.push('f', item);
  assert.equal(queue.shift(), 'f2');
  queue.push('z', 'z1');
  assert.equal(queue.shift(), 'z1', 'f2 is running: z\'s first turn comes before f3');
  queue.push('z', 'z2');
  assert.deepEqual([queue.shift(), queue.shift(), queue.shift()], ['f3', 'z2', 'f4']);
  queue.forget('z');
  queue.push('z', 'z3');
  assert.equal(queue.shift(), 'z3');
});

test('a freed slot goes to the next address in turn: a flood from one address waits behind one login of each other address', async () => {
  const { started, run, finish, settle } = gatedBudget({ concurrency: 1, maxQueued: 16, maxPerKey: 4 });
  const flood = ['f1', 'f2', 'f3', 'f4'].map((name) => run(name, '10.0.0.1'));
  await settle();
  const others = [run('v1', '10.0.0.2'), run('w1', '10.0.0.3'), run('v2', '10.0.0.2')];
  for (let i = 0; i < 7; i++) await finish();
  assert.deepEqual(started, ['f1', 'v1', 'w1', 'f2', 'v2', 'f3', 'f4']);
  assert.deepEqual(await Promise.all([...flood, ...others]), ['f1', 'f2', 'f3', 'f4', 'v1', 'w1', 'v2']);
});

test('one address runs at most half the slots and holds at most maxPerKey hashes; past that 429 with Retry-After', async () => {
  const { budget, started, run, finish, settle } = gatedBudget({ concurrency: 4, maxQueued: 16, maxPerKey: 3 });
  const held = ['a1', 'a2', 'a3'].map((name) => run(name, '10.0.0.1'));
  await settle();
  assert.deepEqual(started, ['a1', 'a2'], 'two of four slots, though two more are free');
  assert.deepEqual(budget.queued, { interactive: 1, background: 0 });
  assert.equal(budget.heldBy('10.0.0.1'), 3);
  await assert.rejects(run('a4', '10.0.0.1'), (error: HttpError) =>
    error.status === 429 && error.code === 'ERR_TOO_MANY_REQUESTS' && /^[1-9]\d*$/.test(error.headers['Retry-After']!)
      && error.message === '3 password checks from this address are running or waiting already; try again in 1 s');
  const other = run('b1', '10.0.0.2');
  await settle();
  assert.deepEqual(started, ['a1', 'a2', 'b1'], 'another address starts at once in a free slot');
  await finish();
  assert.deepEqual(started, ['a1', 'a2', 'b1', 'a3']);
  for (let i = 0; i < 3; i++) await finish();
  assert.deepEqual(await Promise.all([...held, other]), ['a1', 'a2', 'a3', 'b1']);
  assert.equal(budget.heldBy('10.0.0.1'), 0);
  const unkeyed = ['u1', 'u2', 'u3', 'u4'].map((name) => run(name));
  await settle();
  assert.equal(started.length, 8, 'work without a key has no share: all four slots');
  for (let i = 0; i < 4; i++) await finish();
  await Promise.all(unkeyed);
});

test('past the whole queue the answer is 503 for any address; past its share an address gets 429 first', async () => {
  const { started, run, finish, settle } = gatedBudget({ concurrency: 1, maxQueued: 2, maxPerKey: 2 });
  const first = [run('a1', '10.0.0.1'), run('a2', '10.0.0.1')];
  const second = run('b1', '10.0.0.2');
  await settle();
  await assert.rejects(run('c1', '10.0.0.3'), (error: HttpError) => error.status === 503 && error.code === 'ERR_SERVER_BUSY' && error.headers['Retry-After'] === '1');
  await assert.rejects(run('a3', '10.0.0.1'), (error: HttpError) => error.status === 429);
  for (let i = 0; i < 3; i++) await finish();
  assert.deepEqual(started, ['a1', 'b1', 'a2']);
  await Promise.all([...first, second]);
});

test('work abandoned while it waits is never run, gives back its address\'s share, and the turn passes on', async () => {
  const { budget, started, run, finish, settle } = gatedBudget({ concurrency: 1, maxQueued: 16, maxPerKey: 2 });
  const running = run('a1', '10.0.0.1');
  const leaving = new AbortController();
  const abandoned = run('a2', '10.0.0.1', leaving.signal);
  await settle();
  await assert.rejects(run('a3', '10.0.0.1'), { status: 429 });
  const waiting = run('b1', '10.0.0.2');
  leaving.abort();
  await assert.rejects(abandoned, { name: 'AbortError' });
  assert.equal(budget.heldBy('10.0.0.1'), 1, 'the running one alone');
  const again = run('a4', '10.0.0.1');
  await finish();
  await finish();
  await finish();
  assert.deepEqual(started, ['a1', 'b1', 'a4'], 'a2 never ran');
  assert.deepEqual(await Promise.all([running, waiting, again]), ['a1', 'b1', 'a4']);
  assert.equal(budget.heldBy('10.0.0.1'), 0);
  assert.deepEqual(budget.queued, { interactive: 0, background: 0 });
});
