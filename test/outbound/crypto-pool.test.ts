// The crypto pool (src/outbound/crypto-pool.ts): jobs run on a thread and decrypt with an independent implementation
// (http_ece); a thread that dies is replaced and its jobs handed on; a job's own error ends no thread; without the
// worker's file, jobs run on the event loop with the same results.
import assert from 'node:assert/strict';
import { createECDH, createPublicKey, generateKeyPairSync, verify } from 'node:crypto';
import { test } from 'node:test';
// @ts-expect-error http_ece ships no types
import ece from 'http_ece';
import { CryptoPool } from '../../src/outbound/crypto-pool.ts';

const browser = createECDH('prime256v1');
browser.generateKeys();
const auth = Buffer.alloc(16, 7);

function encryptJob(text: string) {
  return { type: 'encrypt' as const, payload: text, p256dh: browser.getPublicKey().toString('base64url'), auth: auth.toString('base64url') };
}

function decrypt(body: Uint8Array): string {
  return (ece.decrypt(Buffer.from(body), { version: 'aes128gcm', privateKey: browser, authSecret: auth.toString('base64url') }) as Buffer).toString();
}

function startPool(t: { after(fn: () => Promise<void>): void }, options: Partial<ConstructorParameters<typeof CryptoPool>[0]> = {}): { pool: CryptoPool; logged: string[] } {
  const logged: string[] = [];
  const pool = new CryptoPool({ size: 1, logError: (error) => logged.push((error as Error).message), ...options });
  t.after(() => pool.stop());
  return { pool, logged };
}

test('encryptions and signatures run on a thread, started at the first job; each decrypts and verifies', async (t) => {
  const { pool } = startPool(t);
  assert.deepEqual(pool.threadIds, [], 'no thread before a job');
  const bodies = await Promise.all(Array.from({ length: 20 }, (_, n) => pool.run(encryptJob(`push ${n}`))));
  assert.deepEqual(bodies.map(decrypt), Array.from({ length: 20 }, (_, n) => `push ${n}`));
  assert.equal(pool.threadIds.length, 1);
  assert.equal(pool.runsOnEventLoop, false);
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const signature = await pool.run({ type: 'sign', input: 'a.b', jwk: privateKey.export({ format: 'jwk' }) as never });
  assert.equal(signature.length, 64);
  assert.equal(verify('sha256', Buffer.from('a.b'), { key: createPublicKey(publicKey.export({ format: 'pem', type: 'spki' })), dsaEncoding: 'ieee-p1363' }, signature), true);
});

test('a thread that dies is replaced and its jobs are handed on: every job answers once, correctly', async (t) => {
  const { pool, logged } = startPool(t);
  await pool.run(encryptJob('start'));
  const [first] = pool.threadIds;
  const jobs = Array.from({ length: 200 }, (_, n) => pool.run(encryptJob(`job ${n}`)));
  // Every job is handed to the thread, none answered yet (answers arrive on later turns): it dies holding most of them.
  await pool.endThread(first!);
  assert.deepEqual((await Promise.all(jobs)).map(decrypt), Array.from({ length: 200 }, (_, n) => `job ${n}`));
  assert.equal(pool.threadIds.length, 1);
  assert.notEqual(pool.threadIds[0], first, 'a new thread took its place');
  const handedOn = new RegExp(`thread ${first} exited \\(code 1\\); (\\d+) job\\(s\\) handed on`).exec(logged.join('\n'));
  assert.ok(handedOn && Number(handedOn[1]) > 0, logged.join('\n'));
});

test('a job that ended two threads is refused; the pool goes on', async (t) => {
  const { pool } = startPool(t);
  await pool.run(encryptJob('start'));
  // A job no thread finishes before the test ends it (a signature over 64 MiB: a few hundred ms), where a small one
  // could be answered first on a loaded machine, and the job would never have ended a thread.
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const job = pool.run({ type: 'sign', input: 'x'.repeat(64 * 1024 * 1024), jwk: privateKey.export({ format: 'jwk' }) as never });
  await pool.endThread(pool.threadIds[0]!);
  // Handed to the new thread at once, synchronously in the exit handler: it dies holding it too.
  await pool.endThread(pool.threadIds[0]!);
  await assert.rejects(job, /the job ended 2 threads/);
  assert.equal(decrypt(await pool.run(encryptJob('after'))), 'after');
});

test('a job\'s own error is its rejection, and ends no thread', async (t) => {
  const { pool } = startPool(t);
  await pool.run(encryptJob('start'));
  const [thread] = pool.threadIds;
  await assert.rejects(pool.run({ type: 'encrypt', payload: 'x', p256dh: Buffer.alloc(65, 4).toString('base64url'), auth: Buffer.alloc(3).toString('base64url') }), /auth is not 16 bytes/);
  assert.deepEqual(pool.threadIds, [thread]);
});

test('without the worker\'s file (the single executable), jobs run on the event loop with the same results', async (t) => {
  const { pool, logged } = startPool(t, { workerUrl: new URL('file:///nonexistent/crypto-worker.js') });
  assert.equal(pool.runsOnEventLoop, true);
  assert.equal(decrypt(await pool.run(encryptJob('here'))), 'here');
  assert.equal(decrypt(await pool.run(encryptJob('again'))), 'again');
  assert.deepEqual(logged, ['crypto pool: no thread (/nonexistent/crypto-worker.js); push encryption runs on the event loop'], 'said once');
  assert.deepEqual(pool.threadIds, []);
});

test('stop() rejects what is not answered; later jobs are refused', async (t) => {
  const { pool } = startPool(t);
  await pool.run(encryptJob('start'));
  const refused = assert.rejects(pool.run(encryptJob('late')), /stopped/);
  await pool.stop();
  await refused;
  await assert.rejects(pool.run(encryptJob('after')), /stopped/);
});
