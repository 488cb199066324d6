// Mentions over HTTP (docs/protocol.md §14.2): @login of a member as a whole word in the case stored, @all for the owner
// and admins, computed on post and edit; mentionCount kept like unreadCount; GET /mentions across chats, newest first.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { call, registerAndLogIn, TestClock, withServer } from './client.ts';
import { createChat, postMessage, threeUsers } from './chat-fixtures.ts';

test('@login of a member becomes mentions on the message; mentionCount counts it for the mentioned until read', async (t) => {
  const clock = new TestClock();
  const server = await withServer(t, { clock });
  const { alice, bob, carol } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'Crew', members: [bob.userId, carol.userId] });
  const at = new Date(clock.time).toISOString();
  const posted = await call(server, 'POST', `/chats/${chat.id}/messages`, { token: alice.token, json: { data: { text: `hi @${bob.login}, and @${carol.login}.` } } });
  assert.equal(posted.status, 201);
  assert.deepEqual(posted.body, { data: {
    id: posted.body.data.id, chatId: chat.id, authorId: alice.userId, text: `hi @${bob.login}, and @${carol.login}.`, replyTo: null,
    createdAt: at, updatedAt: at, editedAt: null, reactions: [], mentions: [bob.userId, carol.userId], attachments: [],
  } });
  const counts = async (): Promise<number[]> => Promise.all([alice, bob, carol].map(async (user) => (await call(server, 'GET', `/chats/${chat.id}`, { token: user.token })).body.data.mentionCount));
  assert.deepEqual(await counts(), [0, 1, 1]);
  await postMessage(server, carol, chat.id, { text: 'no mention here' });
  assert.deepEqual(await counts(), [0, 1, 0], 'posting moves the author\'s marker: their mentions are read too');
  const marker = await call(server, 'PUT', `/chats/${chat.id}/read`, { token: bob.token, json: { data: { lastReadId: posted.body.data.id } } });
  assert.deepEqual(marker.body, { data: { chatId: chat.id, lastReadId: posted.body.data.id, unreadCount: 1, mentionCount: 0 } });
  assert.deepEqual(await counts(), [0, 0, 0]);
  // Marking unread again counts the mention again; deleting the message takes it off.
  const back = await call(server, 'PUT', `/chats/${chat.id}/read`, { token: bob.token, json: { data: { lastReadId: null } } });
  assert.deepEqual(back.body.data, { chatId: chat.id, lastReadId: null, unreadCount: 2, mentionCount: 1 });
  assert.deepEqual(await counts(), [0, 1, 0]);
  assert.equal((await call(server, 'DELETE', `/chats/${chat.id}/messages/${posted.body.data.id}`, { token: alice.token })).status, 204);
  assert.deepEqual(await counts(), [0, 0, 0]);
  const filtered = await call(server, 'GET', '/chats?mentionCount=0&sort=-mentionCount', { token: carol.token });
  assert.deepEqual(filtered.body.data.map((found: { id: string }) => found.id), [chat.id]);
});

test('only whole words in the case stored of members mention; an edit adds and removes mentions', async (t) => {
  const server = await withServer(t);
  const { alice, bob, carol } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'Words', members: [bob.userId] });
  const mentionsOf = async (text: string): Promise<string[]> => (await postMessage(server, alice, chat.id, { text })).mentions;
  assert.deepEqual(await mentionsOf(`@${bob.login.toUpperCase()} @${bob.login}x mail@${bob.login} @${carol.login}`), [], 'case, longer word, e-mail, non-member');
  assert.deepEqual(await mentionsOf(`(@${bob.login}) @${alice.login}: @${bob.login}`), [bob.userId, alice.userId], 'in order of first mention, each once');
  const message = await postMessage(server, alice, chat.id, { text: `@${bob.login} look` });
  const edited = await call(server, 'PATCH', `/chats/${chat.id}/messages/${message.id}`, { token: alice.token, json: { data: { text: 'never mind' } } });
  assert.deepEqual(edited.body.data.mentions, []);
  assert.equal((await call(server, 'GET', `/chats/${chat.id}`, { token: bob.token })).body.data.mentionCount, 1);
  const again = await call(server, 'PUT', `/chats/${chat.id}/messages/${message.id}`, { token: alice.token, json: { data: { text: `sorry @${bob.login}` } } });
  assert.deepEqual(again.body.data.mentions, [bob.userId]);
  assert.equal((await call(server, 'GET', `/chats/${chat.id}`, { token: bob.token })).body.data.mentionCount, 2);
  const readOnly = await call(server, 'PATCH', `/chats/${chat.id}/messages/${message.id}`, { token: alice.token, json: { data: { mentions: [] } } });
  assert.equal(readOnly.status, 400);
  assert.deepEqual(readOnly.body.errors, [{ field: 'data.mentions', message: 'is read-only: the server sets it' }]);
});

test('@all mentions every member: the owner and admins may, anyone else gets 403 naming data.text', async (t) => {
  const server = await withServer(t);
  const admin = await registerAndLogIn(server);
  const { alice, bob, carol } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'Everyone', members: [bob.userId, carol.userId, admin.userId] });
  const refused = await call(server, 'POST', `/chats/${chat.id}/messages`, { token: bob.token, json: { data: { text: 'hey @all' } } });
  assert.equal(refused.status, 403);
  assert.deepEqual(refused.body, {
    type: 'https://chat-api.invalid/problems/forbidden', title: 'Forbidden', status: 403, code: 'ERR_FORBIDDEN',
    detail: 'data.text: mentions @all, which only the chat\'s owner and admins may', errors: [{ field: 'data.text', message: 'mentions @all, which only the chat\'s owner and admins may' }],
  });
  const plain = await postMessage(server, bob, chat.id, { text: 'hey all' });
  const editedToAll = await call(server, 'PATCH', `/chats/${chat.id}/messages/${plain.id}`, { token: bob.token, json: { data: { text: 'hey @all' } } });
  assert.equal(editedToAll.status, 403);
  const byOwner = await postMessage(server, alice, chat.id, { text: `@all lunch, @${bob.login}?` });
  // Every member in the order they joined (all at once here: by id), then nobody twice.
  assert.deepEqual(byOwner.mentions, [alice.userId, bob.userId, carol.userId, admin.userId].sort());
  const byAdmin = await postMessage(server, admin, chat.id, { text: 'Listen, @all.' });
  assert.deepEqual(byAdmin.mentions, byOwner.mentions);
  // The author's own mention never counts for them.
  assert.equal((await call(server, 'GET', `/chats/${chat.id}`, { token: alice.token })).body.data.mentionCount, 1);
  assert.equal((await call(server, 'GET', `/chats/${chat.id}`, { token: carol.token })).body.data.mentionCount, 2);
});

test('GET /mentions: the caller\'s mentions in the chats they are in, newest first, with the query conventions', async (t) => {
  const clock = new TestClock();
  const server = await withServer(t, { clock });
  const { alice, bob, carol } = await threeUsers(server);
  const one = await createChat(server, alice, { title: 'One', members: [bob.userId] });
  const two = await createChat(server, carol, { title: 'Two', members: [bob.userId] });
  const first = await postMessage(server, alice, one.id, { text: `@${bob.login} first` });
  clock.advance(1000);
  await postMessage(server, alice, one.id, { text: 'nobody' });
  const second = await postMessage(server, carol, two.id, { text: `second @${bob.login}` });
  const list = await call(server, 'GET', '/mentions', { token: bob.token });
  assert.equal(list.status, 200);
  assert.deepEqual(list.body, { data: [second, first], meta: { total: 2, limit: 20, offset: 0 } });
  assert.deepEqual((await call(server, 'GET', `/mentions?chatId=${one.id}`, { token: bob.token })).body.data, [first]);
  assert.deepEqual((await call(server, 'GET', '/mentions?sort=createdAt', { token: bob.token })).body.data, [first, second]);
  assert.deepEqual((await call(server, 'GET', '/mentions', { token: alice.token })).body.data, []);
  // Out of a chat, out of its mentions.
  assert.equal((await call(server, 'DELETE', `/chats/${two.id}/members/${bob.userId}`, { token: bob.token })).status, 204);
  assert.deepEqual((await call(server, 'GET', '/mentions', { token: bob.token })).body.data, [first]);
  const html = await call(server, 'GET', '/mentions', { token: bob.token, headers: { accept: 'text/html' } });
  assert.equal(html.status, 200);
  const history = await call(server, 'GET', `/chats/${one.id}/messages`, { token: bob.token, headers: { accept: 'text/html' } });
  assert.match(history.text, new RegExp(`<mark class="mention mine"><strong>@${bob.login}</strong></mark> first`));
  const asAlice = await call(server, 'GET', `/chats/${one.id}/messages`, { token: alice.token, headers: { accept: 'text/html' } });
  assert.match(asAlice.text, new RegExp(`<mark class="mention">@${bob.login}</mark> first`));
});
