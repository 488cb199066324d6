// The kept reads (storage/read-through.ts, resources/kept-reply.ts) over HTTP. History pages: a second read answers the same
// bytes and ETag; every kind of write to the chat shows in the next read at once (post, edit, reaction, delete,
// a write by another connection to the same file, as a second --workers process makes); the membership is
// checked on every read, kept page or not. Sessions, memberships and chats as each caller reads them: a logout,
// a new password, an expiry, a removal, a rename, a read marker and another connection's write all show in the
// very next read. On PostgreSQL the change stamp of sql/postgres/014-change-stamp.sql keeps reads too, and the same answers
// must come (across two servers: test/postgres/kept-reads.test.ts).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import Database from 'better-sqlite3';
import type { RunningServer } from '../../src/index.ts';
import { call, registerAndLogIn, TestClock, withServer, type TestResponse } from './client.ts';
import { createChat, postMessage, threeUsers, type Message } from './chat-fixtures.ts';

const texts = (res: TestResponse): string[] => (res.body.data as Message[]).map((message) => message.text);

/** A server on a SQLite file, and a second connection to that file, as another --workers process or a script has. */
async function serverWithSecondConnection(t: TestContext): Promise<{ server: RunningServer; other: Database.Database }> {
  const dir = mkdtempSync(join(tmpdir(), 'kept-reads-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const db = join(dir, 'chat.db');
  const server = await withServer(t, { db });
  const other = new Database(db);
  t.after(() => other.close());
  other.pragma('busy_timeout = 5000');
  return { server, other };
}

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
  const { server, other } = await serverWithSecondConnection(t);
  const { alice } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'cache' });
  const message = await postMessage(server, alice, chat.id, { text: 'before' });
  const page = `/chats/${chat.id}/messages`;
  const kept = await call(server, 'GET', page, { token: alice.token });
  assert.deepEqual(texts(kept), ['before']);
  assert.deepEqual(texts(await call(server, 'GET', page, { token: alice.token })), ['before']);

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

test('a kept session ends at once with a logout, a new password and its expiry', async (t) => {
  const clock = new TestClock();
  const server = await withServer(t, { clock });
  const { alice, bob } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'kept', members: [bob.userId] });
  const path = `/chats/${chat.id}`;
  for (let read = 0; read < 2; read += 1) assert.equal((await call(server, 'GET', path, { token: bob.token })).status, 200);
  // Writes find the session kept too.
  assert.equal((await call(server, 'POST', `${path}/messages`, { token: bob.token, json: { data: { text: 'before' } } })).status, 201);

  assert.equal((await call(server, 'DELETE', '/session', { token: bob.token })).status, 204);
  const afterLogout = await call(server, 'GET', path, { token: bob.token });
  assert.equal(afterLogout.status, 401);
  assert.equal(afterLogout.body.code, 'ERR_UNAUTHENTICATED');
  assert.equal((await call(server, 'POST', `${path}/messages`, { token: bob.token, json: { data: { text: 'after' } } })).status, 401);

  // A second session of alice's, kept; her new password, set through the first, ends it (docs/protocol.md §3.1).
  const second = await call(server, 'POST', '/session', { json: { login: alice.login, password: alice.password } });
  assert.equal(second.status, 201);
  for (let read = 0; read < 2; read += 1) assert.equal((await call(server, 'GET', path, { token: second.body.token })).status, 200);
  const changed = await call(server, 'PATCH', `/users/${alice.userId}`, { token: alice.token, json: { currentPassword: alice.password, password: 'another password 2' } });
  assert.equal(changed.status, 200, changed.text);
  assert.equal((await call(server, 'GET', path, { token: second.body.token })).status, 401);
  assert.equal((await call(server, 'GET', path, { token: alice.token })).status, 200);

  // Kept and used: each use moves its idle expiry (a day) on, kept as written.
  const other = await registerAndLogIn(server);
  for (let read = 0; read < 2; read += 1) assert.equal((await call(server, 'GET', '/session', { token: other.token })).status, 200);
  clock.advance(20 * 3_600_000);
  assert.equal((await call(server, 'GET', '/session', { token: other.token })).status, 200);
  clock.advance(20 * 3_600_000);
  const used = await call(server, 'GET', '/session', { token: other.token });
  assert.equal(used.status, 200, 'used 20 hours ago: its expiry moved a day on then');
  assert.equal(Date.parse(used.body.expiresAt), clock.now() + 86_400_000);
  // Then past its idle expiry with nothing written between: refused by the clock alone.
  clock.advance(86_400_000 + 1000);
  const expired = await call(server, 'GET', '/session', { token: other.token });
  assert.equal(expired.status, 401);
});

test('a chat is kept per caller: each reader\'s own unread count, and every change shows in the next read', async (t) => {
  const server = await withServer(t);
  const { alice, bob } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'kept', members: [bob.userId] });
  const path = `/chats/${chat.id}`;
  const message = await postMessage(server, alice, chat.id, { text: 'hello' });
  const aliceRead = await call(server, 'GET', path, { token: alice.token });
  const bobRead = await call(server, 'GET', path, { token: bob.token });
  assert.equal(aliceRead.body.data.unreadCount, 0);
  assert.equal(bobRead.body.data.unreadCount, 1);
  // Read again, nothing written: the same bytes and tag, and a conditional read matches.
  const again = await call(server, 'GET', path, { token: bob.token });
  assert.equal(again.text, bobRead.text);
  assert.equal(again.headers.etag, bobRead.headers.etag);
  assert.equal((await call(server, 'GET', path, { token: bob.token, headers: { 'if-none-match': String(bobRead.headers.etag) } })).status, 304);

  const marked = await call(server, 'PUT', `${path}/read`, { token: bob.token, json: { data: { lastReadId: message.id } } });
  assert.ok(marked.status === 200 || marked.status === 201, marked.text);
  const afterMarker = await call(server, 'GET', path, { token: bob.token });
  assert.equal(afterMarker.body.data.unreadCount, 0);
  assert.equal(afterMarker.body.data.lastReadId, message.id);
  assert.notEqual(afterMarker.headers.etag, bobRead.headers.etag);

  const renamed = await call(server, 'PATCH', path, { token: alice.token, json: { data: { title: 'renamed' } } });
  assert.equal(renamed.status, 200, renamed.text);
  assert.equal((await call(server, 'GET', path, { token: bob.token })).body.data.title, 'renamed');
  assert.equal((await call(server, 'GET', path, { token: alice.token })).body.data.title, 'renamed');

  // Removed: 404 at once for bob, while alice's read of the same chat stays.
  assert.equal((await call(server, 'DELETE', `${path}/members/${bob.userId}`, { token: alice.token })).status, 204);
  assert.equal((await call(server, 'GET', path, { token: bob.token })).status, 404);
  assert.equal((await call(server, 'GET', `${path}/messages/${message.id}`, { token: bob.token })).status, 404);
  assert.equal((await call(server, 'GET', path, { token: alice.token })).status, 200);
  assert.equal((await call(server, 'DELETE', path, { token: alice.token })).status, 204);
  assert.equal((await call(server, 'GET', path, { token: alice.token })).status, 404);
});

test('a chat and a session kept by one connection give way to another connection\'s write to the same file', async (t) => {
  const { server, other } = await serverWithSecondConnection(t);
  const { alice } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'before' });
  const path = `/chats/${chat.id}`;
  for (let read = 0; read < 2; read += 1) assert.equal((await call(server, 'GET', path, { token: alice.token })).body.data.title, 'before');

  other.prepare('UPDATE chats SET title = ? WHERE id = ?').run('changed elsewhere', chat.id);
  assert.equal((await call(server, 'GET', path, { token: alice.token })).body.data.title, 'changed elsewhere');
  other.prepare('DELETE FROM sessions').run();
  assert.equal((await call(server, 'GET', path, { token: alice.token })).status, 401);
});

test('a kept reply is frozen: an HTML reader\'s page context goes on a copy, and every reader gets the same bytes as before', async (t) => {
  const server = await withServer(t);
  const { alice, bob } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'frozen', members: [bob.userId] });
  await postMessage(server, alice, chat.id, { text: 'hello' });
  const html = { accept: 'text/html' };
  for (const path of [`/chats/${chat.id}/messages`, `/chats/${chat.id}`]) {
    const json = await call(server, 'GET', path, { token: alice.token });
    const aliceFirst = await call(server, 'GET', path, { token: alice.token, headers: html });
    const bobPage = await call(server, 'GET', path, { token: bob.token, headers: html });
    const aliceAgain = await call(server, 'GET', path, { token: alice.token, headers: html });
    const jsonAgain = await call(server, 'GET', path, { token: alice.token });
    for (const res of [json, aliceFirst, bobPage, aliceAgain, jsonAgain]) assert.equal(res.status, 200, `${path}: ${res.text}`);
    // Each reader's page says who is signed in: bob's context did not stay on the page alice is answered.
    assert.notEqual(bobPage.text, aliceFirst.text);
    assert.equal(aliceAgain.text, aliceFirst.text);
    assert.equal(jsonAgain.text, json.text);
    assert.equal(jsonAgain.headers.etag, json.headers.etag);
  }
});

test('a page kept for a chat stays through writes elsewhere, and a chat made again under the same id never answers the old one\'s page', async (t) => {
  const server = await withServer(t);
  const { alice, bob } = await threeUsers(server);
  const other = await createChat(server, alice, { title: 'elsewhere', members: [bob.userId] });
  const path = '/chats/same-id';
  const put = () => call(server, 'PUT', path, { token: alice.token, json: { data: { title: 'again', members: [bob.userId] } } });
  assert.equal((await put()).status, 201);
  const old = await postMessage(server, alice, 'same-id', { text: 'old' });
  const page = `${path}/messages`;
  const kept = await call(server, 'GET', page, { token: bob.token });
  assert.deepEqual(texts(kept), ['old']);

  // Writes elsewhere: a post in another chat, a read marker in this one; the page is the same, tag and all.
  await postMessage(server, bob, other.id, { text: 'elsewhere' });
  const marked = await call(server, 'PUT', `${path}/read`, { token: bob.token, json: { data: { lastReadId: old.id } } });
  assert.ok(marked.status === 200 || marked.status === 201, marked.text);
  const again = await call(server, 'GET', page, { token: bob.token });
  assert.equal(again.text, kept.text);
  assert.equal(again.headers.etag, kept.headers.etag);

  // Deleted and made again the same way, with as many writes: its own page, never the kept one.
  assert.equal((await call(server, 'DELETE', path, { token: alice.token })).status, 204);
  assert.equal((await call(server, 'GET', page, { token: bob.token })).status, 404);
  assert.equal((await put()).status, 201);
  await postMessage(server, alice, 'same-id', { text: 'new' });
  assert.deepEqual(texts(await call(server, 'GET', page, { token: bob.token })), ['new']);
});
