// Kept reads on PostgreSQL (sql/postgres/014-change-stamp.sql, storage/read-through.ts) across two servers on one
// database, as test/http/kept-reads.test.ts tests SQLite's with a second connection to the file: a write
// acknowledged by one server shows in the other's very next read (a page, a chat, a session), a script's write too;
// reads are kept at all (a write that bypasses the stamp is not seen); and every table moves the stamp.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createChat, postMessage, threeUsers, type Message } from '../http/chat-fixtures.ts';
import { call, runSql, type TestResponse } from '../http/client.ts';
import { twoServers } from './two-servers.ts';

const texts = (res: TestResponse): string[] => (res.body.data as Message[]).map((message) => message.text);

test('a page kept by one server shows a write acknowledged by the other in its next read; a write that bypasses the stamp is not seen', async (t) => {
  const [a, b] = await twoServers(t);
  const { alice } = await threeUsers(a);
  const chat = await createChat(a, alice, { title: 'kept' });
  const message = await postMessage(a, alice, chat.id, { text: 'before' });
  const page = `/chats/${chat.id}/messages`;
  const kept = await call(a, 'GET', page, { token: alice.token });
  assert.deepEqual(texts(kept), ['before']);

  // Kept at all: a change made without its stamp (no trigger fires for a replica's session) is not read while the
  // stamp holds. A background write (a flush of last-seen times) may move the stamp meanwhile: then try again.
  const stamp = async () => (await runSql(a, 'SELECT sum(n)::text AS stamp FROM change_stamps'))[0]!['stamp'];
  let provedKept = false;
  for (let attempt = 0; attempt < 10 && !provedKept; attempt += 1) {
    const before = await stamp();
    const first = await call(a, 'GET', page, { token: alice.token });
    await runSql(a, `SET session_replication_role = replica; UPDATE messages SET text = 'unstamped ${attempt}' WHERE id = '${message.id}'`);
    const again = await call(a, 'GET', page, { token: alice.token });
    if (await stamp() !== before) continue;
    assert.deepEqual(texts(again), texts(first));
    assert.equal(again.headers.etag, first.headers.etag);
    provedKept = true;
  }
  assert.ok(provedKept, 'the stamp held still for two reads at least once in ten tries');

  const edited = await call(b, 'PATCH', `/chats/${chat.id}/messages/${message.id}`, { token: alice.token, json: { data: { text: 'changed on b' } } });
  assert.equal(edited.status, 200, edited.text);
  const fresh = await call(a, 'GET', page, { token: alice.token });
  assert.deepEqual(texts(fresh), ['changed on b']);
  assert.notEqual(fresh.headers.etag, kept.headers.etag);

  // A script's write through its own connection moves the stamp as well.
  await runSql(a, `UPDATE messages SET text = 'changed by a script' WHERE id = '${message.id}'`);
  assert.deepEqual(texts(await call(a, 'GET', page, { token: alice.token })), ['changed by a script']);
});

test('a chat and a session kept by one server give way to the other server\'s writes', async (t) => {
  const [a, b] = await twoServers(t);
  const { alice, bob } = await threeUsers(a);
  const chat = await createChat(a, alice, { title: 'before', members: [bob.userId] });
  const path = `/chats/${chat.id}`;
  for (let read = 0; read < 2; read += 1) assert.equal((await call(a, 'GET', path, { token: alice.token })).body.data.title, 'before');

  assert.equal((await call(b, 'PATCH', path, { token: alice.token, json: { data: { title: 'renamed on b' } } })).status, 200);
  assert.equal((await call(a, 'GET', path, { token: alice.token })).body.data.title, 'renamed on b');
  assert.equal((await call(a, 'GET', path, { token: bob.token })).status, 200);
  assert.equal((await call(b, 'DELETE', `${path}/members/${bob.userId}`, { token: alice.token })).status, 204);
  assert.equal((await call(a, 'GET', path, { token: bob.token })).status, 404);
  assert.equal((await call(b, 'DELETE', '/session', { token: alice.token })).status, 204);
  assert.equal((await call(a, 'GET', path, { token: alice.token })).status, 401);
});

test('never a stale read: while one server reads all the time, every post the other acknowledges is in the next read', async (t) => {
  const [a, b] = await twoServers(t);
  const { alice } = await threeUsers(a);
  const chat = await createChat(a, alice, { title: 'race' });
  const page = `/chats/${chat.id}/messages?limit=100`;
  let reading = true;
  // Readers keep the page on server a while server b writes, so a value kept under the wrong stamp would be found.
  const readers = Array.from({ length: 4 }, async () => {
    while (reading) assert.equal((await call(a, 'GET', page, { token: alice.token })).status, 200);
  });
  try {
    for (let i = 0; i < 25; i += 1) {
      await postMessage(b, alice, chat.id, { text: `post ${i}` });
      const read = await call(a, 'GET', page, { token: alice.token });
      assert.equal(texts(read).at(-1), `post ${i}`);
      assert.equal(read.body.meta.total, i + 1);
    }
  } finally {
    reading = false;
    await Promise.all(readers);
  }
});

test('every table of the schema moves the change stamp but the outbound queue\'s (a migration that adds a table must add its trigger)', async (t) => {
  const [a] = await twoServers(t);
  const missing = await runSql(a, `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace ns ON ns.oid = c.relnamespace
    WHERE ns.nspname = current_schema() AND c.relkind IN ('r', 'p') AND c.relname NOT IN ('change_stamps', 'schema_migrations')
      AND NOT EXISTS (SELECT 1 FROM pg_trigger tg WHERE tg.tgrelid = c.oid AND tg.tgname = 'change_stamp') ORDER BY 1`);
  // No kept read shows a delivery's state: its leases and outcomes leave kept reads in place (015-outbound-leaves-stamp.sql).
  assert.deepEqual(missing, [{ name: 'outbound_attempts' }, { name: 'outbound_deliveries' }]);
  // A background write (a flush of last-seen times) may move the stamp meanwhile: then try again.
  const stamp = async () => (await runSql(a, 'SELECT sum(n)::text AS stamp FROM change_stamps'))[0]!['stamp'];
  let left = false;
  for (let attempt = 0; attempt < 10 && !left; attempt += 1) {
    const before = await stamp();
    await runSql(a, `INSERT INTO outbound_deliveries (kind, target_id, event_id, payload, created_at, next_attempt_at) VALUES ('push', 'nobody', NULL, '{}', 1, 1);
      UPDATE outbound_deliveries SET attempts = attempts + 1 WHERE target_id = 'nobody'`);
    left = await stamp() === before;
  }
  assert.ok(left, 'a delivery queued and leased by itself leaves the stamp');
});
