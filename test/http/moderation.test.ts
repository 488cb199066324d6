// Moderation over HTTP (docs/protocol.md §4.7): an admin deletes any message or chat and removes any member by id,
// member or not, each audited; reading stays members-only; the owner (or an admin) hands a chat over.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RunningServer } from '../../src/index.ts';
import { call, registerAndLogIn, TestClock, withServer, type LoggedIn } from './client.ts';
import { createChat, postMessage, readChat } from './chat-fixtures.ts';
import { openReady } from './event-stream.ts';

/** The admin (the first account, in no chat), alice (an owner), bob (her chat's member), carol (an outsider). */
async function team(server: RunningServer): Promise<{ admin: LoggedIn; alice: LoggedIn; bob: LoggedIn; carol: LoggedIn }> {
  const admin = await registerAndLogIn(server, 'admin');
  return { admin, alice: await registerAndLogIn(server, 'alice'), bob: await registerAndLogIn(server, 'bob'), carol: await registerAndLogIn(server, 'carol') };
}

/** The audit log, oldest first, without the entries' ids and times. */
async function audit(server: RunningServer, admin: LoggedIn): Promise<Record<string, unknown>[]> {
  const log = await call(server, 'GET', '/audit?sort=at', { token: admin.token });
  assert.equal(log.status, 200);
  return log.body.data.map(({ id: _id, at: _at, ...entry }: Record<string, unknown>) => entry);
}

function notFoundChat(chatId: string): Record<string, unknown> {
  return { type: 'https://chat-api.invalid/problems/not-found', title: 'Not Found', status: 404, detail: `No chat ${chatId}`, code: 'ERR_NOT_FOUND' };
}

test('an admin deletes any message by its address, member or not; it is audited; reading stays members-only', async (t) => {
  const server = await withServer(t);
  const { admin, alice, bob, carol } = await team(server);
  const chat = await createChat(server, alice, { title: 'Reported', members: [bob.userId] });
  const bad = await postMessage(server, bob, chat.id, { text: 'something to report' });
  const mine = await postMessage(server, bob, chat.id, { text: 'his own' });
  const aliceLive = await openReady(server, { token: alice.token });
  t.after(() => aliceLive.close());

  // Reading is for members only, admins included.
  for (const path of [`/chats/${chat.id}`, `/chats/${chat.id}/messages`, `/chats/${chat.id}/messages/${bad.id}`, `/chats/${chat.id}/members`, `/messages/${bad.id}`]) {
    assert.equal((await call(server, 'GET', path, { token: admin.token })).status, 404, path);
  }
  // Anyone else who is not a member: the same 404 as a chat that does not exist.
  const outsider = await call(server, 'DELETE', `/chats/${chat.id}/messages/${bad.id}`, { token: carol.token });
  assert.equal(outsider.status, 404);
  assert.deepEqual(outsider.body, notFoundChat(chat.id));
  const member = await call(server, 'DELETE', `/chats/${chat.id}/messages/${mine.id}`, { token: carol.token });
  assert.deepEqual(member.body, notFoundChat(chat.id));
  // A member who is neither the author nor the owner: 403.
  const dave = await registerAndLogIn(server, 'dave');
  assert.equal((await call(server, 'PUT', `/chats/${chat.id}/members/${dave.userId}`, { token: alice.token })).status, 204);
  const byMember = await call(server, 'DELETE', `/chats/${chat.id}/messages/${bad.id}`, { token: dave.token });
  assert.equal(byMember.status, 403);
  assert.equal(byMember.body.detail, 'Only the author, the chat\'s owner or an admin may delete a message');

  const deleted = await call(server, 'DELETE', `/chats/${chat.id}/messages/${bad.id}`, { token: admin.token });
  assert.equal(deleted.status, 204);
  assert.equal(deleted.raw.length, 0);
  assert.equal((await call(server, 'GET', `/chats/${chat.id}/messages/${bad.id}`, { token: alice.token })).status, 404);
  const gone = await call(server, 'DELETE', `/chats/${chat.id}/messages/${bad.id}`, { token: admin.token });
  assert.equal(gone.status, 404);
  assert.equal(gone.body.detail, `No message ${bad.id} in chat ${chat.id}`);
  const missing = await call(server, 'DELETE', '/chats/no-such-chat/messages/X', { token: admin.token });
  assert.deepEqual(missing.body, notFoundChat('no-such-chat'));
  // The members hear of it as of any delete.
  assert.deepEqual((await aliceLive.next('message.deleted')).json.data, { id: bad.id });
  // The owner's delete of bob's message is the owner's right, not moderation: not audited.
  assert.equal((await call(server, 'DELETE', `/chats/${chat.id}/messages/${mine.id}`, { token: alice.token })).status, 204);
  assert.deepEqual(await audit(server, admin), [
    { actorId: admin.userId, action: 'message.delete', targetType: 'message', targetId: bad.id, detail: { chatId: chat.id, authorId: bob.userId } },
  ]);
});

test('an admin who is a member sees delete among any message\'s actions; a member does not', async (t) => {
  const server = await withServer(t);
  const { admin, alice, bob } = await team(server);
  const chat = await createChat(server, alice, { title: 'Actions', members: [bob.userId, admin.userId] });
  const message = await postMessage(server, alice, chat.id, { text: 'hello' });
  const ids = async (user: LoggedIn) => (await call(server, 'GET', `/chats/${chat.id}/messages/${message.id}/actions`, { token: user.token })).body.data.map((action: { id: string }) => action.id);
  assert.deepEqual(await ids(admin), ['delete', 'react', 'reply']);
  assert.deepEqual(await ids(bob), ['react', 'reply']);
  const page = await call(server, 'GET', `/chats/${chat.id}/messages/${message.id}`, { token: admin.token, headers: { accept: 'text/html' } });
  assert.match(page.text, /Delete this message/);
});

test('an admin deletes any chat and removes any member but the owner; each is audited, the owner\'s own acts are not', async (t) => {
  const server = await withServer(t);
  const { admin, alice, bob, carol } = await team(server);
  const chat = await createChat(server, alice, { title: 'Noisy', members: [bob.userId, carol.userId] });
  const bobLive = await openReady(server, { token: bob.token });
  t.after(() => bobLive.close());

  const outsider = await call(server, 'DELETE', `/chats/${chat.id}/members/${carol.userId}`, { token: (await registerAndLogIn(server, 'eve')).token });
  assert.deepEqual(outsider.body, notFoundChat(chat.id));
  const byMember = await call(server, 'DELETE', `/chats/${chat.id}/members/${carol.userId}`, { token: bob.token });
  assert.equal(byMember.status, 403);
  assert.equal(byMember.body.detail, 'Only the chat\'s owner may remove other members');
  const removed = await call(server, 'DELETE', `/chats/${chat.id}/members/${carol.userId}`, { token: admin.token });
  assert.equal(removed.status, 204);
  assert.equal((await readChat(server, carol, chat.id)).status, 404);
  assert.equal((await bobLive.next('member.removed')).json.data.userId, carol.userId);
  const owner = await call(server, 'DELETE', `/chats/${chat.id}/members/${alice.userId}`, { token: admin.token });
  assert.equal(owner.status, 403);
  assert.equal(owner.body.detail, 'The owner cannot leave the chat; hand it over (PATCH ownerId) or delete the chat instead');
  const notMember = await call(server, 'DELETE', `/chats/${chat.id}/members/${carol.userId}`, { token: admin.token });
  assert.equal(notMember.status, 404);
  // Other writes stay the owner's: to an admin who is not a member the chat is not there.
  assert.deepEqual((await call(server, 'PATCH', `/chats/${chat.id}`, { token: admin.token, json: { data: { title: 'Quiet' } } })).body, notFoundChat(chat.id));
  assert.equal((await call(server, 'PUT', `/chats/${chat.id}/members/${admin.userId}`, { token: admin.token })).status, 404);

  assert.equal((await call(server, 'DELETE', `/chats/${chat.id}`, { token: bob.token })).status, 403);
  const deleted = await call(server, 'DELETE', `/chats/${chat.id}`, { token: admin.token });
  assert.equal(deleted.status, 204);
  assert.equal((await readChat(server, alice, chat.id)).status, 404);
  assert.deepEqual((await bobLive.next('chat.deleted')).json.data, { id: chat.id });
  // alice deleting her own chat, and removing a member of it, is hers to do: no entry.
  const own = await createChat(server, alice, { title: 'Mine', members: [bob.userId] });
  assert.equal((await call(server, 'DELETE', `/chats/${own.id}/members/${bob.userId}`, { token: alice.token })).status, 204);
  assert.equal((await call(server, 'DELETE', `/chats/${own.id}`, { token: alice.token })).status, 204);
  assert.deepEqual(await audit(server, admin), [
    { actorId: admin.userId, action: 'member.remove', targetType: 'member', targetId: carol.userId, detail: { chatId: chat.id } },
    { actorId: admin.userId, action: 'chat.delete', targetType: 'chat', targetId: chat.id, detail: { title: 'Noisy', ownerId: alice.userId, members: 2 } },
  ]);
});

test('PATCH ownerId hands a chat to a member: the owner may, an admin may (audited), nobody else; chat.updated follows', async (t) => {
  const clock = new TestClock();
  const server = await withServer(t, { clock });
  const { admin, alice, bob, carol } = await team(server);
  const chat = await createChat(server, alice, { title: 'Handover', members: [bob.userId, carol.userId] });
  const carolLive = await openReady(server, { token: carol.token });
  t.after(() => carolLive.close());
  const patch = (user: LoggedIn, data: Record<string, unknown>) => call(server, 'PATCH', `/chats/${chat.id}`, { token: user.token, json: { data } });

  assert.equal((await patch(bob, { ownerId: bob.userId })).status, 403, 'a member cannot take the chat');
  const stranger = await patch(alice, { ownerId: admin.userId });
  assert.equal(stranger.status, 409);
  assert.deepEqual(stranger.body, {
    type: 'https://chat-api.invalid/problems/conflict', title: 'Conflict', status: 409,
    detail: 'data.ownerId: must be a member of the chat: add them first', code: 'ERR_CONFLICT',
    errors: [{ field: 'data.ownerId', message: 'must be a member of the chat: add them first' }],
  });
  const malformed = await patch(alice, { ownerId: 42 });
  assert.equal(malformed.status, 400);
  assert.deepEqual(malformed.body.errors, [{ field: 'data.ownerId', message: 'must be the user id of a member of the chat' }]);
  const byPut = await call(server, 'PUT', `/chats/${chat.id}`, { token: alice.token, json: { data: { title: 'Handover', ownerId: bob.userId } } });
  assert.equal(byPut.status, 400);
  assert.deepEqual(byPut.body.errors, [{ field: 'data.ownerId', message: 'is changed only by PATCH' }]);

  clock.advance(1000);
  const handed = await patch(alice, { ownerId: bob.userId });
  assert.equal(handed.status, 200, handed.text);
  const at = new Date(clock.time).toISOString();
  assert.deepEqual(handed.body.data, { ...chat, ownerId: bob.userId, members: [bob.userId, ...[alice.userId, carol.userId].sort()], updatedAt: at });
  const event = await carolLive.next('chat.updated');
  assert.equal(event.json.data.ownerId, bob.userId);
  assert.equal(event.json.data.updatedAt, at);
  assert.equal((await patch(alice, { title: 'Mine again' })).status, 403, 'the former owner is a member now');
  assert.equal((await call(server, 'DELETE', `/chats/${chat.id}/members/${alice.userId}`, { token: alice.token })).status, 204, 'and may leave');

  // An admin who is not a member hands it over too, with nothing else in the body.
  assert.deepEqual((await patch(admin, { ownerId: carol.userId, title: 'Taken' })).body, notFoundChat(chat.id));
  clock.advance(1000);
  const byAdmin = await patch(admin, { ownerId: carol.userId });
  assert.equal(byAdmin.status, 200);
  assert.equal(byAdmin.body.data.ownerId, carol.userId);
  assert.equal((await patch(admin, { ownerId: carol.userId })).status, 200, 'the same owner again changes nothing');
  assert.deepEqual(await audit(server, admin), [
    { actorId: admin.userId, action: 'chat.transfer', targetType: 'chat', targetId: chat.id, detail: { fromId: bob.userId, toId: carol.userId } },
  ]);
  // On PostgreSQL the stream hears of the commit a moment after the answer: wait for the third change to arrive.
  const changes = (stream: typeof carolLive) => stream.logEvents.filter((e) => e.type === 'chat.updated');
  await carolLive.until((stream) => changes(stream).length >= 3, 'the admin\'s hand-over on carol\'s stream');
  assert.deepEqual(changes(carolLive).map((e) => e.json.data.ownerId), [bob.userId, bob.userId, carol.userId]);
});

test('HTML: the members page marks the owner; the owner sees Make owner for each other member, a form that works without scripts', async (t) => {
  const server = await withServer(t);
  const { alice, bob } = await team(server);
  const chat = await createChat(server, alice, { title: 'Forms', members: [bob.userId] });
  const cookie = (user: LoggedIn) => ({ cookie: `session=${user.token}`, accept: 'text/html' });
  const page = await call(server, 'GET', `/chats/${chat.id}/members`, { headers: cookie(alice) });
  assert.equal(page.status, 200);
  assert.match(page.text, /<bdi>alice<\/bdi><\/a> <span class="badge">owner<\/span>/);
  const form = `<form method="post" action="/chats/${chat.id}" enctype="application/x-www-form-urlencoded" class="inline"><input type="hidden" name="_method" value="PATCH">`
    + `<input type="hidden" name="_back" value="/chats/${chat.id}/members"><input type="hidden" name="ownerId" value="${bob.userId}">`
    + '<button type="submit" aria-label="Make owner: bob">Make owner</button></form>';
  assert.ok(page.text.includes(form), page.text);
  assert.ok(!(await call(server, 'GET', `/chats/${chat.id}/members`, { headers: cookie(bob) })).text.includes('Make owner'), 'only the owner sees it');

  const posted = await call(server, 'POST', `/chats/${chat.id}`, {
    body: `_method=PATCH&_back=${encodeURIComponent(`/chats/${chat.id}/members`)}&ownerId=${bob.userId}`,
    headers: { ...cookie(alice), origin: server.url, 'content-type': 'application/x-www-form-urlencoded' },
    unchecked: 'an HTML form post (docs/html.md) is outside the OpenAPI document, which describes the JSON exchange',
  });
  assert.equal(posted.status, 303, posted.text);
  assert.equal(posted.headers['location'], `/chats/${chat.id}/members`);
  assert.equal((await readChat(server, alice, chat.id)).body.data.ownerId, bob.userId);
  const after = await call(server, 'GET', `/chats/${chat.id}/members`, { headers: cookie(alice) });
  assert.match(after.text, /<bdi>bob<\/bdi><\/a> <span class="badge">owner<\/span>/);
});
