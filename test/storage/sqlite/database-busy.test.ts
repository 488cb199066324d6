// SQLite errors that are nobody's bug (docs/operations.md, "When the database refuses writes"): the file locked by
// another process past busy_timeout answers 503 ERR_DATABASE_UNAVAILABLE; an I/O error of a write is a refused write;
// neither is a 500, and the hub's timed work never ends the process over one.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { call, registerAndLogIn, withServer } from '../../http/client.ts';
import { createChat } from '../../http/chat-fixtures.ts';
import { toStoreError } from '../../../src/storage/sqlite/database.ts';
import { StoreUnavailableError, StoreWriteRefusedError } from '../../../src/storage/store.ts';

/** An error as better-sqlite3 throws it: its `code` is SQLite's extended result code. */
function sqliteError(code: string): Error {
  return Object.assign(new Error(`${code} from SQLite`), { code });
}

const rows: { code: string; expected: 'unavailable' | 'read-only' | 'full' | 'as is' }[] = [
  { code: 'SQLITE_BUSY', expected: 'unavailable' },
  { code: 'SQLITE_BUSY_SNAPSHOT', expected: 'unavailable' },
  { code: 'SQLITE_LOCKED', expected: 'unavailable' },
  { code: 'SQLITE_NOMEM', expected: 'unavailable' },
  { code: 'SQLITE_IOERR_READ', expected: 'unavailable' },
  { code: 'SQLITE_IOERR_SHORT_READ', expected: 'unavailable' },
  { code: 'SQLITE_IOERR_WRITE', expected: 'read-only' },
  { code: 'SQLITE_IOERR_FSYNC', expected: 'read-only' },
  { code: 'SQLITE_IOERR', expected: 'read-only' },
  { code: 'SQLITE_READONLY_DBMOVED', expected: 'read-only' },
  { code: 'SQLITE_FULL', expected: 'full' },
  { code: 'SQLITE_ERROR', expected: 'as is' },
  { code: 'SQLITE_BUSYNESS', expected: 'as is' },
];

for (const { code, expected } of rows) test(`toStoreError: ${code} is ${expected}`, () => {
  const error = sqliteError(code);
  const mapped = toStoreError(error);
  if (expected === 'unavailable') assert.ok(mapped instanceof StoreUnavailableError);
  else if (expected === 'as is') assert.equal(mapped, error);
  else {
    assert.ok(mapped instanceof StoreWriteRefusedError);
    assert.equal(mapped.reason, expected);
  }
});

test('a database another process holds locked past busy_timeout: a write answers 503 ERR_DATABASE_UNAVAILABLE with Retry-After, then works again', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'chat-busy-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'chat.db');
  const server = await withServer(t, { db: path });
  const alice = await registerAndLogIn(server);
  const chat = await createChat(server, alice, { title: 'Locked' });
  // An operator's sqlite3 shell in the middle of a write transaction.
  const shell = new Database(path);
  t.after(() => shell.close());
  shell.exec('BEGIN IMMEDIATE');
  const post = () => call(server, 'POST', `/chats/${chat.id}/messages`, { token: alice.token, json: { data: { text: 'hello' } } });
  const refused = await post();
  assert.equal(refused.status, 503, refused.text);
  assert.equal(refused.headers['retry-after'], '2');
  assert.equal(refused.body.code, 'ERR_DATABASE_UNAVAILABLE');
  shell.exec('ROLLBACK');
  assert.equal((await post()).status, 201);
  assert.equal((await call(server, 'GET', '/health')).status, 200);
});
