// Group commit: concurrent writes share one transaction, each isolated in a savepoint, acknowledged only after COMMIT.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import Database from 'better-sqlite3';
import { GroupCommit } from '../../src/storage/group-commit.ts';
import { Storage } from '../../src/storage/storage.ts';

interface Fixture {
  db: Database.Database;
  /** A second connection to the same file: it sees only what was committed. */
  reader: Database.Database;
  /** Every statement given to db.exec, in order (BEGIN, SAVEPOINT, COMMIT, ...). */
  log: string[];
  insert(text: string): void;
  committedTexts(): string[];
}

function openFixture(t: TestContext): Fixture {
  const dir = mkdtempSync(join(tmpdir(), 'group-commit-'));
  const path = join(dir, 'test.db');
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL UNIQUE)');
  const reader = new Database(path, { readonly: true });
  t.after(() => {
    reader.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const log: string[] = [];
  const exec = db.exec.bind(db);
  db.exec = (sql: string) => {
    log.push(sql);
    return exec(sql);
  };
  const insert = db.prepare('INSERT INTO notes (text) VALUES (?)');
  const select = reader.prepare('SELECT text FROM notes ORDER BY id').pluck();
  return { db, reader, log, insert: (text) => void insert.run(text), committedTexts: () => select.all() as string[] };
}

const count = (log: string[], statement: string): number => log.filter((sql) => sql === statement).length;

test('writes queued in one event-loop turn are committed in one transaction', async (t) => {
  const { db, log, insert, committedTexts } = openFixture(t);
  const group = new GroupCommit(db);
  const results = await Promise.all(['a', 'b', 'c', 'd'].map((text) => group.run(() => {
    insert(text);
    return text.toUpperCase();
  })));
  assert.deepEqual(results, ['A', 'B', 'C', 'D']);
  assert.equal(count(log, 'BEGIN IMMEDIATE'), 1);
  assert.equal(count(log, 'COMMIT'), 1);
  assert.equal(count(log, 'SAVEPOINT group_write'), 4);
  assert.deepEqual(committedTexts(), ['a', 'b', 'c', 'd']);
});

test('a write queued after a flush goes into the next transaction', async (t) => {
  const { db, log, insert, committedTexts } = openFixture(t);
  const group = new GroupCommit(db);
  await group.run(() => insert('first'));
  await group.run(() => insert('second'));
  assert.equal(count(log, 'COMMIT'), 2);
  assert.deepEqual(committedTexts(), ['first', 'second']);
  assert.equal(group.pending, 0);
});

test('every promise settles only after the shared COMMIT returned, in the order the writes were queued', async (t) => {
  const { db, log, insert, committedTexts } = openFixture(t);
  const group = new GroupCommit(db);
  const settled: string[] = [];
  const writes = ['x', 'y', 'z'].map((text) => group.run(() => {
    insert(text);
    return text;
  }).then((value) => {
    // At resolution the COMMIT is in the log and another connection already sees every row of the batch.
    assert.equal(log.at(-1), 'COMMIT');
    assert.deepEqual(committedTexts(), ['x', 'y', 'z']);
    settled.push(value);
  }));
  assert.equal(group.pending, 3);
  assert.deepEqual(committedTexts(), [], 'nothing is visible before the flush');
  await Promise.all(writes);
  assert.deepEqual(settled, ['x', 'y', 'z']);
});

test('a failing write rolls back only its own changes; the others commit and resolve', async (t) => {
  const { db, insert, committedTexts } = openFixture(t);
  const group = new GroupCommit(db);
  const before = group.run(() => insert('kept-1'));
  const failing = group.run(() => {
    insert('half-done');
    throw new Error('boom');
  });
  const duplicate = group.run(() => insert('kept-1'));
  const after = group.run(() => {
    insert('kept-2');
    return 42;
  });
  await assert.rejects(failing, /boom/);
  await assert.rejects(duplicate, { code: 'SQLITE_CONSTRAINT_UNIQUE' });
  await before;
  assert.equal(await after, 42);
  assert.deepEqual(committedTexts(), ['kept-1', 'kept-2']);
});

test('work that returns a promise is refused and rolled back: it would run outside the transaction', async (t) => {
  const { db, insert, committedTexts } = openFixture(t);
  const group = new GroupCommit(db);
  const asyncWork = group.run(() => {
    insert('never');
    return Promise.resolve(1);
  });
  const plain = group.run(() => insert('plain'));
  await assert.rejects(asyncWork, TypeError);
  await plain;
  assert.deepEqual(committedTexts(), ['plain']);
});

test('a batch that reaches maxBatch is committed without waiting, and large queues are split', async (t) => {
  const { db, log, insert, committedTexts } = openFixture(t);
  const group = new GroupCommit(db, { maxBatch: 3 });
  const full = ['a', 'b', 'c'].map((text) => group.run(() => insert(text)));
  // The flush of a full batch is a microtask: it has run before the awaiting code resumes, no setImmediate needed.
  await null;
  assert.equal(count(log, 'COMMIT'), 1);
  await Promise.all(full);
  log.length = 0;
  const texts = ['1', '2', '3', '4', '5', '6', '7'];
  await Promise.all(texts.map((text) => group.run(() => insert(text))));
  assert.equal(count(log, 'COMMIT'), 3, 'batches of 3, 3 and 1');
  assert.deepEqual(committedTexts(), ['a', 'b', 'c', ...texts]);
});

test('when COMMIT itself fails, every write of the batch is rejected and nothing is kept', async (t) => {
  const { db, committedTexts } = openFixture(t);
  db.pragma('foreign_keys = ON');
  db.exec('CREATE TABLE parents (id INTEGER PRIMARY KEY)');
  db.exec('CREATE TABLE children (id INTEGER PRIMARY KEY, parent INTEGER REFERENCES parents(id) DEFERRABLE INITIALLY DEFERRED)');
  const group = new GroupCommit(db);
  const insertNote = db.prepare('INSERT INTO notes (text) VALUES (?)');
  const good = group.run(() => insertNote.run('innocent'));
  // A deferred foreign key is checked at COMMIT, so the whole batch fails there.
  const orphan = group.run(() => db.prepare('INSERT INTO children (parent) VALUES (999)').run());
  await assert.rejects(good, { code: 'SQLITE_CONSTRAINT_FOREIGNKEY' });
  await assert.rejects(orphan, { code: 'SQLITE_CONSTRAINT_FOREIGNKEY' });
  assert.equal(db.inTransaction, false);
  assert.deepEqual(committedTexts(), []);
  await group.run(() => insertNote.run('later'));
  assert.deepEqual(committedTexts(), ['later']);
});

test('Storage.writeTogether commits through the group, and close() flushes what is still queued', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'group-commit-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'chat.db');
  const storage = new Storage(path, { synchronous: 'NORMAL' });
  assert.equal(storage.db.pragma('synchronous', { simple: true }), 1);
  const mark = storage.db.prepare('CREATE TABLE IF NOT EXISTS marks (n INTEGER)');
  mark.run();
  const add = storage.db.prepare('INSERT INTO marks (n) VALUES (?)');
  assert.equal(await storage.writeTogether(() => add.run(1).changes), 1);
  const queued = storage.writeTogether(() => add.run(2).changes);
  storage.close();
  assert.equal(await queued, 1);
  storage.close();
  const reopened = new Database(path, { readonly: true });
  t.after(() => reopened.close());
  assert.deepEqual(reopened.prepare('SELECT n FROM marks ORDER BY n').pluck().all(), [1, 2]);
});

test('with groupCommit: false every write commits alone, before its promise is even returned', async (t) => {
  const { db, log, insert, committedTexts } = openFixture(t);
  const group = new GroupCommit(db, { groupCommit: false });
  const first = group.run(() => insert('one'));
  assert.deepEqual(committedTexts(), ['one']);
  const second = group.run(() => insert('two'));
  await Promise.all([first, second]);
  assert.equal(count(log, 'COMMIT'), 2);
  assert.deepEqual(committedTexts(), ['one', 'two']);
});
