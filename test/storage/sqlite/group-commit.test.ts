// Group commit: concurrent writes share one transaction, each isolated in a savepoint, acknowledged only after COMMIT.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import Database from 'better-sqlite3';
import { Gate } from '../../../src/storage/sqlite/gate.ts';
import { GroupCommit, type GroupCommitOptions } from '../../../src/storage/sqlite/group-commit.ts';
import { SqliteStore } from '../../../src/storage/sqlite/sqlite-store.ts';

interface Fixture {
  db: Database.Database;
  /** A second connection to the same file: it sees only what was committed. */
  reader: Database.Database;
  /** Every statement run on db, in order (BEGIN, SAVEPOINT, COMMIT, ...). */
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
  // The group prepares its BEGIN, SAVEPOINT, COMMIT...: each run of a prepared statement is logged too.
  const prepare = db.prepare.bind(db);
  db.prepare = ((sql: string) => {
    const statement = prepare(sql);
    const run = statement.run.bind(statement);
    statement.run = ((...params: unknown[]) => {
      log.push(sql);
      return run(...params);
    }) as typeof statement.run;
    return statement;
  }) as typeof db.prepare;
  const insert = db.prepare('INSERT INTO notes (text) VALUES (?)');
  const select = reader.prepare('SELECT text FROM notes ORDER BY id').pluck();
  return { db, reader, log, insert: (text) => void insert.run(text), committedTexts: () => select.all() as string[] };
}

const count = (log: string[], statement: string): number => log.filter((sql) => sql === statement).length;

function groupOn(db: Database.Database, options: GroupCommitOptions = {}): GroupCommit {
  return new GroupCommit(db, new Gate(), options);
}

test('writes queued in one event-loop turn are committed in one transaction', async (t) => {
  const { db, log, insert, committedTexts } = openFixture(t);
  const group = groupOn(db);
  const results = await Promise.all(['a', 'b', 'c', 'd'].map((text) => group.run(async () => {
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
  const group = groupOn(db);
  await group.run(async () => insert('first'));
  await group.run(async () => insert('second'));
  assert.equal(count(log, 'COMMIT'), 2);
  assert.deepEqual(committedTexts(), ['first', 'second']);
  assert.equal(group.pending, 0);
});

test('every promise settles only after the shared COMMIT returned, in the order the writes were queued', async (t) => {
  const { db, log, insert, committedTexts } = openFixture(t);
  const group = groupOn(db);
  const settled: string[] = [];
  const writes = ['x', 'y', 'z'].map((text) => group.run(async () => {
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
  const group = groupOn(db);
  const before = group.run(async () => insert('kept-1'));
  const failing = group.run(async () => {
    insert('half-done');
    throw new Error('boom');
  });
  const duplicate = group.run(async () => insert('kept-1'));
  const after = group.run(async () => {
    insert('kept-2');
    return 42;
  });
  await assert.rejects(failing, /boom/);
  await assert.rejects(duplicate, { code: 'SQLITE_CONSTRAINT_UNIQUE' });
  await before;
  assert.equal(await after, 42);
  assert.deepEqual(committedTexts(), ['kept-1', 'kept-2']);
});

test('while a batch is open, another call through the gate waits for its COMMIT and never sees its writes', async (t) => {
  const { db, insert, committedTexts } = openFixture(t);
  const gate = new Gate();
  const group = new GroupCommit(db, gate);
  const read = db.prepare('SELECT text FROM notes ORDER BY id').pluck();
  let seen: unknown[] | undefined;
  let reading: Promise<void> | undefined;
  const write = group.run(async () => {
    insert('inside');
    // The batch's transaction stays open across a turn of the loop: a plain read arrives meanwhile.
    await new Promise<void>((resolve) => setImmediate(resolve));
    reading = gate.call(() => read.all()).then((rows) => { seen = rows; });
    await new Promise<void>((resolve) => setImmediate(resolve));
    assert.equal(seen, undefined, 'the read waits while the transaction is open');
  });
  await write;
  await reading;
  assert.deepEqual(seen, ['inside'], 'it runs after the COMMIT, on committed data');
  assert.deepEqual(committedTexts(), ['inside']);
});

test('a batch that reaches maxBatch is committed without waiting, and large queues are split', async (t) => {
  const { db, log, insert, committedTexts } = openFixture(t);
  const group = groupOn(db, { maxBatch: 3 });
  let turnEnded = false;
  setImmediate(() => { turnEnded = true; });
  const full = ['a', 'b', 'c'].map((text) => group.run(async () => insert(text)));
  // The flush of a full batch is a microtask: it commits before the turn of the loop ends, no setImmediate needed.
  await Promise.all(full);
  assert.equal(turnEnded, false);
  assert.equal(count(log, 'COMMIT'), 1);
  log.length = 0;
  const texts = ['1', '2', '3', '4', '5', '6', '7'];
  await Promise.all(texts.map((text) => group.run(async () => insert(text))));
  assert.equal(count(log, 'COMMIT'), 3, 'batches of 3, 3 and 1');
  assert.deepEqual(committedTexts(), ['a', 'b', 'c', ...texts]);
});

test('when COMMIT itself fails, every write of the batch is rejected and nothing is kept', async (t) => {
  const { db, committedTexts } = openFixture(t);
  db.pragma('foreign_keys = ON');
  db.exec('CREATE TABLE parents (id INTEGER PRIMARY KEY)');
  db.exec('CREATE TABLE children (id INTEGER PRIMARY KEY, parent INTEGER REFERENCES parents(id) DEFERRABLE INITIALLY DEFERRED)');
  const group = groupOn(db);
  const insertNote = db.prepare('INSERT INTO notes (text) VALUES (?)');
  const good = group.run(async () => insertNote.run('innocent'));
  // A deferred foreign key is checked at COMMIT, so the whole batch fails there.
  const orphan = group.run(async () => db.prepare('INSERT INTO children (parent) VALUES (999)').run());
  await assert.rejects(good, { code: 'SQLITE_CONSTRAINT_FOREIGNKEY' });
  await assert.rejects(orphan, { code: 'SQLITE_CONSTRAINT_FOREIGNKEY' });
  assert.equal(db.inTransaction, false);
  assert.deepEqual(committedTexts(), []);
  await group.run(async () => insertNote.run('later'));
  assert.deepEqual(committedTexts(), ['later']);
});

test('SqliteStore.writeTogether commits through the group, and close() flushes what is still queued', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'group-commit-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'chat.db');
  const storage = new SqliteStore(path, { synchronous: 'NORMAL' });
  assert.equal(storage.db.pragma('synchronous', { simple: true }), 1);
  const mark = storage.db.prepare('CREATE TABLE IF NOT EXISTS marks (n INTEGER)');
  mark.run();
  const add = storage.db.prepare('INSERT INTO marks (n) VALUES (?)');
  assert.equal(await storage.writeTogether(async () => add.run(1).changes), 1);
  const queued = storage.writeTogether(async () => add.run(2).changes);
  const closing = storage.close();
  assert.equal(await queued, 1);
  await closing;
  await storage.close();
  const reopened = new Database(path, { readonly: true });
  t.after(() => reopened.close());
  assert.deepEqual(reopened.prepare('SELECT n FROM marks ORDER BY n').pluck().all(), [1, 2]);
});

test('with groupCommit: false every write commits alone, at once', async (t) => {
  const { db, log, insert, committedTexts } = openFixture(t);
  const group = groupOn(db, { groupCommit: false });
  let turnEnded = false;
  setImmediate(() => { turnEnded = true; });
  const first = group.run(async () => insert('one'));
  await first;
  assert.equal(turnEnded, false, 'no wait for the end of the turn');
  assert.deepEqual(committedTexts(), ['one']);
  const second = group.run(async () => insert('two'));
  await Promise.all([first, second]);
  assert.equal(count(log, 'COMMIT'), 2);
  assert.deepEqual(committedTexts(), ['one', 'two']);
});

test('when a transaction ends, every call waiting runs before the next transaction begins, whenever it arrived', async () => {
  const gate = new Gate();
  const order: string[] = [];
  let endFirst!: () => void;
  const first = gate.hold(() => new Promise<void>((resolve) => { endFirst = resolve; order.push('first begins'); }));
  const early = gate.call(() => order.push('call before the second transaction'));
  const second = gate.hold(async () => { order.push('second begins'); });
  const late = gate.call(() => order.push('call after the second transaction asked'));
  await new Promise<void>((resolve) => setImmediate(resolve));
  assert.deepEqual(order, ['first begins'], 'nothing runs while the first holds the connection');
  endFirst();
  await Promise.all([first, early, second, late]);
  assert.deepEqual(order, ['first begins', 'call before the second transaction', 'call after the second transaction asked', 'second begins']);
});
