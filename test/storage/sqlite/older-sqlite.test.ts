// The database file stays readable and writable by SQLite 3.37 and newer (docs/storage.md): Debian 12's own sqlite3
// (3.40) checks and reads a file the server wrote, and its writes fire the schema's triggers as the server's do.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { avatarForm, multipart, MULTIPART_TYPE, png } from '../../http/avatar-fixtures.ts';
import { createChat, postMessage } from '../../http/chat-fixtures.ts';
import { call, registerAndLogIn, startTestServer } from '../../http/client.ts';

const SQLITE3 = '/usr/bin/sqlite3';

/** Debian's own sqlite3, installed when missing as the Makefile installs Chromium: this test runs everywhere. */
function debianSqlite(): string {
  if (!existsSync(SQLITE3)) {
    const sudo = process.getuid?.() === 0 ? [] : ['sudo'];
    const run = (args: string[]): void => void execFileSync(sudo[0] ?? args[0]!, sudo.length > 0 ? args : args.slice(1), { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    run(['apt-get', 'update', '-qq']);
    run(['apt-get', 'install', '-y', '-qq', '--no-install-recommends', 'sqlite3']);
  }
  return SQLITE3;
}

/** Runs SQL through the CLI; rows as JSON objects (.mode json: an empty answer is no rows). A failure throws with the CLI's words. */
function cli(db: string, sql: string): Record<string, unknown>[] {
  const out = execFileSync(debianSqlite(), ['-bail', '-json', db, sql], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  return out === '' ? [] : JSON.parse(out.replaceAll(/\]\s*\[/g, ',')) as Record<string, unknown>[];
}

test('Debian\'s sqlite3 checks, reads and writes a database after a full workout of the API, its triggers doing what the server\'s do', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'chat-older-sqlite-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const db = join(dir, 'chat.db');
  const server = await startTestServer({ db });
  let chatId: string;
  let ids: { alice: string; bob: string; carol: string };
  try {
    const [alice, bob, carol] = [await registerAndLogIn(server), await registerAndLogIn(server), await registerAndLogIn(server)];
    ids = { alice: alice.userId, bob: bob.userId, carol: carol.userId };
    const avatar = await call(server, 'POST', `/users/${alice.userId}/avatar`, { token: alice.token, body: multipart(avatarForm(png(2, 2), { x: 0, y: 0, width: 1, height: 1 })), headers: { 'content-type': MULTIPART_TYPE } });
    assert.equal(avatar.status, 201, avatar.text);
    const chat = await createChat(server, alice, { title: 'Old tools' });
    chatId = chat.id;
    for (const member of [bob, carol]) assert.equal((await call(server, 'PUT', `/chats/${chat.id}/members/${member.userId}`, { token: alice.token })).status, 204);
    const first = await postMessage(server, alice, chat.id, { text: 'first words' });
    const second = await postMessage(server, bob, chat.id, { text: 'a reply', replyTo: first.id });
    const third = await postMessage(server, carol, chat.id, { text: 'soon gone' });
    assert.equal((await call(server, 'PATCH', `/chats/${chat.id}/messages/${first.id}`, { token: alice.token, json: { data: { text: 'first words, edited' } } })).status, 200);
    for (const [user, emoji] of [[bob, '👍'], [carol, '🎉'], [alice, '👍'], [carol, '👀']] as const) {
      assert.equal((await call(server, 'PUT', `/messages/${first.id}/reactions/${encodeURIComponent(emoji)}`, { token: user.token })).status, 201);
    }
    assert.equal((await call(server, 'DELETE', `/messages/${first.id}/reactions/${encodeURIComponent('👀')}`, { token: carol.token })).status, 204);
    assert.equal((await call(server, 'PUT', `/chats/${chat.id}/read`, { token: bob.token, json: { data: { lastReadId: second.id } } })).status, 200);
    assert.equal((await call(server, 'DELETE', `/chats/${chat.id}/messages/${third.id}`, { token: carol.token })).status, 204);
    const summary = (await call(server, 'GET', `/messages/${first.id}`, { token: bob.token })).body.data.reactions;
    assert.deepEqual(summary, [{ emoji: '👍', count: 2, userIds: [bob.userId, alice.userId] }, { emoji: '🎉', count: 1, userIds: [carol.userId] }]);
  } finally {
    await server.close();
  }

  assert.deepEqual(cli(db, 'PRAGMA integrity_check'), [{ integrity_check: 'ok' }]);
  const tables = cli(db, "SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").map((row) => row['name'] as string);
  for (const name of ['users', 'sessions', 'avatars', 'chats', 'chat_members', 'messages', 'reactions', 'message_revisions', 'events', 'messages_fts']) assert.ok(tables.includes(name), name);
  for (const name of tables) cli(db, `SELECT * FROM "${name}"`);

  // A message written by the CLI: its id after every other one, as the server's ULIDs are.
  const before = cli(db, `SELECT user_id, unread_count, last_read_id FROM chat_members WHERE chat_id = '${chatId}' ORDER BY user_id`);
  const count = (cli(db, `SELECT message_count FROM chat_stats WHERE chat_id = '${chatId}'`)[0]!['message_count']) as number;
  assert.equal(count, 2);
  const id = 'ZZZZZZZZZZZZZZZZZZZZZZZZZZ';
  cli(db, `INSERT INTO messages (id, chat_id, author_id, text, created_at, updated_at) VALUES ('${id}', '${chatId}', '${ids.carol}', 'written by an older sqlite3', 1, 1)`);
  assert.deepEqual(cli(db, `SELECT message_count FROM chat_stats WHERE chat_id = '${chatId}'`), [{ message_count: 3 }]);
  const after = cli(db, `SELECT user_id, unread_count, last_read_id FROM chat_members WHERE chat_id = '${chatId}' ORDER BY user_id`);
  assert.deepEqual(after, before.map((row) => row['user_id'] === ids.carol
    ? { ...row, unread_count: 0, last_read_id: id }
    : { ...row, unread_count: (row['unread_count'] as number) + 1 }));
  assert.deepEqual(cli(db, "SELECT m.id FROM messages_fts JOIN messages m ON m.seq = messages_fts.rowid WHERE messages_fts MATCH 'older'"), [{ id }]);

  // Reactions written by the CLI: the same summary, byte for byte, as the server's triggers write.
  for (const [user, emoji] of [[ids.bob, '👍'], [ids.carol, '🎉'], [ids.alice, '👍'], [ids.carol, '👀']] as const) {
    cli(db, `INSERT INTO reactions (message_id, emoji, user_id, created_at) VALUES ('${id}', '${emoji}', '${user}', 1)`);
  }
  cli(db, `DELETE FROM reactions WHERE message_id = '${id}' AND emoji = '👀'`);
  assert.deepEqual(cli(db, `SELECT reactions FROM messages WHERE id = '${id}'`), [{
    reactions: JSON.stringify([{ emoji: '👍', count: 2, userIds: [ids.bob, ids.alice] }, { emoji: '🎉', count: 1, userIds: [ids.carol] }]),
  }]);
  // An edit through the CLI keeps the text it replaces, as the server's edits do.
  cli(db, `UPDATE messages SET text = 'edited by an older sqlite3', edited_at = 2 WHERE id = '${id}'`);
  assert.deepEqual(cli(db, `SELECT n, text, created_at FROM message_revisions WHERE message_id = '${id}'`), [{ n: 1, text: 'written by an older sqlite3', created_at: 1 }]);
  assert.deepEqual(cli(db, 'PRAGMA integrity_check'), [{ integrity_check: 'ok' }]);

  // And the server reads what the CLI wrote.
  const again = await startTestServer({ db });
  t.after(() => again.close());
  const alice = await call(again, 'POST', '/session', { json: { login: (cli(db, `SELECT login FROM users WHERE id = '${ids.alice}'`)[0]!['login']) as string, password: 'correct horse battery' } });
  assert.equal(alice.status, 201, alice.text);
  const read = await call(again, 'GET', `/messages/${id}`, { token: alice.body.token });
  assert.equal(read.status, 200, read.text);
  assert.deepEqual(read.body.data.reactions, [{ emoji: '👍', count: 2, userIds: [ids.bob, ids.alice] }, { emoji: '🎉', count: 1, userIds: [ids.carol] }]);
});
