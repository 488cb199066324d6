// PostgreSQL migration 004 on a log written before it: subjects filled in, and what earlier deletes remove is gone.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import pg from 'pg';
import { loadPostgresMigrations, migratePostgres } from '../../src/storage/postgres/migrate.ts';
import { insertEventsSql, KEPT_AFTER_UPGRADE } from '../storage/deletes-before-upgrade.ts';
import { createEmptyDatabase } from './test-database.ts';

test('migration 004 removes what deletes made before it would have removed, and fills in subjects', async (t) => {
  const client = new pg.Client({ connectionString: await createEmptyDatabase(t, `chat_upgrade_${process.pid}`) });
  await client.connect();
  try {
    const migrations = loadPostgresMigrations();
    await migratePostgres(client, migrations.filter((migration) => migration.version < 4));
    await client.query(insertEventsSql());
    await migratePostgres(client, migrations);
    const { rows } = await client.query<{ id: string; subject_id: string | null }>('SELECT id, subject_id FROM events ORDER BY id');
    assert.deepEqual(rows.map((row) => Number(row.id)), KEPT_AFTER_UPGRADE);
    assert.deepEqual(rows.map((row) => row.subject_id), [null, 'm2', 'm1', null, null, 'm4', null, null]);
  } finally {
    await client.end();
  }
});
