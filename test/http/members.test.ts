// Members of a chat over HTTP (docs/protocol.md §4.3): listing, the owner adds and removes, a member leaves.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { call, registerAndLogIn, runSql, TestClock, withServer } from './client.ts';
import { assertFieldError, createChat, postMessage, readChat, threeUsers } from './chat-fixtures.ts';

test('GET /chats/{id}/members lists the members with their logins, with the query conventions', async (t) => {
  const clock = new TestClock();
  const server = await withServer(t, { clock });
  const { alice, bob, carol } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'Crew', members: [bob.userId] });
  const at = new Date(clock.time).toISOString();
  const list = await call(server, 'GET', `/chats/${chat.id}/members`, { token: bob.token });
  assert.equal(list.status, 200);
  const expected = [
    { id: alice.userId, userId: alice.userId, login: alice.login, addedAt: at },
    { id: bob.userId, userId: bob.userId, login: bob.login, addedAt: at },
  ].sort((a, b) => a.userId.localeCompare(b.userId));
  assert.deepEqual(list.body, { data: expected, meta: { total: 2, limit: 20, offset: 0 } });
  const filtered = await call(server, 'GET', `/chats/${chat.id}/members?login=${bob.login}`, { token: alice.token });
  assert.deepEqual(filtered.body.data, [{ id: bob.userId, userId: bob.userId, login: bob.login, addedAt: at }]);
  const paged = await call(server, 'GET', `/chats/${chat.id}/members?limit=1&sort[login]=desc`, { token: alice.token });
  assert.equal(paged.body.data.length, 1);
  assert.equal(paged.headers['link'], `</chats/${chat.id}/members?sort[login]=desc&limit=1&offset=1>; rel="next"`);
  assertFieldError(await call(server, 'GET', `/chats/${chat.id}/members?password=x`, { token: alice.token }), 'password');
  assert.equal((await call(server, 'GET', `/chats/${chat.id}/members`, { token: carol.token })).status, 404);
});

test('GET of one member answers it in the envelope with an ETag; a non-member is a 404', async (t) => {
  const clock = new TestClock();
  const server = await withServer(t, { clock });
  const { alice, bob, carol } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'Crew', members: [bob.userId] });
  const res = await call(server, 'GET', `/chats/${chat.id}/members/${bob.userId}`, { token: alice.token });
  assert.equal(res.status, 200);
  assert.deepEqual(res.body, { data: { id: bob.userId, userId: bob.userId, login: bob.login, addedAt: new Date(clock.time).toISOString() } });
  assert.ok(res.headers['etag']);
  const outsider = await call(server, 'GET', `/chats/${chat.id}/members/${carol.userId}`, { token: alice.token });
  assert.equal(outsider.status, 404);
  assert.equal(outsider.body.detail, `User ${carol.userId} is not a member of chat ${chat.id}`);
});

test('PUT /chats/{id}/members/{userId}: the owner adds (204, idempotent); a member gets 403; an unknown user is 400', async (t) => {
  const clock = new TestClock();
  const server = await withServer(t, { clock });
  const { alice, bob, carol } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'Crew', members: [bob.userId] });
  clock.advance(1000);
  const added = await call(server, 'PUT', `/chats/${chat.id}/members/${carol.userId}`, { token: alice.token });
  assert.equal(added.status, 204);
  assert.equal(added.raw.length, 0);
  const after = await readChat(server, carol, chat.id);
  assert.equal(after.status, 200, 'carol now sees the chat');
  const addedAt = new Date(clock.time).toISOString();
  assert.deepEqual(after.body.data, { ...chat, members: [alice.userId, bob.userId, carol.userId], updatedAt: addedAt });

  clock.advance(1000);
  const again = await call(server, 'PUT', `/chats/${chat.id}/members/${carol.userId}`, { token: alice.token, json: { data: { userId: carol.userId } } });
  assert.equal(again.status, 204);
  assert.deepEqual((await readChat(server, alice, chat.id)).body, after.body, 'adding a member again changes nothing');

  const dave = await registerAndLogIn(server);
  const byMember = await call(server, 'PUT', `/chats/${chat.id}/members/${dave.userId}`, { token: bob.token });
  assert.equal(byMember.status, 403);
  assert.equal(byMember.body.code, 'ERR_FORBIDDEN');
  assertFieldError(await call(server, 'PUT', `/chats/${chat.id}/members/ghost`, { token: alice.token }), 'userId');
  assertFieldError(await call(server, 'PUT', `/chats/${chat.id}/members/${dave.userId}`, { token: alice.token, json: { data: { userId: bob.userId } } }), 'data.userId');
  assertFieldError(await call(server, 'PUT', `/chats/${chat.id}/members/${dave.userId}`, { token: alice.token, json: { data: { role: 'admin' } } }), 'data.role');
  assert.equal((await readChat(server, dave, chat.id)).status, 404, 'none of those added dave');
});

test('DELETE of a member: the owner removes others, a member leaves, nobody else removes anyone', async (t) => {
  const clock = new TestClock();
  const server = await withServer(t, { clock });
  const { alice, bob, carol } = await threeUsers(server);
  const dave = await registerAndLogIn(server);
  const chat = await createChat(server, alice, { title: 'Crew', members: [bob.userId, carol.userId, dave.userId] });
  const bobsMessage = await postMessage(server, bob, chat.id, { text: 'I was here' });

  const byMember = await call(server, 'DELETE', `/chats/${chat.id}/members/${carol.userId}`, { token: bob.token });
  assert.equal(byMember.status, 403);
  const ownerLeaves = await call(server, 'DELETE', `/chats/${chat.id}/members/${alice.userId}`, { token: alice.token });
  assert.equal(ownerLeaves.status, 403);
  assert.equal(ownerLeaves.body.detail, 'The owner cannot leave the chat; hand it over (PATCH ownerId) or delete the chat instead');
  const memberRemovesOwner = await call(server, 'DELETE', `/chats/${chat.id}/members/${alice.userId}`, { token: bob.token });
  assert.equal(memberRemovesOwner.status, 403);
  assert.deepEqual((await readChat(server, alice, chat.id)).body.data.members, [alice.userId, ...[bob.userId, carol.userId, dave.userId].sort()]);

  clock.advance(1000);
  const removed = await call(server, 'DELETE', `/chats/${chat.id}/members/${carol.userId}`, { token: alice.token });
  assert.equal(removed.status, 204);
  assert.equal(removed.raw.length, 0);
  assert.equal((await readChat(server, carol, chat.id)).status, 404);
  const read = await readChat(server, alice, chat.id);
  assert.equal(read.body.data.updatedAt, new Date(clock.time).toISOString());
  assert.equal((await call(server, 'DELETE', `/chats/${chat.id}/members/${carol.userId}`, { token: alice.token })).status, 404, 'no longer a member');

  const leaves = await call(server, 'DELETE', `/chats/${chat.id}/members/${bob.userId}`, { token: bob.token });
  assert.equal(leaves.status, 204);
  assert.equal((await readChat(server, bob, chat.id)).status, 404);
  const message = await call(server, 'GET', `/chats/${chat.id}/messages/${bobsMessage.id}`, { token: dave.token });
  assert.deepEqual(message.body.data, bobsMessage, 'a member who left leaves their messages behind');
  assert.equal((await call(server, 'DELETE', `/chats/${chat.id}/members/${dave.userId}`, { token: carol.token })).status, 404, 'a former member sees nothing');
  assert.deepEqual((await readChat(server, alice, chat.id)).body.data.members, [alice.userId, dave.userId]);
});

test('the members page (HTML) names the people the owner may add by login, each with an Add button; their ids only in links and forms', async (t) => {
  const server = await withServer(t);
  const { alice, bob, carol } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'Crew', members: [bob.userId] });
  const page = await call(server, 'GET', `/chats/${chat.id}/members`, { token: alice.token, headers: { accept: 'text/html' } });
  assert.equal(page.status, 200);
  assert.equal(page.headers['content-type'], 'text/html; charset=utf-8');
  const section = /<section aria-labelledby="add-heading">.*?<\/section>/s.exec(page.text)?.[0] ?? '';
  // With her presence dot (docs/html.md): carol has made no request with her session, so offline.
  const dot = `<span class="presence" role="img" aria-label="offline" title="offline" data-presence="offline" data-presence-of="${carol.userId}"></span>`;
  assert.match(section, new RegExp(`<li><a class="user" href="/users/${carol.userId}">${dot}<bdi>${carol.login}</bdi></a> <form method="post" action="/chats/${chat.id}/members/${carol.userId}"`));
  assert.match(section, new RegExp(`<button type="submit" aria-label="Add ${carol.login}">Add</button>`));
  // What a reader sees is the text outside the tags: logins, never an id. The folded "All fields, as the API has
  // them" section keeps the ids on purpose (docs/html.md), so it is left out.
  const visible = page.text.replace(/<details class="fields">.*?<\/details>/gs, '').replace(/<[^>]*>/g, ' ');
  for (const user of [alice, bob, carol]) {
    assert.ok(visible.includes(user.login), `${user.login} is shown`);
    assert.ok(!visible.includes(user.userId), `the id of ${user.login} is not shown`);
  }
});

test('a chat deleted while its owner adds a member (after the checks, before the write): 404, never a 500', async (t) => {
  const server = await withServer(t);
  const { alice, bob } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'Going' });
  // The moment PostgreSQL allows (the checks run outside the write's transaction): the chat goes just then.
  const users = server.app.services.storage.users;
  const findUserById = users.findUserById.bind(users);
  t.mock.method(users, 'findUserById', async (id: string) => {
    await runSql(server, `DELETE FROM chats WHERE id = '${chat.id}'`);
    return findUserById(id);
  });
  const res = await call(server, 'PUT', `/chats/${chat.id}/members/${bob.userId}`, { token: alice.token });
  t.mock.restoreAll();
  assert.equal(res.status, 404, res.text);
  assert.equal(res.headers['content-type'], 'application/problem+json');
  assert.deepEqual(res.body, {
    type: 'https://chat-api.invalid/problems/not-found', title: 'Not Found', status: 404,
    detail: 'What this request refers to was deleted while it ran', code: 'ERR_NOT_FOUND',
  });
  assert.equal((await readChat(server, alice, chat.id)).status, 404);
});
