// The WAL's checkpoint on a thread of its own (src/storage/sqlite/checkpointer.ts): the connection's own mark is raised
// while the thread copies the WAL into the file; closing ends the thread first; a thread that cannot run hands the
// checkpoint back to the connection.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { Worker } from 'node:worker_threads';
import { openDatabase } from '../../../src/storage/sqlite/database.ts';
import { Checkpointer, checkpointLoop, FALLBACK_CHECKPOINT_PAGES, SQLITE_CHECKPOINT_PAGES } from '../../../src/storage/sqlite/checkpointer.ts';
import { SqliteStore } from '../../../src/storage/sqlite/sqlite-store.ts';

const MIB = 1024 * 1024;
const CHUNK = 256 * 1024;

function tempFile(t: TestContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'checkpointer-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, 'chat.db');
}

/** Resolves once `done` holds, looking every few milliseconds: a wait on a condition, not on time. */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 5));
}

const chunk = (n: number): Buffer => Buffer.alloc(CHUNK, n % 251);

test('a store on a file checkpoints on its thread: the connection\'s own mark is raised, and what it writes reaches the file without it', async (t) => {
  const path = tempFile(t);
  const store = new SqliteStore(path);
  t.after(() => store.close());
  assert.equal(store.db.pragma('wal_autocheckpoint', { simple: true }), FALLBACK_CHECKPOINT_PAGES);
  const before = statSync(path).size;
  // 6 MiB: 1,536 pages, over SQLite's own mark and under the connection's, so only the thread copies them.
  await store.attachments.startContent('content-1', CHUNK, 1);
  for (let n = 0; n < 24; n += 4) await store.attachments.appendChunks('content-1', n, [chunk(n), chunk(n + 1), chunk(n + 2), chunk(n + 3)]);
  await until(() => statSync(path).size >= before + 6 * MIB);
  assert.deepEqual(await store.attachments.readChunk('content-1', 23), chunk(23));
});

test('closing ends the thread before the connection, which, the last one, removes the WAL', async (t) => {
  const path = tempFile(t);
  const store = new SqliteStore(path);
  const before = statSync(path).size;
  await store.attachments.startContent('content-1', CHUNK, 1);
  await store.attachments.appendChunks('content-1', 0, [chunk(0)]);
  // Copied by the thread: its connection is open.
  await until(() => statSync(path).size >= before + CHUNK);
  assert.ok(existsSync(`${path}-wal`));
  await store.close();
  assert.equal(existsSync(`${path}-wal`), false);
});

test('in memory, or asked not to, the connection checkpoints itself at SQLite\'s mark', async (t) => {
  for (const store of [new SqliteStore(':memory:'), new SqliteStore(tempFile(t), { checkpointThread: false })]) {
    t.after(() => store.close());
    assert.equal(store.db.pragma('wal_autocheckpoint', { simple: true }), SQLITE_CHECKPOINT_PAGES);
  }
});

test('a thread that fails hands the checkpoint back to the connection (SQLite\'s mark) and says so once', async (t) => {
  const path = tempFile(t);
  const db = openDatabase(path);
  t.after(() => db.close());
  const told: unknown[] = [];
  // Its file is not there: the thread's open fails at once.
  const checkpointer = Checkpointer.start(db, join(path, 'missing', 'chat.db'), (error) => void told.push(error));
  assert.ok(checkpointer);
  await until(() => told.length > 0);
  assert.equal(db.pragma('wal_autocheckpoint', { simple: true }), SQLITE_CHECKPOINT_PAGES);
  await checkpointer.stop();
  assert.equal(told.length, 1);
  assert.match(String(told[0]), /the directory does not exist/);
});

test('the thread\'s loop, run here: it copies the WAL into the file, and ends when asked', (t) => {
  const path = tempFile(t);
  const writer = openDatabase(path);
  t.after(() => writer.close());
  writer.pragma('wal_autocheckpoint = 0');
  writer.exec('CREATE TABLE blobs (data BLOB)');
  const insert = writer.prepare('INSERT INTO blobs (data) VALUES (?)');
  for (let n = 0; n < 8; n++) insert.run(chunk(n));
  const before = statSync(path).size;
  const stop = new SharedArrayBuffer(4);
  // The loop holds this thread; another one asks it to stop once the file holds the 2 MiB.
  const watcher = new Worker(`const { workerData: { path, size, stop } } = require('node:worker_threads'); const { statSync } = require('node:fs');
    const flag = new Int32Array(stop); const timer = setInterval(() => { if (statSync(path).size >= size) { clearInterval(timer); Atomics.store(flag, 0, 1); Atomics.notify(flag, 0); } }, 5);`,
  { eval: true, execArgv: [], workerData: { path, size: before + 2 * MIB, stop } });
  t.after(() => watcher.terminate());
  const require = createRequire(import.meta.url);
  checkpointLoop({ module: require.resolve('better-sqlite3'), path, stop, busyMs: 2, idleMs: 5 }, require);
  assert.ok(statSync(path).size >= before + 2 * MIB);
  assert.deepEqual(writer.prepare('SELECT data FROM blobs WHERE rowid = 8').pluck().get(), chunk(7));
});
