// A commit's WAL sync off the event loop (src/storage/sqlite/wal-sync.ts): nothing in the process hears of a commit,
// or reads it, before its sync completed; COMMIT itself does not sync; a failed sync refuses the writes; an event
// another process committed (--workers) is handed out by the log's reads only after a sync of this process.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import Database from 'better-sqlite3';
import { SqliteStore } from '../../../src/storage/sqlite/sqlite-store.ts';
import { StoreWriteRefusedError } from '../../../src/storage/store.ts';
import type { CommitListener } from '../../../src/storage/commit-listener.ts';

/** A store whose WAL syncs wait until the test lets each one go. */
function openHeldStore(t: TestContext, syncOffLoop = true) {
  const dir = mkdtempSync(join(tmpdir(), 'wal-sync-'));
  const held: { fd: number; release(error?: Error): void }[] = [];
  const woken: number[] = [];
  const onDisk: (number | undefined)[] = [];
  const commits: CommitListener = {
    eventsCommitted: (count, _queued, through) => {
      woken.push(count);
      onDisk.push(through);
    },
    othersCommitted: () => {},
  };
  const path = join(dir, 'chat.db');
  const store = new SqliteStore(path, {
    syncOffLoop, commits,
    syncFile: (fd) => new Promise((resolve, reject) => void held.push({ fd, release: (error) => (error ? reject(error) : resolve()) })),
  });
  t.after(async () => {
    for (const sync of held) sync.release();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { store, held, woken, path, onDisk };
}

const turns = async (n = 5): Promise<void> => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

const event = { type: 'read.updated', chatId: 'c', createdAt: 1, data: {}, onlyUserId: 'u' } as const;

for (const how of ['transaction', 'writeTogether'] as const) {
  test(`${how}: acknowledged, and its events woken, only after the WAL sync; a read meanwhile waits for it`, async (t) => {
    const { store, held, woken } = openHeldStore(t);
    let acknowledged = false;
    const write = store[how](async (tx) => {
      await tx.events.append(event);
      return 'done';
    }).then((value) => { acknowledged = true; return value; });
    await turns();
    assert.equal(held.length, 1, 'one sync of the WAL file, started after COMMIT');
    let read: number | undefined;
    const reading = store.events.newestId().then((id) => { read = id; });
    await turns();
    assert.deepEqual([acknowledged, woken, read], [false, [], undefined], 'nothing heard or read before the sync');
    held[0]!.release();
    assert.equal(await write, 'done');
    await reading;
    assert.deepEqual([woken, read], [[1], 1]);
  });
}

test('a failed sync refuses the writes of its commit (503, as SQLite\'s own failed sync), and wakes nothing', async (t) => {
  const { store, held, woken } = openHeldStore(t);
  const write = store.writeTogether((tx) => tx.events.append(event));
  await turns();
  held[0]!.release(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' }));
  await assert.rejects(write, (error: unknown) => error instanceof StoreWriteRefusedError && error.reason === 'read-only');
  assert.deepEqual(woken, []);
});

test('without syncOffLoop (:memory:, a benchmark\'s control) COMMIT syncs as SQLite does, and no sync of ours runs', async (t) => {
  const { store, held, woken } = openHeldStore(t, false);
  await store.transaction((tx) => tx.events.append(event));
  await store.writeTogether((tx) => tx.events.append(event));
  assert.deepEqual([held.length, woken], [0, [1, 1]]);
});

test('the connection is back at synchronous=FULL after each transaction, committed or rolled back', async (t) => {
  const { store, held } = openHeldStore(t);
  const level = (): number => store.db.pragma('synchronous', { simple: true }) as number;
  const write = store.transaction((tx) => tx.events.append(event));
  await turns();
  assert.equal(level(), 2, 'FULL again while the sync runs');
  held[0]!.release();
  await write;
  await assert.rejects(store.transaction(async (tx) => {
    await tx.events.append(event);
    throw new Error('undo');
  }), /undo/);
  assert.equal(level(), 2);
});

/** Another process's commit of an event, at synchronous=NORMAL: in the WAL, its sync (in that process) not yet done. */
function commitElsewhere(t: TestContext, path: string): number {
  const other = new Database(path);
  t.after(() => other.close());
  other.pragma('synchronous = NORMAL');
  const insert = other.prepare("INSERT INTO events (type, chat_id, only_user_id, created_at, data) VALUES ('read.updated', 'c', 'u', 1, '{}')");
  return Number(insert.run().lastInsertRowid);
}

for (const how of ['readAfter', 'newestId', 'a snapshot\'s readAfter'] as const) {
  test(`${how}: an event another process committed is handed out only after a sync of this process; then at once`, async (t) => {
    const { store, held, path } = openHeldStore(t);
    const read = (): Promise<number> => how === 'newestId' ? store.events.newestId()
      : how === 'readAfter' ? store.events.readAfter(0, 10).then((events) => events.at(-1)?.id ?? 0)
      : store.snapshot(async (tx) => (await tx.events.readAfter(0, 10)).at(-1)?.id ?? 0);
    const id = commitElsewhere(t, path);
    let answered: number | undefined;
    const reading = read().then((newest) => { answered = newest; });
    await turns();
    assert.deepEqual([held.length, answered], [1, undefined], 'a sync of the WAL file runs; the read waits for it');
    held[0]!.release();
    await reading;
    assert.equal(answered, id);
    assert.equal(await read(), id);
    assert.equal(held.length, 1, 'on disk now: no other sync');
  });
}

test('this process\'s own events, on disk once their commit answered, are read without a sync', async (t) => {
  const { store, held } = openHeldStore(t);
  const write = store.writeTogether((tx) => tx.events.append(event));
  await turns();
  held[0]!.release();
  const id = await write;
  const answers: unknown[] = [];
  void store.events.readAfter(0, 10).then((events) => answers.push(events.map((record) => record.id)));
  void store.events.newestId().then((newest) => answers.push(newest));
  await turns();
  assert.deepEqual(answers, [[id], id]);
  assert.equal(held.length, 1, 'only the commit\'s own sync');
});

test('a commit tells its listener its newest event id once on disk; told so by another process, a read needs no sync', async (t) => {
  const { store, held, path, onDisk } = openHeldStore(t);
  const write = store.writeTogether(async (tx) => {
    await tx.events.append(event);
    return tx.events.append(event);
  });
  await turns();
  assert.deepEqual(onDisk, [], 'nothing told before the sync');
  held[0]!.release();
  const newest = await write;
  assert.deepEqual(onDisk, [newest]);
  // Another process committed and synced, and says so through the primary (src/workers.ts): no sync here.
  const id = commitElsewhere(t, path);
  store.eventsOnDisk(id);
  let answered: number | undefined;
  void store.events.readAfter(newest, 10).then((events) => { answered = events.at(-1)?.id; });
  await turns();
  assert.deepEqual([answered, held.length], [id, 1]);
});
