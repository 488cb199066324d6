// Chats over HTTP (docs/protocol.md §4.2): the envelope, who sees and changes what, PUT that creates or replaces, PATCH, DELETE.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { call, runSql, sqliteDbOf, TestClock, withServer } from './client.ts';
import { SqliteStore } from '../../src/storage/sqlite/sqlite-store.ts';
import { PgChats } from '../../src/storage/postgres/conversations.ts';
import { assertFieldError, createChat, postMessage, readChat, threeUsers, withoutIds } from './chat-fixtures.ts';

const MERGE_PATCH = { 'content-type': 'application/merge-patch+json' };

test('POST /chats answers 201, Location and the chat in the envelope; the caller owns it and is a member', async (t) => {
  const clock = new TestClock();
  const server = await withServer(t, { clock });
  const { alice, bob } = await threeUsers(server);
  const res = await call(server, 'POST', '/chats', { token: alice.token, json: { data: { title: 'Team', members: [bob.userId, alice.userId, bob.userId] } } });
  assert.equal(res.status, 201);
  assert.match(res.body.data.id, /^[0-9A-Z]{26}$/);
  assert.equal(res.headers['location'], `/chats/${res.body.data.id}`);
  assert.match(String(res.headers['etag']), /^"[A-Za-z0-9_-]{27}"$/);
  const at = new Date(clock.time).toISOString();
  // The owner comes first; a repeated id is one member.
  assert.deepEqual(res.body, { data: { id: res.body.data.id, kind: 'group', title: 'Team', ownerId: alice.userId, members: [alice.userId, bob.userId], createdAt: at, updatedAt: at, lastReadId: null, unreadCount: 0, mentionCount: 0 } });
  const read = await readChat(server, bob, res.body.data.id);
  assert.equal(read.status, 200);
  assert.deepEqual(read.body, res.body);
  assert.equal(read.headers['etag'], res.headers['etag']);
});

test('GET /chats lists only the caller\'s chats, with the query conventions', async (t) => {
  const server = await withServer(t);
  const { alice, bob, carol } = await threeUsers(server);
  const shared = await createChat(server, alice, { title: 'Shared', members: [bob.userId] });
  const own = await createChat(server, alice, { title: 'Alone' });
  const bobs = await createChat(server, bob, { title: 'Bob only' });
  const list = await call(server, 'GET', '/chats', { token: alice.token });
  assert.equal(list.status, 200);
  assert.deepEqual(list.body, { data: [shared, own], meta: { total: 2, limit: 20, offset: 0 } });
  assert.deepEqual((await call(server, 'GET', '/chats', { token: bob.token })).body.data, [shared, bobs]);
  assert.deepEqual((await call(server, 'GET', '/chats', { token: carol.token })).body, { data: [], meta: { total: 0, limit: 20, offset: 0 } });
  const withBob = await call(server, 'GET', `/chats?members=${bob.userId}`, { token: alice.token });
  assert.deepEqual(withBob.body.data, [shared]);
  const titled = await call(server, 'GET', '/chats?filter=title|like|al%25', { token: alice.token });
  assert.deepEqual(titled.body.data, [own]);
  const sorted = await call(server, 'GET', '/chats?sort=title&order=desc', { token: alice.token });
  assert.deepEqual(sorted.body.data.map((chat: { title: string }) => chat.title), ['Shared', 'Alone']);
  const paged = await call(server, 'GET', '/chats?limit=1', { token: alice.token });
  assert.deepEqual(paged.body.data, [shared]);
  assert.equal(paged.headers['link'], '</chats?limit=1&offset=1>; rel="next"');
  assertFieldError(await call(server, 'GET', '/chats?secret=1', { token: alice.token }), 'secret');
  assert.equal((await call(server, 'GET', '/chats')).status, 401);
});

test('a chat the caller may not see answers exactly like one that does not exist, for every method', async (t) => {
  const server = await withServer(t);
  const { alice, carol } = await threeUsers(server);
  const hidden = await createChat(server, alice, { title: 'Secret' });
  const requests: [string, string, unknown?][] = [
    ['GET', ''],
    ['PUT', '', { data: { title: 'Taken over' } }],
    ['PATCH', '', { data: { title: 'Taken over' } }],
    ['DELETE', ''],
    ['GET', '/members'],
    ['PUT', `/members/${carol.userId}`],
    ['DELETE', `/members/${carol.userId}`],
    ['GET', '/messages'],
    ['POST', '/messages', { data: { text: 'hi' } }],
    ['DELETE', '/messages'],
  ];
  for (const [method, suffix, json] of requests) {
    const what = `${method} /chats/{id}${suffix}`;
    // A fresh id each time: the PUT below creates its one.
    const missing = `no-such-chat-${method}-${suffix.length}`;
    const seen = await call(server, method, `/chats/${hidden.id}${suffix}`, { token: carol.token, json });
    const absent = await call(server, method, `/chats/${missing}${suffix}`, { token: carol.token, json });
    if (method === 'PUT' && suffix === '') {
      // PUT creates where nothing exists; on the hidden chat it neither creates nor reveals more than a 404.
      assert.equal(absent.status, 201, what);
    } else {
      assert.equal(absent.status, 404, what);
      assert.deepEqual(withoutIds(seen.body, hidden.id), withoutIds(absent.body, missing), what);
      assert.deepEqual(Object.keys(seen.headers).sort(), Object.keys(absent.headers).sort(), what);
    }
    assert.equal(seen.status, 404, what);
    assert.equal(seen.body.detail, `No chat ${hidden.id}`, what);
  }
  const head = await call(server, 'HEAD', `/chats/${hidden.id}`, { token: carol.token });
  assert.equal(head.status, 404);
  // Nothing changed: alice still sees the chat as it was.
  const after = await readChat(server, alice, hidden.id);
  assert.deepEqual(after.body.data, hidden);
});

test('PUT /chats/{id} creates under the client\'s id (201), then replaces title and members (200, owner only)', async (t) => {
  const clock = new TestClock();
  const server = await withServer(t, { clock });
  const { alice, bob, carol } = await threeUsers(server);
  const created = await call(server, 'PUT', '/chats/team-42', { token: alice.token, json: { data: { id: 'team-42', kind: 'group', title: 'Team', members: [bob.userId] } } });
  assert.equal(created.status, 201);
  assert.equal(created.headers['location'], '/chats/team-42');
  const at = new Date(clock.time).toISOString();
  assert.deepEqual(created.body, { data: { id: 'team-42', kind: 'group', title: 'Team', ownerId: alice.userId, members: [alice.userId, bob.userId], createdAt: at, updatedAt: at, lastReadId: null, unreadCount: 0, mentionCount: 0 } });

  clock.advance(1000);
  const replaced = await call(server, 'PUT', '/chats/team-42', { token: alice.token, json: { data: { title: 'Renamed', members: [carol.userId] } } });
  assert.equal(replaced.status, 200);
  assert.equal(replaced.headers['location'], undefined);
  const later = new Date(clock.time).toISOString();
  assert.deepEqual(replaced.body, { data: { id: 'team-42', kind: 'group', title: 'Renamed', ownerId: alice.userId, members: [alice.userId, carol.userId], createdAt: at, updatedAt: later, lastReadId: null, unreadCount: 0, mentionCount: 0 } });

  // PUT replaces the whole state: without members, the owner alone stays.
  const alone = await call(server, 'PUT', '/chats/team-42', { token: alice.token, json: { data: { title: 'Renamed' } } });
  assert.deepEqual(alone.body.data.members, [alice.userId]);

  await call(server, 'PUT', `/chats/team-42/members/${bob.userId}`, { token: alice.token });
  const byMember = await call(server, 'PUT', '/chats/team-42', { token: bob.token, json: { data: { title: 'Mine now' } } });
  assert.equal(byMember.status, 403);
  assert.equal(byMember.body.code, 'ERR_FORBIDDEN');
  assert.equal((await readChat(server, alice, 'team-42')).body.data.title, 'Renamed');
});

test('PUT /chats/{id} refuses a malformed id, a different body id and bad fields, creating nothing', async (t) => {
  const server = await withServer(t);
  const { alice } = await threeUsers(server);
  assertFieldError(await call(server, 'PUT', '/chats/has%20space', { token: alice.token, json: { data: { title: 'x' } } }), 'chatId');
  assertFieldError(await call(server, 'PUT', `/chats/${'a'.repeat(65)}`, { token: alice.token, json: { data: { title: 'x' } } }), 'chatId');
  assertFieldError(await call(server, 'PUT', '/chats/abc', { token: alice.token, json: { data: { id: 'xyz', kind: 'group', title: 'x' } } }), 'data.id');
  assertFieldError(await call(server, 'PUT', '/chats/abc', { token: alice.token, json: { data: {} } }), 'data.title');
  assert.equal((await readChat(server, alice, 'abc')).status, 404);
  const longest = await call(server, 'PUT', `/chats/${'a'.repeat(64)}`, { token: alice.token, json: { data: { title: 'x' } } });
  assert.equal(longest.status, 201);
});

test('every broken chat field is a 400 naming it', async (t) => {
  const server = await withServer(t);
  const { alice } = await threeUsers(server);
  const rows: { what: string; json: unknown; field: string }[] = [
    { what: 'no envelope', json: { title: 'x' }, field: 'data' },
    { what: 'data not an object', json: { data: 'x' }, field: 'data' },
    { what: 'data an array', json: { data: [] }, field: 'data' },
    { what: 'title missing', json: { data: {} }, field: 'data.title' },
    { what: 'title empty', json: { data: { title: '' } }, field: 'data.title' },
    { what: 'title too long', json: { data: { title: 'x'.repeat(201) } }, field: 'data.title' },
    { what: 'title not a string', json: { data: { title: 7 } }, field: 'data.title' },
    { what: 'members not an array', json: { data: { title: 'x', members: 'bob' } }, field: 'data.members' },
    { what: 'member not an id', json: { data: { title: 'x', members: [1] } }, field: 'data.members' },
    { what: 'unknown member', json: { data: { title: 'x', members: ['nobody'] } }, field: 'data.members' },
    { what: 'unknown field', json: { data: { title: 'x', foo: 1 } }, field: 'data.foo' },
    { what: 'read-only ownerId', json: { data: { title: 'x', ownerId: alice.userId } }, field: 'data.ownerId' },
    { what: 'read-only createdAt', json: { data: { title: 'x', createdAt: '2026-01-01T00:00:00.000Z' } }, field: 'data.createdAt' },
    { what: 'an id on POST', json: { data: { id: 'mine', kind: 'group', title: 'x' } }, field: 'data.id' },
    { what: 'unknown top-level field', json: { data: { title: 'x' }, meta: {} }, field: 'meta' },
  ];
  for (const { what, json, field } of rows) assertFieldError(await call(server, 'POST', '/chats', { token: alice.token, json }), field, what);
  assert.deepEqual((await call(server, 'GET', '/chats', { token: alice.token })).body.meta.total, 0);
  const boundary = await call(server, 'POST', '/chats', { token: alice.token, json: { data: { title: '😀'.repeat(200) } } });
  assert.equal(boundary.status, 201, 'the title counts characters');
  const typed = await call(server, 'POST', '/chats', { token: alice.token, body: '{"data":{"title":"x"}}', headers: { 'content-type': 'text/plain' } });
  assert.equal(typed.status, 415);
});

test('PATCH /chats/{id} takes JSON and merge-patch: title changes, members replaces the list, the owner stays', async (t) => {
  const clock = new TestClock();
  const server = await withServer(t, { clock });
  const { alice, bob, carol } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'Before', members: [bob.userId] });
  clock.advance(5000);
  const renamed = await call(server, 'PATCH', `/chats/${chat.id}`, { token: alice.token, json: { data: { title: 'After' } } });
  assert.equal(renamed.status, 200);
  const later = new Date(clock.time).toISOString();
  assert.deepEqual(renamed.body, { data: { ...chat, title: 'After', updatedAt: later } });

  clock.advance(5000);
  const members = await call(server, 'PATCH', `/chats/${chat.id}`, { token: alice.token, headers: MERGE_PATCH, json: { data: { members: [carol.userId] } } });
  assert.equal(members.status, 200);
  assert.deepEqual(members.body.data.members, [alice.userId, carol.userId]);
  assert.equal(members.body.data.updatedAt, new Date(clock.time).toISOString());
  assert.equal((await readChat(server, bob, chat.id)).status, 404, 'bob is no longer a member');

  const reset = await call(server, 'PATCH', `/chats/${chat.id}`, { token: alice.token, headers: MERGE_PATCH, json: { data: { members: null } } });
  assert.deepEqual(reset.body.data.members, [alice.userId], 'members: null leaves the owner alone');

  // A patch that changes nothing leaves updatedAt (and the ETag) as they were.
  clock.advance(5000);
  const same = await call(server, 'PATCH', `/chats/${chat.id}`, { token: alice.token, json: { data: { title: 'After', id: chat.id } } });
  assert.equal(same.status, 200);
  assert.deepEqual(same.body, reset.body);
  assert.equal(same.headers['etag'], reset.headers['etag']);

  assertFieldError(await call(server, 'PATCH', `/chats/${chat.id}`, { token: alice.token, headers: MERGE_PATCH, json: { data: { title: null } } }), 'data.title');
  assertFieldError(await call(server, 'PATCH', `/chats/${chat.id}`, { token: alice.token, json: { data: { title: 'x'.repeat(201) } } }), 'data.title');
  assertFieldError(await call(server, 'PATCH', `/chats/${chat.id}`, { token: alice.token, json: { data: { foo: 1 } } }), 'data.foo');
  assertFieldError(await call(server, 'PATCH', `/chats/${chat.id}`, { token: alice.token, json: { data: { id: 'other' } } }), 'data.id');
  assertFieldError(await call(server, 'PATCH', `/chats/${chat.id}`, { token: alice.token, json: { data: { updatedAt: later } } }), 'data.updatedAt');
  assert.equal((await call(server, 'PATCH', `/chats/${chat.id}`, { token: alice.token, body: 'title=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } })).status, 415);
  assert.deepEqual((await readChat(server, alice, chat.id)).body, reset.body);
});

test('only the owner may PATCH or DELETE a chat; a member gets 403 and nothing changes', async (t) => {
  const server = await withServer(t);
  const { alice, bob } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'Owned', members: [bob.userId] });
  const patch = await call(server, 'PATCH', `/chats/${chat.id}`, { token: bob.token, json: { data: { title: 'Mine' } } });
  assert.equal(patch.status, 403);
  assert.equal(patch.body.code, 'ERR_FORBIDDEN');
  const remove = await call(server, 'DELETE', `/chats/${chat.id}`, { token: bob.token });
  assert.equal(remove.status, 403);
  assert.deepEqual((await readChat(server, alice, chat.id)).body.data, chat);
});

test('DELETE /chats/{id} answers 204 and removes the chat with its members and messages', async (t) => {
  const server = await withServer(t);
  const { alice, bob } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'Doomed', members: [bob.userId] });
  const message = await postMessage(server, bob, chat.id, { text: 'soon gone' });
  const res = await call(server, 'DELETE', `/chats/${chat.id}`, { token: alice.token });
  assert.equal(res.status, 204);
  assert.equal(res.raw.length, 0);
  assert.equal((await readChat(server, alice, chat.id)).status, 404);
  assert.equal((await call(server, 'GET', `/messages/${message.id}`, { token: bob.token })).status, 404);
  assert.equal((await call(server, 'GET', '/chats', { token: bob.token })).body.meta.total, 0);
  assert.deepEqual(await runSql(server, 'SELECT (SELECT count(*) FROM messages) AS messages, (SELECT count(*) FROM chat_members) AS members'), [{ messages: 0, members: 0 }]);
  // The id is free again.
  assert.equal((await call(server, 'PUT', `/chats/${chat.id}`, { token: bob.token, json: { data: { title: 'Reborn' } } })).status, 201);
});

test('a write of several rows is one transaction: a failure inside it leaves nothing half done', async (t) => {
  const clock = new TestClock();
  const server = await withServer(t, { clock });
  const { alice, bob } = await threeUsers(server);
  // The chat row is written before the unknown member is found; the rollback takes it back.
  const failed = await call(server, 'PUT', '/chats/half', { token: alice.token, json: { data: { title: 'Half', members: [bob.userId, 'ghost'] } } });
  assertFieldError(failed, 'data.members');
  assert.match(failed.body.detail, /ghost/);
  assert.equal((await readChat(server, alice, 'half')).status, 404);
  assert.equal((await readChat(server, bob, 'half')).status, 404);
  assert.deepEqual(await runSql(server, "SELECT (SELECT count(*) FROM chats WHERE id = 'half') AS chats, (SELECT count(*) FROM chat_members WHERE chat_id = 'half') AS members"), [{ chats: 0, members: 0 }]);

  const chat = await createChat(server, alice, { title: 'Whole', members: [bob.userId] });
  clock.advance(1000);
  // Members are removed before the unknown one is found: all of it rolls back.
  assertFieldError(await call(server, 'PATCH', `/chats/${chat.id}`, { token: alice.token, json: { data: { title: 'Changed', members: ['ghost'] } } }), 'data.members');
  assert.deepEqual((await readChat(server, alice, chat.id)).body.data, chat);
});

test('chat paths answer OPTIONS with Allow and Accept-Patch, and 405 for other methods', async (t) => {
  const server = await withServer(t);
  const cases = [
    { path: '/chats', allow: 'OPTIONS, GET, HEAD, POST' },
    { path: '/chats/abc', allow: 'OPTIONS, GET, HEAD, PUT, PATCH, DELETE' },
    { path: '/chats/abc/members', allow: 'OPTIONS, GET, HEAD' },
    { path: '/chats/abc/members/u1', allow: 'OPTIONS, GET, HEAD, PUT, DELETE' },
    { path: '/chats/abc/messages', allow: 'OPTIONS, GET, HEAD, POST, DELETE' },
    { path: '/chats/abc/messages/m1', allow: 'OPTIONS, GET, HEAD, PUT, PATCH, DELETE' },
    { path: '/chats/abc/messages/m1/actions', allow: 'OPTIONS, GET, HEAD' },
    { path: '/messages/m1', allow: 'OPTIONS, GET, HEAD' },
    { path: '/messages/m1/actions', allow: 'OPTIONS, GET, HEAD' },
  ];
  for (const { path, allow } of cases) {
    const res = await call(server, 'OPTIONS', path);
    assert.equal(res.status, 204, path);
    assert.equal(res.headers['allow'], allow, path);
    const patchable = allow.includes('PATCH');
    assert.equal(res.headers['accept-patch'], patchable ? 'application/json, application/merge-patch+json' : undefined, path);
  }
  const post = await call(server, 'POST', '/chats/abc', { json: { data: {} } });
  assert.equal(post.status, 405);
  assert.equal(post.headers['allow'], 'OPTIONS, GET, HEAD, PUT, PATCH, DELETE');
});

test('HEAD of a chat answers the GET\'s headers without a body; the HTML page links messages and members', async (t) => {
  const server = await withServer(t);
  const { alice } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: '<b>Bold</b>' });
  const get = await readChat(server, alice, chat.id);
  const head = await call(server, 'HEAD', `/chats/${chat.id}`, { token: alice.token });
  assert.equal(head.status, 200);
  assert.equal(head.raw.length, 0);
  assert.equal(head.headers['content-length'], String(get.raw.length));
  assert.equal(head.headers['etag'], get.headers['etag']);
  const html = await call(server, 'GET', `/chats/${chat.id}`, { token: alice.token, headers: { accept: 'text/html' } });
  assert.equal(html.status, 200);
  assert.match(html.text, new RegExp(`href="/chats/${chat.id}/messages"`));
  assert.match(html.text, new RegExp(`href="/chats/${chat.id}/members"`));
  assert.match(html.text, /&lt;b&gt;Bold&lt;\/b&gt;/);
  assert.doesNotMatch(html.text, /<b>Bold/);
  const xml = await call(server, 'GET', `/chats/${chat.id}`, { token: alice.token, headers: { accept: 'application/xml' } });
  assert.equal(xml.status, 200);
  assert.notEqual(xml.headers['etag'], get.headers['etag']);
});

test('with --base-path, Location and links carry the prefix', async (t) => {
  const server = await withServer(t, { basePath: '/api' });
  const { alice } = await threeUsers(server);
  const res = await call(server, 'PUT', '/api/chats/prefixed', { token: alice.token, json: { data: { title: 'P' } } });
  assert.equal(res.status, 201);
  assert.equal(res.headers['location'], '/api/chats/prefixed');
  const message = await call(server, 'POST', '/api/chats/prefixed/messages', { token: alice.token, json: { data: { text: 'hi' } } });
  assert.equal(message.headers['location'], `/api/chats/prefixed/messages/${message.body.data.id}`);
  const actions = await call(server, 'GET', `/api/messages/${message.body.data.id}/actions`, { token: alice.token });
  assert.ok(actions.body.data.every((action: { href: string }) => action.href.startsWith('/api/chats/prefixed/messages')));
});

test('a chat deleted while its owner changes it (inside the PATCH\'s transaction): 404, never a 500', async (t) => {
  const server = await withServer(t);
  const { alice } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'Going' });
  // PostgreSQL locks no row a transaction only read: another request's DELETE may land between the PATCH's
  // reads and its writes. The moment is made here: the chat goes as the PATCH reads its members.
  const storage = server.app.services.storage;
  if (storage instanceof SqliteStore) {
    // One connection: the DELETE runs inside the PATCH's own transaction, and is rolled back with it.
    const txChats = (storage as unknown as { tx: { chats: { findMembers(chatId: string): Promise<unknown> } } }).tx.chats;
    const findMembers = txChats.findMembers;
    t.mock.method(txChats, 'findMembers', (chatId: string) => {
      sqliteDbOf(server).prepare('DELETE FROM chats WHERE id = ?').run(chatId);
      return findMembers(chatId);
    });
  } else {
    const findMembers = PgChats.prototype.findMembers;
    t.mock.method(PgChats.prototype, 'findMembers', async function (this: PgChats, chatId: string) {
      await runSql(server, `DELETE FROM chats WHERE id = '${chatId}'`);
      return findMembers.call(this, chatId);
    });
  }
  const res = await call(server, 'PATCH', `/chats/${chat.id}`, { token: alice.token, json: { data: { title: 'Gone' } }, headers: MERGE_PATCH });
  t.mock.restoreAll();
  assert.equal(res.status, 404, res.text);
  assert.deepEqual(res.body, {
    type: 'https://chat-api.invalid/problems/not-found', title: 'Not Found', status: 404, detail: `No chat ${chat.id}`, code: 'ERR_NOT_FOUND',
  });
});
