// Conditional requests on chats, messages and members (docs/protocol.md §7.7, RFC 9110 §13): ETag, 304, 412 with nothing changed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { call, TestClock, withServer } from './client.ts';
import { createChat, postMessage, readChat, threeUsers } from './chat-fixtures.ts';

test('a chat carries a strong ETag; If-None-Match answers 304 with the same ETag and no body', async (t) => {
  const server = await withServer(t);
  const { alice } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'Tagged' });
  const get = await readChat(server, alice, chat.id);
  const etag = String(get.headers['etag']);
  assert.match(etag, /^"[^"]+"$/);
  for (const header of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
    const res = await call(server, 'GET', `/chats/${chat.id}`, { token: alice.token, headers: { 'if-none-match': header } });
    assert.equal(res.status, 304, header);
    assert.equal(res.headers['etag'], etag, header);
    assert.equal(res.raw.length, 0, header);
  }
  const head = await call(server, 'HEAD', `/chats/${chat.id}`, { token: alice.token, headers: { 'if-none-match': etag } });
  assert.equal(head.status, 304);
  const stale = await call(server, 'GET', `/chats/${chat.id}`, { token: alice.token, headers: { 'if-none-match': '"stale"' } });
  assert.equal(stale.status, 200);
});

test('If-Match on PATCH, PUT and DELETE of a chat: a stale or weak tag is 412 and nothing changes; the current one works', async (t) => {
  const clock = new TestClock();
  const server = await withServer(t, { clock });
  const { alice } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'Guarded' });
  const original = await readChat(server, alice, chat.id);
  const etag = String(original.headers['etag']);
  clock.advance(1000);
  const writes: [string, unknown?][] = [['PATCH', { data: { title: 'Changed' } }], ['PUT', { data: { title: 'Changed' } }], ['DELETE']];
  for (const [method, json] of writes) {
    for (const ifMatch of ['"stale"', `W/${etag}`]) {
      const res = await call(server, method, `/chats/${chat.id}`, { token: alice.token, json, headers: { 'if-match': ifMatch } });
      assert.equal(res.status, 412, `${method} If-Match: ${ifMatch}`);
      assert.equal(res.body.code, 'ERR_PRECONDITION_FAILED');
      assert.deepEqual((await readChat(server, alice, chat.id)).body, original.body, `${method} changed nothing`);
    }
  }
  const patched = await call(server, 'PATCH', `/chats/${chat.id}`, { token: alice.token, json: { data: { title: 'Changed' } }, headers: { 'if-match': etag } });
  assert.equal(patched.status, 200);
  assert.notEqual(patched.headers['etag'], etag);
  // The old tag is stale now.
  const again = await call(server, 'PATCH', `/chats/${chat.id}`, { token: alice.token, json: { data: { title: 'Again' } }, headers: { 'if-match': etag } });
  assert.equal(again.status, 412);
  const deleted = await call(server, 'DELETE', `/chats/${chat.id}`, { token: alice.token, headers: { 'if-match': String(patched.headers['etag']) } });
  assert.equal(deleted.status, 204);
});

test('PUT with If-None-Match: * creates only; with If-Match: * replaces only; otherwise 412 and nothing is written', async (t) => {
  const server = await withServer(t);
  const { alice } = await threeUsers(server);
  const missingMatch = await call(server, 'PUT', '/chats/fresh', { token: alice.token, json: { data: { title: 'x' } }, headers: { 'if-match': '*' } });
  assert.equal(missingMatch.status, 412);
  assert.equal((await readChat(server, alice, 'fresh')).status, 404, 'If-Match: * created nothing');
  const created = await call(server, 'PUT', '/chats/fresh', { token: alice.token, json: { data: { title: 'x' } }, headers: { 'if-none-match': '*' } });
  assert.equal(created.status, 201);
  const existing = await call(server, 'PUT', '/chats/fresh', { token: alice.token, json: { data: { title: 'y' } }, headers: { 'if-none-match': '*' } });
  assert.equal(existing.status, 412);
  assert.deepEqual((await readChat(server, alice, 'fresh')).body, created.body, 'If-None-Match: * changed nothing');
  const replaced = await call(server, 'PUT', '/chats/fresh', { token: alice.token, json: { data: { title: 'y' } }, headers: { 'if-match': '*' } });
  assert.equal(replaced.status, 200);
  assert.equal(replaced.body.data.title, 'y');
  const current = await call(server, 'PUT', '/chats/fresh', { token: alice.token, json: { data: { title: 'z' } }, headers: { 'if-match': String(replaced.headers['etag']) } });
  assert.equal(current.status, 200);
});

test('messages: ETag shared by both addresses, 304, and If-Match guarding PUT, PATCH and DELETE', async (t) => {
  const clock = new TestClock();
  const server = await withServer(t, { clock });
  const { alice, bob } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'Talk', members: [bob.userId] });
  const message = await postMessage(server, bob, chat.id, { text: 'original' });
  const path = `/chats/${chat.id}/messages/${message.id}`;
  const get = await call(server, 'GET', path, { token: bob.token });
  const etag = String(get.headers['etag']);
  const top = await call(server, 'GET', `/messages/${message.id}`, { token: alice.token, headers: { 'if-none-match': etag } });
  assert.equal(top.status, 304);
  assert.equal(top.headers['etag'], etag);
  clock.advance(1000);
  const writes: [string, unknown?][] = [['PATCH', { data: { text: 'changed' } }], ['PUT', { data: { text: 'changed' } }], ['DELETE']];
  for (const [method, json] of writes) {
    const stale = await call(server, method, path, { token: bob.token, json, headers: { 'if-match': '"stale"' } });
    assert.equal(stale.status, 412, method);
    const starred = await call(server, method, path, { token: bob.token, json, headers: { 'if-none-match': '*' } });
    assert.equal(starred.status, 412, `${method} If-None-Match: * on an existing message`);
    assert.deepEqual((await call(server, 'GET', path, { token: bob.token })).body, get.body, `${method} changed nothing`);
  }
  const patched = await call(server, 'PATCH', path, { token: bob.token, json: { data: { text: 'changed' } }, headers: { 'if-match': etag } });
  assert.equal(patched.status, 200);
  const deleted = await call(server, 'DELETE', path, { token: bob.token, headers: { 'if-match': String(patched.headers['etag']) } });
  assert.equal(deleted.status, 204);
});

test('members: If-None-Match: * adds only a new member, If-Match: * touches only an existing one', async (t) => {
  const server = await withServer(t);
  const { alice, bob, carol } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'Crew', members: [bob.userId] });
  const bobPath = `/chats/${chat.id}/members/${bob.userId}`;
  const carolPath = `/chats/${chat.id}/members/${carol.userId}`;
  const member = await call(server, 'GET', bobPath, { token: alice.token });
  const etag = String(member.headers['etag']);
  assert.equal((await call(server, 'GET', bobPath, { token: alice.token, headers: { 'if-none-match': etag } })).status, 304);
  assert.equal((await call(server, 'PUT', bobPath, { token: alice.token, headers: { 'if-none-match': '*' } })).status, 412);
  assert.equal((await call(server, 'PUT', carolPath, { token: alice.token, headers: { 'if-match': '*' } })).status, 412);
  assert.equal((await readChat(server, carol, chat.id)).status, 404, 'carol was not added');
  assert.equal((await call(server, 'DELETE', bobPath, { token: alice.token, headers: { 'if-match': '"stale"' } })).status, 412);
  assert.deepEqual((await readChat(server, alice, chat.id)).body.data.members, [alice.userId, bob.userId], 'bob was not removed');
  assert.equal((await call(server, 'PUT', carolPath, { token: alice.token, headers: { 'if-none-match': '*' } })).status, 204);
  assert.equal((await call(server, 'DELETE', bobPath, { token: alice.token, headers: { 'if-match': etag } })).status, 204);
});

test('DELETE of all messages: a page\'s ETag validates that page, not the whole collection, so only If-Match: * holds', async (t) => {
  const server = await withServer(t);
  const { alice } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'Talk' });
  await postMessage(server, alice, chat.id, { text: 'one' });
  const list = await call(server, 'GET', `/chats/${chat.id}/messages`, { token: alice.token });
  assert.match(String(list.headers['etag']), /^"[^"]+"$/);
  const paged = await call(server, 'DELETE', `/chats/${chat.id}/messages`, { token: alice.token, headers: { 'if-match': String(list.headers['etag']) } });
  assert.equal(paged.status, 412);
  const tagged = await call(server, 'DELETE', `/chats/${chat.id}/messages`, { token: alice.token, headers: { 'if-match': '"anything"' } });
  assert.equal(tagged.status, 412);
  assert.equal((await call(server, 'GET', `/chats/${chat.id}/messages`, { token: alice.token })).body.meta.total, 1);
  const starred = await call(server, 'DELETE', `/chats/${chat.id}/messages`, { token: alice.token, headers: { 'if-match': '*' } });
  assert.equal(starred.status, 204);
});

test('a collection page carries an ETag of what it shows; If-None-Match answers 304 until the page changes', async (t) => {
  const server = await withServer(t);
  const { alice, bob } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'Talk', members: [bob.userId] });
  const path = `/chats/${chat.id}/messages`;
  const first = await call(server, 'GET', path, { token: alice.token });
  const etag = String(first.headers['etag']);
  assert.match(etag, /^"[^"]+"$/);
  for (const header of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
    const res = await call(server, 'GET', path, { token: bob.token, headers: { 'if-none-match': header } });
    assert.equal(res.status, 304, header);
    assert.equal(res.headers['etag'], etag, 'the same page for every member has the same tag');
    assert.equal(res.raw.length, 0);
  }
  const head = await call(server, 'HEAD', path, { token: alice.token, headers: { 'if-none-match': etag } });
  assert.equal(head.status, 304);
  assert.equal((await call(server, 'GET', path, { token: alice.token, headers: { 'if-none-match': '"other"' } })).status, 200);
  // Another representation, and another page of the same collection, each have their own tag.
  const xml = await call(server, 'GET', path, { token: alice.token, headers: { accept: 'application/xml', 'if-none-match': etag } });
  assert.equal(xml.status, 200);
  assert.notEqual(xml.headers['etag'], etag);
  const limited = await call(server, 'GET', `${path}?limit=5`, { token: alice.token, headers: { 'if-none-match': etag } });
  assert.equal(limited.status, 200);
  assert.notEqual(limited.headers['etag'], etag);
  // A new message changes the page, so the old tag no longer matches.
  await postMessage(server, bob, chat.id, { text: 'news' });
  const changed = await call(server, 'GET', path, { token: alice.token, headers: { 'if-none-match': etag } });
  assert.equal(changed.status, 200);
  assert.equal(changed.body.data.length, 1);
  assert.notEqual(changed.headers['etag'], etag);
  // Every collection does the same: chats, users, members, search.
  for (const other of ['/chats', '/users', `/chats/${chat.id}/members`, '/search?q=news']) {
    const res = await call(server, 'GET', other, { token: alice.token });
    assert.equal(res.status, 200, other);
    const again = await call(server, 'GET', other, { token: alice.token, headers: { 'if-none-match': String(res.headers['etag']) } });
    assert.equal(again.status, 304, other);
  }
});
