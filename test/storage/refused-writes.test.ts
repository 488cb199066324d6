// What a store remembers of refused writes (src/storage/refused-writes.ts): one rule for /health, one probe at a time.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RefusedWrites } from '../../src/storage/refused-writes.ts';
import { StoreWriteRefusedError } from '../../src/storage/store.ts';

test('checks asked for together share one probe, and its outcome answers them all', async () => {
  const refused = new RefusedWrites();
  refused.note(new StoreWriteRefusedError('full', 'no space'));
  let probes = 0;
  let release: () => void = () => {};
  const probe = () => {
    probes++;
    return new Promise<void>((resolve) => {
      release = resolve;
    });
  };
  const answers = Promise.all([refused.check(probe), refused.check(probe), refused.check(probe)]);
  release();
  assert.deepEqual(await answers, [undefined, undefined, undefined]);
  assert.equal(probes, 1);
  assert.equal(refused.reason, undefined);
});

test('a probe refused again keeps the reason; the next check probes anew; none while nothing was refused', async () => {
  const refused = new RefusedWrites();
  let probes = 0;
  assert.equal(await refused.check(async () => {
    probes++;
  }), undefined);
  assert.equal(probes, 0);
  refused.note(new StoreWriteRefusedError('read-only', 'read-only file'));
  const stillRefused = async () => {
    probes++;
    throw new StoreWriteRefusedError('read-only', 'still read-only');
  };
  assert.equal(await refused.check(stillRefused), 'read-only');
  assert.equal(await refused.check(stillRefused), 'read-only');
  assert.equal(probes, 2);
});
