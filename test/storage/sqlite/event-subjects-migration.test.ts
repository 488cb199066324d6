// Migration 010 on a log written before it: subjects filled in, and what earlier deletes remove is gone.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { loadMigrations, migrate } from '../../../src/storage/sqlite/database.ts';
import { insertEventsSql, KEPT_AFTER_UPGRADE } from '../deletes-before-upgrade.ts';

test('migration 010 removes what deletes made before it would have removed, and fills in subjects', () => {
  const db = new Database(':memory:');
  const migrations = loadMigrations();
  migrate(db, migrations.filter((migration) => migration.version < 10));
  db.exec(insertEventsSql());
  migrate(db, migrations);
  const rows = db.prepare('SELECT id, subject_id AS subjectId FROM events ORDER BY id').all() as { id: number; subjectId: string | null }[];
  assert.deepEqual(rows.map((row) => row.id), KEPT_AFTER_UPGRADE);
  assert.deepEqual(rows.map((row) => row.subjectId), [null, 'm2', 'm1', null, null, 'm4', null, null]);
  assert.ok(!JSON.stringify(db.prepare('SELECT data FROM events').all()).includes('before the upgrade'));
  db.close();
});
