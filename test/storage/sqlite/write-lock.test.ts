// BEGIN IMMEDIATE while another process holds the write lock (src/storage/sqlite/write-lock.ts): the event loop keeps
// running while it waits, the connection is let go between tries (every read runs), and the transaction opens as soon
// as the lock is free.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import Database from 'better-sqlite3';
import { openDatabase } from '../../../src/storage/sqlite/database.ts';
import { SqliteStore } from '../../../src/storage/sqlite/sqlite-store.ts';
import { LockBusy, WriteLock } from '../../../src/storage/sqlite/write-lock.ts';
import type { NewUserRow } from '../../../src/storage/rows.ts';

function tempPath(t: TestContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'write-lock-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, 'chat.db');
}

/** Another process's write transaction on the same file, let go after `ms`. */
function heldElsewhere(t: TestContext, path: string, ms: number): Promise<number> {
  const other = new Database(path);
  t.after(() => other.close());
  other.exec('BEGIN IMMEDIATE');
  return new Promise((resolve) => setTimeout(() => {
    other.exec('COMMIT');
    resolve(performance.now());
  }, ms));
}

const user = (id: string, login: string): NewUserRow => ({
  id, login, passwordHash: 'x', avatarId: null, role: 'member', deactivatedAt: null, lastSeenAt: null, createdAt: 1, updatedAt: 1,
});

test('while another connection holds the write lock, the loop runs; the transaction opens once the lock is let go', async (t) => {
  const path = tempPath(t);
  const db = openDatabase(path);
  t.after(() => db.close());
  const released = heldElsewhere(t, path, 80);
  let timersFired = 0;
  const ticker = setInterval(() => timersFired++, 5);
  let tries = 0;
  const started = performance.now();
  await new WriteLock(db).whenFree(async (begin) => {
    tries++;
    begin();
  });
  const waited = performance.now() - started;
  clearInterval(ticker);
  await released;
  assert.ok(db.inTransaction, 'the transaction is open');
  assert.ok(waited >= 70, `it waited for the lock (${waited.toFixed(0)} ms)`);
  assert.ok(tries > 1, `it tried again (${tries} tries)`);
  assert.ok(timersFired >= 5, `the event loop ran meanwhile (${timersFired} timers of 5 ms)`);
  db.exec('ROLLBACK');
  assert.equal(db.pragma('busy_timeout', { simple: true }), 5000, 'busy_timeout is back for every other statement');
});

test('a try that finds the lock held elsewhere hears LockBusy, and nothing is begun', async (t) => {
  const path = tempPath(t);
  const db = openDatabase(path);
  t.after(() => db.close());
  const released = heldElsewhere(t, path, 30);
  let first: unknown;
  await new WriteLock(db).whenFree(async (begin) => {
    try {
      begin();
    } catch (error) {
      first ??= error;
      assert.equal(db.inTransaction, false);
      throw error;
    }
  });
  await released;
  assert.ok(first instanceof LockBusy);
  assert.equal(((first as LockBusy).cause as { code?: string }).code, 'SQLITE_BUSY');
  db.exec('ROLLBACK');
});

test('a store\'s reads run while its writes wait for another process\'s lock, and the writes commit once it is let go', async (t) => {
  const path = tempPath(t);
  const store = new SqliteStore(path);
  t.after(() => store.close());
  await store.users.insertUser(user('u1', 'ann'));
  const other = new Database(path);
  t.after(() => other.close());
  other.exec('BEGIN IMMEDIATE');
  const together = store.writeTogether(async (tx) => tx.users.insertUser(user('u2', 'bob')));
  const alone = store.transaction(async (tx) => tx.users.insertUser(user('u3', 'cy')));
  // A turn: the group commit's first try has run too (both found the lock held).
  await new Promise((resolve) => setImmediate(resolve));
  let answered = false;
  const reading = store.users.findUserByLogin('ann').then((found) => {
    answered = true;
    return found;
  });
  // The other process lets go once the read was answered, or after 2 s without it (the read waited for its lock).
  await Promise.race([reading, new Promise((resolve) => setTimeout(resolve, 2000))]);
  const answeredWhileHeld = answered;
  other.exec('COMMIT');
  assert.ok(answeredWhileHeld, 'the read was answered while the other process held the lock');
  assert.equal((await reading)?.id, 'u1');
  await Promise.all([together, alone]);
  assert.equal((await store.users.findUserByLogin('bob'))?.id, 'u2');
  assert.equal((await store.users.findUserByLogin('cy'))?.id, 'u3');
});
