// Who reads the log, and when (src/events/pump-turns.ts): one pump at a time, and on a server whose commits keep
// the pump going round, an attach or a catch-up waits for one round, not for the pump to stop.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PumpTurns } from '../../src/events/pump-turns.ts';

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Waits for a condition for at most 2,000 turns of the loop: a pump that stopped fails the test instead of hanging it. */
async function until(condition: () => boolean, what: string): Promise<void> {
  for (let turn = 0; !condition(); turn++) {
    if (turn > 2000) assert.fail(`never: ${what}`);
    await tick();
  }
}

/** A pump whose every round is followed by another commit's wake, `busyRounds` times: a busy server. */
function busyPump(busyRounds: number) {
  const log: string[] = [];
  let rounds = 0;
  let running = 0;
  const turns: PumpTurns = new PumpTurns(async () => {
    running++;
    assert.equal(running, 1, 'two pumps at once');
    assert.notEqual(log.at(-1), 'attach', 'a pump during an attach');
    rounds++;
    log.push(`round ${rounds}`);
    await tick();
    running--;
    if (rounds < busyRounds) turns.wake();
  }, async (work) => work.catch(() => {}));
  return { turns, log, rounds: () => rounds };
}

test('an attach that comes while the pump keeps going round runs between two rounds, with no pump meanwhile', async () => {
  const { turns, log, rounds } = busyPump(200);
  turns.wake();
  await until(() => rounds() >= 3, 'three rounds');
  await turns.whileNoPump(async () => {
    log.push('attach');
    await tick();
    log.push('attach done');
  });
  assert.ok(rounds() < 10, `the attach waited for ${rounds()} rounds`);
  const at = log.indexOf('attach');
  assert.deepEqual(log.slice(at, at + 2), ['attach', 'attach done']);
  await until(() => rounds() >= 200, 'the busy rounds');
});

test('inTurn resolves after one whole round that began after the call, not when the pump stops', async () => {
  const { turns, log, rounds } = busyPump(200);
  turns.wake();
  await until(() => rounds() >= 3, 'three rounds');
  const asked = rounds();
  await turns.inTurn();
  assert.ok(rounds() > asked && rounds() < asked + 4, `asked at round ${asked}, answered at ${rounds()}`);
  await until(() => rounds() >= 200, 'the busy rounds');
  assert.equal(log.filter((line) => line.startsWith('round')).length, 200);
});

test('a failed round rejects those waiting for it; attaches waiting between rounds still run', async () => {
  let fail = true;
  let rounds = 0;
  const turns = new PumpTurns(async () => {
    rounds++;
    await tick();
    if (fail) throw new Error('log unreadable');
  }, async (work) => work.catch(() => {}));
  const first = turns.inTurn();
  const attached = turns.whileNoPump(async () => {});
  await assert.rejects(first, /log unreadable/);
  await attached;
  fail = false;
  await turns.inTurn();
  assert.equal(rounds, 2);
});
