// Password hashing: scrypt with parameters stored per hash, verification, and the bound on concurrent hashes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
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
  const original = (hasher as any).bounded.bind(hasher);
  (hasher as any).bounded = (work: () => Promise<unknown>, options: unknown) => original(async () => {
    peak = Math.max(peak, (hasher as any).running);
    return work();
  }, options);
  await Promise.all(Array.from({ length: 12 }, (_, i) => hasher.hash(`password ${i}`)));
  assert.equal(peak, 2);
  assert.equal(hasher.hashesComputed, 12);
});
