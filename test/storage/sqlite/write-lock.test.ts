// BEGIN IMMEDIATE while another process holds the write lock (src/storage/sqlite/write-lock.ts): the event loop keeps
// running while it waits, and it opens the transaction as soon as the lock is free.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { openDatabase } from '../../../src/storage/sqlite/database.ts';
import { WriteLock } from '../../../src/storage/sqlite/write-lock.ts';

test('while another connection holds the write lock, the loop runs; the transaction opens once the lock is let go', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'write-lock-'));
  const path = join(dir, 'chat.db');
  const db = openDatabase(path);
  const other = new Database(path);
  t.after(() => {
    other.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  other.exec('BEGIN IMMEDIATE');
  let timersFired = 0;
  const ticker = setInterval(() => timersFired++, 5);
  const released = new Promise<void>((resolve) => setTimeout(() => {
    other.exec('COMMIT');
    resolve();
  }, 80));
  const started = performance.now();
  await new WriteLock(db).beginImmediate();
  const waited = performance.now() - started;
  clearInterval(ticker);
  await released;
  assert.ok(db.inTransaction, 'the transaction is open');
  assert.ok(waited >= 70, `it waited for the lock (${waited.toFixed(0)} ms)`);
  assert.ok(timersFired >= 5, `the event loop ran meanwhile (${timersFired} timers of 5 ms)`);
  db.exec('ROLLBACK');
  assert.equal(db.pragma('busy_timeout', { simple: true }), 5000, 'busy_timeout is back for every other statement');
});
