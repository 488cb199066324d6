// The kept history pages (resources/messages/page-cache.ts, issue #22) over HTTP: a second read answers the same
// bytes and ETag; every kind of write to the chat shows in the next read at once (post, edit, reaction, delete,
// a write by another connection to the same file, as a second --workers process makes); the membership is
// checked on every read, kept page or not.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { call, type TestResponse } from './client.ts';
import { withServer } from './client.ts';
import { createChat, postMessage, threeUsers, type Message } from './chat-fixtures.ts';

const texts = (res: TestResponse): string[] => (res.body.data as Message[]).map((message) => message.text);

test('a kept page answers the same bytes and ETag until a write, and every write to the chat shows in the next read', async (t) => {
  const server = await withServer(t);
  const { alice, bob } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'cache', members: [bob.userId] });
  const first = await postMessage(server, alice, chat.id, { text: 'one' });
  await postMessage(server, bob, chat.id, { text: 'two' });
  const page = `/chats/${chat.id}/messages?limit=50`;

  const a = await call(server, 'GET', page, { token: alice.token });
  const b = await call(server, 'GET', page, { token: bob.token });
  assert.equal(a.status, 200);
  assert.deepEqual(texts(a), ['one', 'two']);
  // The same page for every member: the same bytes and the same tag, which a conditional read matches.
  assert.equal(b.text, a.text);
  assert.equal(b.headers.etag, a.headers.etag);
  const notModified = await call(server, 'GET', page, { token: bob.token, headers: { 'if-none-match': String(a.headers.etag) } });
  assert.equal(notModified.status, 304);

  await postMessage(server, bob, chat.id, { text: 'three' });
  const afterPost = await call(server, 'GET', page, { token: alice.token });
  assert.deepEqual(texts(afterPost), ['one', 'two', 'three']);
  assert.equal(afterPost.body.meta.total, 3);
  assert.notEqual(afterPost.headers.etag, a.headers.etag);
  assert.equal((await call(server, 'GET', page, { token: alice.token, headers: { 'if-none-match': String(a.headers.etag) } })).status, 200);

  const edited = await call(server, 'PATCH', `/chats/${chat.id}/messages/${first.id}`, { token: alice.token, json: { data: { text: 'one, edited' } } });
  assert.equal(edited.status, 200, edited.text);
  const afterEdit = await call(server, 'GET', page, { token: bob.token });
  assert.deepEqual(texts(afterEdit), ['one, edited', 'two', 'three']);
  assert.notEqual(afterEdit.body.data[0].editedAt, null);

  const reacted = await call(server, 'PUT', `/chats/${chat.id}/messages/${first.id}/reactions/${encodeURIComponent('👍')}`, { token: bob.token });
  assert.ok(reacted.status === 200 || reacted.status === 201, reacted.text);
  const afterReaction = await call(server, 'GET', page, { token: alice.token });
  assert.deepEqual(afterReaction.body.data[0].reactions, [{ emoji: '👍', count: 1, userIds: [bob.userId] }]);
  assert.notEqual(afterReaction.headers.etag, afterEdit.headers.etag);

  const deleted = await call(server, 'DELETE', `/chats/${chat.id}/messages/${first.id}`, { token: alice.token });
  assert.equal(deleted.status, 204);
  const afterDelete = await call(server, 'GET', page, { token: bob.token });
  assert.deepEqual(texts(afterDelete), ['two', 'three']);
  assert.equal(afterDelete.body.meta.total, 2);
});

test('a member who was removed gets 404 for a page that is kept for the others', async (t) => {
  const server = await withServer(t);
  const { alice, bob } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'cache', members: [bob.userId] });
  await postMessage(server, alice, chat.id, { text: 'hello' });
  const page = `/chats/${chat.id}/messages`;
  assert.equal((await call(server, 'GET', page, { token: bob.token })).status, 200);
  assert.equal((await call(server, 'GET', page, { token: alice.token })).status, 200);
  assert.equal((await call(server, 'DELETE', `/chats/${chat.id}/members/${bob.userId}`, { token: alice.token })).status, 204);
  assert.equal((await call(server, 'GET', page, { token: bob.token })).status, 404);
  assert.deepEqual(texts(await call(server, 'GET', page, { token: alice.token })), ['hello']);
});

test('a write by another connection to the same database file (another --workers process) shows in the next read', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'page-cache-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const db = join(dir, 'chat.db');
  const server = await withServer(t, { db });
  const { alice } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'cache' });
  const message = await postMessage(server, alice, chat.id, { text: 'before' });
  const page = `/chats/${chat.id}/messages`;
  const kept = await call(server, 'GET', page, { token: alice.token });
  assert.deepEqual(texts(kept), ['before']);
  assert.deepEqual(texts(await call(server, 'GET', page, { token: alice.token })), ['before']);

  const other = new Database(db);
  t.after(() => other.close());
  other.pragma('busy_timeout = 5000');
  other.prepare('UPDATE messages SET text = ? WHERE id = ?').run('changed elsewhere', message.id);
  const fresh = await call(server, 'GET', page, { token: alice.token });
  assert.deepEqual(texts(fresh), ['changed elsewhere']);
  assert.notEqual(fresh.headers.etag, kept.headers.etag);
});

test('pages of different queries and paths are kept apart', async (t) => {
  const server = await withServer(t);
  const { alice } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'cache' });
  for (const text of ['a', 'b', 'c']) await postMessage(server, alice, chat.id, { text });
  const one = await call(server, 'GET', `/chats/${chat.id}/messages?limit=1`, { token: alice.token });
  const two = await call(server, 'GET', `/chats/${chat.id}/messages?limit=2`, { token: alice.token });
  const sorted = await call(server, 'GET', `/chats/${chat.id}/messages?sort=-id`, { token: alice.token });
  assert.deepEqual(texts(one), ['a']);
  assert.deepEqual(texts(two), ['a', 'b']);
  assert.deepEqual(texts(sorted), ['c', 'b', 'a']);
  assert.match(String(one.headers.link), /limit=1&offset=1/);
  assert.deepEqual(texts(await call(server, 'GET', `/chats/${chat.id}/messages?limit=1`, { token: alice.token })), ['a']);
  // A page kept as JSON is still rendered as XML for a client that asks for it, with its own tag.
  const xml = await call(server, 'GET', `/chats/${chat.id}/messages?limit=1`, { token: alice.token, headers: { accept: 'application/xml' } });
  assert.equal(xml.status, 200);
  assert.match(String(xml.headers['content-type']), /application\/xml/);
  assert.equal(String(xml.headers.etag), `${String(one.headers.etag).slice(0, -1)}.xml"`);
});
