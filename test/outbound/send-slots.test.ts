// A kind's share of the outbound loop and one start per turn (src/outbound/send-slots.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SendSlots, type Release } from '../../src/outbound/send-slots.ts';

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

test('at most a kind\'s limit at once, the rest in order as slots come back; one start per turn; other kinds unbounded', async () => {
  const slots = new SendSlots((kind) => (kind === 'push' ? { maxInFlight: 2 } : undefined));
  const granted: string[] = [];
  const releases = new Map<string, Release>();
  for (const name of ['p1', 'p2', 'p3', 'p4']) void slots.acquire('push').then((release) => { granted.push(name); releases.set(name, release); });
  void slots.acquire('webhook').then((release) => { granted.push('w1'); releases.set('w1', release); });
  assert.deepEqual(granted, [], 'never in the turn that asks');
  await turn();
  assert.deepEqual(granted, ['p1'], 'one per turn');
  for (let n = 0; n < 5; n++) await turn();
  assert.deepEqual(granted, ['p1', 'p2', 'w1'], 'two pushes at once; the webhook is not held up by them');
  releases.get('p1')!();
  releases.get('p1')!();
  for (let n = 0; n < 5; n++) await turn();
  assert.deepEqual(granted, ['p1', 'p2', 'w1', 'p3'], 'a slot released twice counts once');
  releases.get('p2')!();
  for (let n = 0; n < 5; n++) await turn();
  assert.deepEqual(granted, ['p1', 'p2', 'w1', 'p3', 'p4']);
});

test('a paced kind starts evenly spread, never two within its interval; after a lull the next starts at once', async () => {
  let now = 1000;
  const timers: { at: number; run: () => void }[] = [];
  const slots = new SendSlots((kind) => (kind === 'push' ? { maxInFlight: 8, perSecond: 100 } : undefined), {
    now: () => now,
    after: (ms, run) => void timers.push({ at: now + ms, run }),
  });
  const granted: string[] = [];
  const advanceTo = async (at: number): Promise<void> => {
    now = at;
    for (const timer of timers.filter((timer) => timer.at <= at)) {
      timers.splice(timers.indexOf(timer), 1);
      timer.run();
    }
    for (let n = 0; n < 5; n++) await turn();
  };
  for (const name of ['p1', 'p2', 'p3']) void slots.acquire('push').then(() => granted.push(`${name}@${now}`));
  void slots.acquire('webhook').then(() => granted.push(`w1@${now}`));
  await advanceTo(1000);
  assert.deepEqual(granted, ['p1@1000', 'w1@1000'], 'the first at once; an unpaced kind is not held by the pace');
  assert.deepEqual(timers.map((timer) => timer.at), [1010, 1020], 'the others 10 ms apart (100 a second)');
  await advanceTo(1009);
  assert.deepEqual(granted, ['p1@1000', 'w1@1000'], 'not before its time');
  await advanceTo(1010);
  await advanceTo(1020);
  assert.deepEqual(granted, ['p1@1000', 'w1@1000', 'p2@1010', 'p3@1020']);
  await advanceTo(5000);
  void slots.acquire('push').then(() => granted.push(`p4@${now}`));
  await advanceTo(5000);
  assert.equal(granted.at(-1), 'p4@5000', 'a start after a lull waits for nothing');
  assert.equal(timers.length, 0);
});
