// A SQLite database whose disk fills up while the server runs: writes answer 503 ERR_DATABASE_FULL, /health says
// so, and both recover once space is back, without a restart (docs/operations.md, "When the database refuses writes").
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, rmdirSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { call, registerAndLogIn, runSql, TestClock, withServer } from '../http/client.ts';
import { createChat } from '../http/chat-fixtures.ts';
import { SqliteRateCounters } from '../../src/storage/sqlite/rate-counter-store.ts';
import { StoreWriteRefusedError } from '../../src/storage/store.ts';

/**
 * A real, small file system of its own: a 16 MiB tmpfs. Mounting needs root (CAP_SYS_ADMIN); without it the test
 * says so and is skipped, since nothing else makes a real disk full without touching the machine's own disks.
 */
function smallDisk(t: TestContext): string | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'chat-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=16m,mode=0755', 'tmpfs', dir], { stdio: 'pipe' });
  } catch (error) {
    rmdirSync(dir);
    t.skip(`cannot mount a small tmpfs here (${String((error as { stderr?: Buffer }).stderr ?? error).trim()}): it needs root`);
    return undefined;
  }
  t.after(() => {
    execFileSync('umount', ['--lazy', dir]);
    rmdirSync(dir);
  });
  return dir;
}

/** Writes to `path` until the file system has no page left. */
function fillUp(path: string): void {
  const fd = openSync(path, 'w');
  const chunk = Buffer.alloc(4096, 0x2a);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
}

test('a full disk: writes answer 503 ERR_DATABASE_FULL with Retry-After, /health says it, and both recover when space is back', async (t) => {
  const disk = smallDisk(t);
  if (disk === undefined) return;
  const server = await withServer(t, { db: join(disk, 'chat.db') });
  const alice = await registerAndLogIn(server);
  const chat = await createChat(server, alice, { title: 'Filling up' });
  const post = (n: number) => call(server, 'POST', `/chats/${chat.id}/messages`, { token: alice.token, json: { data: { text: `message ${n} `.padEnd(3000, 'x') } } });
  assert.equal((await post(0)).status, 201);
  assert.equal((await call(server, 'GET', '/health')).status, 200);

  const filler = join(disk, 'filler');
  fillUp(filler);
  // Pages SQLite had already taken still hold a few writes: post until the first that needs a new one.
  let refused;
  for (let n = 1; n <= 500 && refused === undefined; n++) {
    const res = await post(n);
    if (res.status !== 201) refused = res;
  }
  assert.ok(refused, 'a write was refused');
  assert.equal(refused.status, 503, refused.text);
  assert.equal(refused.headers['retry-after'], '30');
  assert.match(String(refused.headers['content-type']), /^application\/problem\+json/);
  assert.deepEqual(refused.body, {
    type: 'https://chat-api.invalid/problems/database-full',
    title: 'Database full',
    status: 503,
    detail: 'Database full', // a 5xx says only its title (docs/api.md)
    code: 'ERR_DATABASE_FULL',
  });
  const health = await call(server, 'GET', '/health');
  assert.equal(health.status, 503);
  assert.equal(health.headers['retry-after'], '30');
  assert.equal(health.body.code, 'ERR_DATABASE_FULL');
  // Reads keep working meanwhile.
  assert.equal((await call(server, 'GET', `/chats/${chat.id}`, { token: alice.token })).status, 200);

  rmSync(filler);
  const back = await call(server, 'GET', '/health');
  assert.equal(back.status, 200, back.text);
  assert.deepEqual(back.body, { status: 'ok' });
  const res = await post(1000);
  assert.equal(res.status, 201, res.text);
});

/** Resolves once `done` holds, checking at each turn of the event loop: a wait on a condition, not on time. */
async function until(done: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await done())) await new Promise((resolve) => setImmediate(resolve));
}

test('a full disk under the event log\'s pruning (a timer, no request): the server lives on, /health says it, pruning resumes when space is back', async (t) => {
  const disk = smallDisk(t);
  if (disk === undefined) return;
  const clock = new TestClock();
  const server = await withServer(t, { db: join(disk, 'chat.db'), clock, eventRetention: 60, eventTimings: { pruneMs: 5 } });
  const alice = await registerAndLogIn(server);
  const chat = await createChat(server, alice, { title: 'Old news' });
  assert.equal((await call(server, 'POST', `/chats/${chat.id}/messages`, { token: alice.token, json: { data: { text: 'soon pruned' } } })).status, 201);
  const events = async () => Number((await runSql(server, 'SELECT count(*) AS n FROM events'))[0]!['n']);
  assert.ok(await events() > 0);

  const filler = join(disk, 'filler');
  fillUp(filler);
  clock.advance(61_000);
  // The next prune finds every event too old, and its DELETE needs room the disk no longer has.
  await until(() => server.app.services.storage.writesRefused === 'full');
  const health = await call(server, 'GET', '/health');
  assert.equal(health.status, 503);
  assert.equal(health.body.code, 'ERR_DATABASE_FULL');

  rmSync(filler);
  assert.equal((await call(server, 'GET', '/health')).status, 200);
  await until(async () => await events() === 0);
});

test('the shared rate counters (--workers) on a full disk refuse with the store\'s own error (503), not a raw SQLite error (500)', async (t) => {
  const disk = smallDisk(t);
  if (disk === undefined) return;
  const counters = new SqliteRateCounters(join(disk, 'chat.db'));
  t.after(() => counters.close());
  assert.deepEqual(await counters.hit('login:ann', 60_000, 0), { count: 1, resetAt: 60_000 });
  fillUp(join(disk, 'filler'));
  await assert.rejects(counters.undo('login:ann'), (error: unknown) => error instanceof StoreWriteRefusedError && error.reason === 'full');
});
