// Opening the database: pragmas for durability, migrations in order, recorded, atomic.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadMigrations, migrate, openDatabase } from '../../../src/storage/sqlite/database.ts';

test('a file database runs in WAL mode with synchronous=FULL, foreign keys and a busy timeout', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'chat-db-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const db = openDatabase(join(dir, 'nested', 'chat.db'));
  t.after(() => db.close());
  assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
  assert.equal(db.pragma('synchronous', { simple: true }), 2);
  assert.equal(db.pragma('foreign_keys', { simple: true }), 1);
  assert.equal(db.pragma('busy_timeout', { simple: true }), 5000);
});

test('migrations apply in order once and are recorded in a version table', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'chat-db-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'chat.db');
  const migrations = loadMigrations();
  assert.deepEqual(migrations.map((m) => m.version), migrations.map((_, i) => i + 1));
  openDatabase(path).close();
  const db = openDatabase(path);
  t.after(() => db.close());
  const recorded = db.prepare('SELECT version, name FROM schema_migrations ORDER BY version').all();
  assert.deepEqual(recorded, migrations.map((m) => ({ version: m.version, name: m.name })));
  assert.deepEqual(migrate(db, migrations), []);
});

test('a failing migration leaves nothing applied', (t) => {
  const db = openDatabase(':memory:', []);
  t.after(() => db.close());
  const broken = [
    { version: 1, name: '001-ok.sql', sql: 'CREATE TABLE a (x INTEGER);' },
    { version: 2, name: '002-broken.sql', sql: 'CREATE TABLE b (x INTEGER); THIS IS NOT SQL;' },
  ];
  assert.throws(() => migrate(db, broken), /syntax error/);
  assert.equal((db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name IN ('a', 'b')").get() as { n: number }).n, 0);
  assert.equal((db.prepare('SELECT count(*) AS n FROM schema_migrations').get() as { n: number }).n, 0);
});
