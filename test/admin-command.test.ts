// `chat-server admin promote|demote <login>`: a role changed on the database file directly, for recovery; the last
// active admin stays; bad arguments and unknown logins exit 2 with one line. Also the registration options.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { DEFAULT_CONFIG, parseConfig } from '../src/config.ts';
import { SqliteStore } from '../src/storage/sqlite/sqlite-store.ts';
import { parseQuery } from '../src/parsers/query.ts';
import { AUDIT_FIELDS } from '../src/resources/audit/handlers.ts';
import { registerAndLogIn, withServer } from './http/client.ts';
import { runCommand } from './run-command.ts';

const runAdmin = (args: string[]) => runCommand(['admin', ...args]);

test('sign-up is by invite unless said otherwise, and members may invite', () => {
  assert.equal(DEFAULT_CONFIG.registration, 'invite');
  assert.equal(DEFAULT_CONFIG.membersInvite, true);
  assert.equal(parseConfig(['--registration', 'closed']).registration, 'closed');
  assert.equal(parseConfig([], { REGISTRATION: 'open' }).registration, 'open');
  assert.equal(parseConfig(['--members-invite=false']).membersInvite, false);
  assert.throws(() => parseConfig(['--registration', 'anyone']), /--registration: expected open, invite or closed, got "anyone"/);
});

test('chat-server admin promotes and demotes on the file; the last admin stays; mistakes exit 2', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'chat-admin-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const db = join(dir, 'chat.db');
  const server = await withServer(t, { db });
  await registerAndLogIn(server, 'alice');
  await registerAndLogIn(server, 'bob');
  await server.close();

  assert.deepEqual(await runAdmin(['promote', 'BOB', '--db', db]), { code: 0, stdout: 'chat-server admin: BOB is an admin\n', stderr: '' });
  assert.deepEqual(await runAdmin(['demote', 'alice', '--db', db]), { code: 0, stdout: 'chat-server admin: alice is a member\n', stderr: '' });
  const last = await runAdmin(['demote', 'bob', '--db', db]);
  assert.deepEqual(last, { code: 2, stdout: '', stderr: 'chat-server admin: bob is the last active admin: promote another user first\n' });
  const unknown = await runAdmin(['promote', 'zoe', '--db', db]);
  assert.deepEqual(unknown, { code: 2, stdout: '', stderr: 'chat-server admin: no user has the login "zoe"\n' });
  const usage = await runAdmin(['crown', 'bob', '--db', db]);
  assert.equal(usage.code, 2);
  assert.equal(usage.stderr, 'chat-server admin: usage: chat-server admin promote|demote <login> [--db <path or postgres:// URL>]\n');

  const store = new SqliteStore(db);
  try {
    assert.equal((await store.users.findUserByLogin('alice'))?.role, 'member');
    assert.equal((await store.users.findUserByLogin('bob'))?.role, 'admin');
    const audit = await store.collections.listAudit(parseQuery('', AUDIT_FIELDS));
    assert.deepEqual(audit.rows.map((entry) => [entry.action, entry.actorId, entry.detail]), [
      ['user.promote', null, { role: 'admin', by: 'chat-server admin' }],
      ['user.demote', null, { role: 'member', by: 'chat-server admin' }],
    ]);
  } finally {
    await store.close();
  }
});
