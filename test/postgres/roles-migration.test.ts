// PostgreSQL migration 005 on a database made before it: the oldest account becomes the admin, the others members,
// and the store's start-up notice names the admin.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import pg from 'pg';
import { loadPostgresMigrations, migratePostgres } from '../../src/storage/postgres/migrate.ts';
import { PostgresStore } from '../../src/storage/postgres/postgres-store.ts';
import { createEmptyDatabase } from './test-database.ts';

test('migration 005 makes the oldest account the admin, and the store says so once', async (t) => {
  const url = await createEmptyDatabase(t, `chat_roles_upgrade_${process.pid}`);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await migratePostgres(client, loadPostgresMigrations().filter((migration) => migration.version < 5));
    // bob signed up first; carol in the same millisecond as dave, with the smaller id.
    await client.query(`INSERT INTO users (id, login, password_hash, created_at, updated_at) VALUES
      ('02B', 'bob', 'x', 1000, 1000), ('03C', 'carol', 'x', 2000, 2000), ('04D', 'dave', 'x', 2000, 2000), ('01A', 'alice', 'x', 3000, 3000)`);
  } finally {
    await client.end();
  }
  const store = await PostgresStore.open(url, { listen: false });
  try {
    assert.deepEqual(store.notices, ['the database was upgraded to roles: its oldest account, bob, is now an admin and can invite people']);
    assert.equal(await store.users.countActiveAdmins(), 1);
    assert.equal((await store.users.findUserByLogin('bob'))?.role, 'admin');
    assert.equal((await store.users.findUserByLogin('alice'))?.role, 'member');
    assert.deepEqual(await store.audit.appendAudit({ id: 'A1', at: 1, actorId: null, action: 'user.promote', targetType: 'user', targetId: '02B', detail: null }), undefined);
  } finally {
    await store.close();
  }
  const again = await PostgresStore.open(url, { listen: false });
  assert.deepEqual(again.notices, []);
  await again.close();
});
