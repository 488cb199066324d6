// A database made by the release before roles (test/fixtures/before-roles, made with it), opened by this one: it
// migrates in place, its oldest account becomes the admin and the start-up says so, and every GET answers as the
// old release did, but for the fields users gained since (role, active, presence; kind, ownerId) and the empty attachments of messages (§15). PostgreSQL's migration 005 is tested on
// data of its own in test/postgres/roles-migration.test.ts.
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { call, withServer } from './client.ts';

const FIXTURE = fileURLToPath(new URL('../fixtures/before-roles/', import.meta.url));
const PASSWORD = 'correct horse battery';

interface Answer { as: string; path: string; status: number; body: unknown }

/**
 * What later releases add: a user's role, active, presence, kind and ownerId, a chat's kind and mentionCount, a message's and a read marker's
 * mentions and mentionCount (docs/protocol.md §14), a message's attachments (none, in a database from before them:
 * §15); everything else must be as it was.
 */
function withoutNewUserFields(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNewUserFields);
  if (value === null || typeof value !== 'object') return value;
  const { role: _role, active: _active, kind: _kind, mentionCount: _mentionCount, mentions: _mentions, presence: _presence, ...rest } = value as Record<string, unknown>;
  if (Array.isArray(rest['attachments']) && rest['attachments'].length === 0) delete rest['attachments'];
  // A user's ownerId is new (bots, docs/protocol.md §16.2); a chat's ownerId is old.
  if ('login' in rest) delete rest['ownerId'];
  return Object.fromEntries(Object.entries(rest).map(([key, inner]) => [key, withoutNewUserFields(inner)]));
}

test('a database from before roles upgrades in place: the oldest account is the admin, every GET answers the same', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'chat-upgrade-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const db = join(dir, 'chat.db');
  copyFileSync(join(FIXTURE, 'chat.sqlite3'), db);
  const server = await withServer(t, { db, registration: 'invite' });
  assert.deepEqual(server.app.services.storage.notices, ['the database was upgraded to roles: its oldest account, alice, is now an admin and can invite people']);

  const tokens: Record<string, string> = {};
  for (const login of ['alice', 'bob', 'carol']) {
    const session = await call(server, 'POST', '/session', { json: { login, password: PASSWORD } });
    assert.equal(session.status, 201, login);
    tokens[login] = session.body.token;
  }
  const before = JSON.parse(readFileSync(join(FIXTURE, 'answers.json'), 'utf8')) as Answer[];
  assert.equal(before.length, 12);
  for (const answer of before) {
    const res = await call(server, 'GET', answer.path, { token: tokens[answer.as]! });
    assert.equal(res.status, answer.status, answer.path);
    assert.deepEqual(withoutNewUserFields(res.body), answer.body, answer.path);
  }
  const users = await call(server, 'GET', '/users', { token: tokens['bob']! });
  assert.deepEqual(users.body.data.map((user: { login: string; role: string; active: boolean }) => [user.login, user.role, user.active]),
    [['alice', 'admin', true], ['bob', 'member', true], ['carol', 'member', true]]);
  // The admin can act at once; nobody else can, and nothing else changed: sign-up is by invite now.
  assert.equal((await call(server, 'GET', '/audit', { token: tokens['alice']! })).status, 200);
  assert.equal((await call(server, 'GET', '/audit', { token: tokens['bob']! })).status, 403);
  assert.equal((await call(server, 'POST', '/users', { json: { login: 'dave', password: PASSWORD } })).status, 403);
});
