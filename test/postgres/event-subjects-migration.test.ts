// PostgreSQL migration 004 on a log written before it: subjects filled in, and what earlier deletes remove is gone.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import pg from 'pg';
import { loadPostgresMigrations, migratePostgres } from '../../src/storage/postgres/migrate.ts';
import { insertEventsSql, KEPT_AFTER_UPGRADE } from '../storage/deletes-before-upgrade.ts';
import { ensureTestCluster, urlWithDatabase } from './test-database.ts';

test('migration 004 removes what deletes made before it would have removed, and fills in subjects', async (t) => {
  const cluster = await ensureTestCluster();
  const name = `chat_upgrade_${process.pid}`;
  const admin = new pg.Client({ connectionString: cluster });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  t.after(async () => {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  });
  const client = new pg.Client({ connectionString: urlWithDatabase(cluster, name) });
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
