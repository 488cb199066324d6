// A kind's share of the outbound loop and one start per turn (src/outbound/send-slots.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SendSlots, type Release } from '../../src/outbound/send-slots.ts';

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

test('at most a kind\'s limit at once, the rest in order as slots come back; one start per turn; other kinds unbounded', async () => {
  const slots = new SendSlots((kind) => (kind === 'push' ? 2 : undefined));
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
