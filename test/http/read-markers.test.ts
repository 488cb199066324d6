// Read markers and unread counts over HTTP (docs/protocol.md §10.1): GET/PUT /chats/{id}/read, the chat's own fields, GET /chats queries.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RunningServer } from '../../src/index.ts';
import { call, withServer, type LoggedIn } from './client.ts';
import { assertFieldError, createChat, postMessage, threeUsers } from './chat-fixtures.ts';

async function readMarker(server: RunningServer, user: LoggedIn, chatId: string): Promise<{ chatId: string; lastReadId: string | null; unreadCount: number, mentionCount: 0 }> {
  const res = await call(server, 'GET', `/chats/${chatId}/read`, { token: user.token });
  assert.equal(res.status, 200, res.text);
  // The chat carries the same two fields for its caller.
  const chat = (await call(server, 'GET', `/chats/${chatId}`, { token: user.token })).body.data;
  assert.deepEqual({ lastReadId: chat.lastReadId, unreadCount: chat.unreadCount, mentionCount: 0 }, { lastReadId: res.body.data.lastReadId, unreadCount: res.body.data.unreadCount, mentionCount: 0 });
  return res.body.data;
}

function setMarker(server: RunningServer, user: LoggedIn, chatId: string, lastReadId: unknown) {
  return call(server, 'PUT', `/chats/${chatId}/read`, { token: user.token, json: { data: { lastReadId } } });
}

test('unreadCount counts the messages of others after the marker; posting moves the author\'s marker', async (t) => {
  const server = await withServer(t);
  const { alice, bob } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'Unread', members: [bob.userId] });
  assert.deepEqual(await readMarker(server, bob, chat.id), { chatId: chat.id, lastReadId: null, unreadCount: 0, mentionCount: 0 });
  const first = await postMessage(server, alice, chat.id, { text: 'one' });
  const second = await postMessage(server, alice, chat.id, { text: 'two' });
  assert.deepEqual(await readMarker(server, bob, chat.id), { chatId: chat.id, lastReadId: null, unreadCount: 2, mentionCount: 0 });
  assert.deepEqual(await readMarker(server, alice, chat.id), { chatId: chat.id, lastReadId: second.id, unreadCount: 0, mentionCount: 0 }, 'her own messages are never unread');

  const read = await setMarker(server, bob, chat.id, first.id);
  assert.equal(read.status, 200);
  assert.deepEqual(read.body, { data: { chatId: chat.id, lastReadId: first.id, unreadCount: 1, mentionCount: 0 } });
  // Bob posts: his marker moves to his message, so everything before it counts as read.
  const reply = await postMessage(server, bob, chat.id, { text: 'three' });
  assert.deepEqual(await readMarker(server, bob, chat.id), { chatId: chat.id, lastReadId: reply.id, unreadCount: 0, mentionCount: 0 });
  assert.deepEqual(await readMarker(server, alice, chat.id), { chatId: chat.id, lastReadId: second.id, unreadCount: 1, mentionCount: 0 });
  await postMessage(server, alice, chat.id, { text: 'four' });
  assert.equal((await readMarker(server, bob, chat.id)).unreadCount, 1);
});

test('PUT /chats/{id}/read moves forward and back ("mark as unread"), null marks the whole chat unread', async (t) => {
  const server = await withServer(t);
  const { alice, bob } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'Back and forth', members: [bob.userId] });
  const messages = [];
  for (let i = 0; i < 5; i += 1) messages.push(await postMessage(server, i === 2 ? bob : alice, chat.id, { text: `m${i}` }));
  // Bob's own message (index 2) moved his marker there.
  assert.deepEqual(await readMarker(server, bob, chat.id), { chatId: chat.id, lastReadId: messages[2]!.id, unreadCount: 2, mentionCount: 0 });
  const cases: { to: string | null; unread: number }[] = [
    { to: messages[4]!.id, unread: 0 },
    { to: messages[0]!.id, unread: 3 },
    { to: messages[3]!.id, unread: 1 },
    { to: null, unread: 4 },
    { to: messages[1]!.id, unread: 2 },
  ];
  for (const { to, unread } of cases) {
    const res = await setMarker(server, bob, chat.id, to);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.data, { chatId: chat.id, lastReadId: to, unreadCount: unread, mentionCount: 0 }, `to ${to}`);
    assert.deepEqual(await readMarker(server, bob, chat.id), res.body.data);
  }
  // The same place again changes nothing and answers the same.
  assert.deepEqual((await setMarker(server, bob, chat.id, messages[1]!.id)).body.data, { chatId: chat.id, lastReadId: messages[1]!.id, unreadCount: 2, mentionCount: 0 });
});

test('PUT /chats/{id}/read refuses what is not a message of the chat, and bodies that break the rules', async (t) => {
  const server = await withServer(t);
  const { alice, bob, carol } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'Strict', members: [bob.userId] });
  const other = await createChat(server, alice, { title: 'Other' });
  const elsewhere = await postMessage(server, alice, other.id, { text: 'elsewhere' });
  const here = await postMessage(server, alice, chat.id, { text: 'here' });
  assertFieldError(await setMarker(server, bob, chat.id, elsewhere.id), 'data.lastReadId', 'a message of another chat');
  assertFieldError(await setMarker(server, bob, chat.id, 'nothing-here'), 'data.lastReadId', 'no such message');
  assertFieldError(await setMarker(server, bob, chat.id, 42), 'data.lastReadId', 'not an id');
  assertFieldError(await call(server, 'PUT', `/chats/${chat.id}/read`, { token: bob.token, json: { data: {} } }), 'data.lastReadId', 'missing');
  assertFieldError(await call(server, 'PUT', `/chats/${chat.id}/read`, { token: bob.token, json: { data: { lastReadId: here.id, unreadCount: 0, mentionCount: 0 } } }), 'data.unreadCount');
  assertFieldError(await call(server, 'PUT', `/chats/${chat.id}/read`, { token: bob.token, json: { data: { lastReadId: here.id, chatId: other.id } } }), 'data.chatId');
  assertFieldError(await call(server, 'PUT', `/chats/${chat.id}/read`, { token: bob.token, json: { data: { lastReadId: here.id, extra: 1 } } }), 'data.extra');
  assert.equal((await call(server, 'PUT', `/chats/${chat.id}/read`, { token: bob.token, json: { data: { lastReadId: here.id, chatId: chat.id } } })).status, 200);
  // Not a member: the 404 of a chat that does not exist, for reading and writing.
  assert.equal((await call(server, 'GET', `/chats/${chat.id}/read`, { token: carol.token })).status, 404);
  assert.equal((await setMarker(server, carol, chat.id, here.id)).status, 404);
  assert.equal((await call(server, 'GET', '/chats/missing/read', { token: bob.token })).status, 404);
  const allow = await call(server, 'OPTIONS', `/chats/${chat.id}/read`);
  assert.equal(allow.headers['allow'], 'OPTIONS, GET, HEAD, PUT');
});

test('deletes keep the counts exact; a marker on a deleted message moves back to the message before it', async (t) => {
  const server = await withServer(t);
  const { alice, bob } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'Deletes', members: [bob.userId] });
  const m = [];
  for (let i = 0; i < 6; i += 1) m.push(await postMessage(server, i === 1 ? bob : alice, chat.id, { text: `m${i}` }));
  // Bob read up to m3: m4 and m5 are unread.
  await setMarker(server, bob, chat.id, m[3]!.id);
  assert.equal((await readMarker(server, bob, chat.id)).unreadCount, 2);
  const remove = (id: string) => call(server, 'DELETE', `/chats/${chat.id}/messages/${id}`, { token: alice.token });
  assert.equal((await remove(m[4]!.id)).status, 204);
  assert.deepEqual(await readMarker(server, bob, chat.id), { chatId: chat.id, lastReadId: m[3]!.id, unreadCount: 1, mentionCount: 0 }, 'an unread message deleted');
  assert.equal((await remove(m[0]!.id)).status, 204);
  assert.deepEqual(await readMarker(server, bob, chat.id), { chatId: chat.id, lastReadId: m[3]!.id, unreadCount: 1, mentionCount: 0 }, 'a read message deleted');
  assert.equal((await remove(m[3]!.id)).status, 204);
  assert.deepEqual(await readMarker(server, bob, chat.id), { chatId: chat.id, lastReadId: m[2]!.id, unreadCount: 1, mentionCount: 0 }, 'the marked message deleted: back one');
  // The moved marker is a message of the chat: the unread page after it works.
  const after = await call(server, 'GET', `/chats/${chat.id}/messages?after=${m[2]!.id}`, { token: bob.token });
  assert.deepEqual(after.body.data.map((message: { id: string }) => message.id), [m[5]!.id]);
  assert.equal((await remove(m[2]!.id)).status, 204);
  assert.equal((await call(server, 'DELETE', `/chats/${chat.id}/messages/${m[1]!.id}`, { token: bob.token })).status, 204);
  assert.deepEqual(await readMarker(server, bob, chat.id), { chatId: chat.id, lastReadId: null, unreadCount: 1, mentionCount: 0 }, 'no message before it: null');
  // Alice's marker sat on m5, her last post; deleting everything leaves every marker null and every count 0.
  await postMessage(server, bob, chat.id, { text: 'more' });
  assert.equal((await readMarker(server, alice, chat.id)).unreadCount, 1);
  assert.equal((await call(server, 'DELETE', `/chats/${chat.id}/messages`, { token: alice.token })).status, 204);
  for (const user of [alice, bob]) assert.deepEqual(await readMarker(server, user, chat.id), { chatId: chat.id, lastReadId: null, unreadCount: 0, mentionCount: 0 });
  const next = await postMessage(server, alice, chat.id, { text: 'after the clear' });
  assert.deepEqual(await readMarker(server, bob, chat.id), { chatId: chat.id, lastReadId: null, unreadCount: 1, mentionCount: 0 });
  assert.deepEqual(await readMarker(server, alice, chat.id), { chatId: chat.id, lastReadId: next.id, unreadCount: 0, mentionCount: 0 });
});

test('a member who joins starts with the history read: the marker on the newest message', async (t) => {
  const server = await withServer(t);
  const { alice, bob } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'Joining' });
  await postMessage(server, alice, chat.id, { text: 'before bob' });
  const newest = await postMessage(server, alice, chat.id, { text: 'still before bob' });
  assert.equal((await call(server, 'PUT', `/chats/${chat.id}/members/${bob.userId}`, { token: alice.token })).status, 204);
  assert.deepEqual(await readMarker(server, bob, chat.id), { chatId: chat.id, lastReadId: newest.id, unreadCount: 0, mentionCount: 0 });
  await postMessage(server, alice, chat.id, { text: 'welcome' });
  assert.equal((await readMarker(server, bob, chat.id)).unreadCount, 1);
  // Replacing the member list keeps the markers of those who stay.
  assert.equal((await call(server, 'PATCH', `/chats/${chat.id}`, { token: alice.token, json: { data: { members: [bob.userId] } } })).status, 200);
  assert.equal((await readMarker(server, bob, chat.id)).unreadCount, 1);
});

test('GET /chats carries each chat\'s marker and count, and filters and sorts on them in every form', async (t) => {
  const server = await withServer(t);
  const { alice, bob } = await threeUsers(server);
  const chats = [];
  for (const title of ['none', 'three', 'one', 'two']) chats.push(await createChat(server, alice, { title, members: [bob.userId] }));
  const counts = [0, 3, 1, 2];
  for (const [i, chat] of chats.entries()) {
    for (let n = 0; n < counts[i]!; n += 1) await postMessage(server, alice, chat.id, { text: `${chat.title} ${n}` });
  }
  const list = async (query: string): Promise<string[]> => {
    const res = await call(server, 'GET', `/chats?${query}`, { token: bob.token });
    assert.equal(res.status, 200, `${query}: ${res.text}`);
    return res.body.data.map((chat: { title: string }) => chat.title);
  };
  const all = (await call(server, 'GET', '/chats', { token: bob.token })).body.data;
  assert.deepEqual(all.map((chat: { title: string; unreadCount: number; lastReadId: null }) => [chat.title, chat.unreadCount, chat.lastReadId]),
    [['none', 0, null], ['three', 3, null], ['one', 1, null], ['two', 2, null]]);
  assert.deepEqual(await list('filter=unreadCount|gt|0'), ['three', 'one', 'two']);
  assert.deepEqual(await list('filter=unreadCount|eq|0'), ['none']);
  assert.deepEqual(await list('sort[unreadCount]=DESC'), ['three', 'two', 'one', 'none']);
  assert.deepEqual(await list('sort=unreadCount&order=asc'), ['none', 'one', 'two', 'three']);
  assert.deepEqual(await list('sort=-unreadCount&limit=2'), ['three', 'two']);
  assert.deepEqual(await list('unreadCount=1-2'), ['one', 'two']);
  assert.deepEqual(await list('unreadCount=>1'), ['three', 'two']);
  assert.deepEqual(await list('unreadCount=<1'), ['none']);
  assert.deepEqual(await list('unreadCount>=2'), ['three', 'two']);
  assert.deepEqual(await list('unreadCount<=1'), ['none', 'one']);
  assert.deepEqual(await list('unreadCount=3'), ['three']);
  assert.deepEqual(await list('filter[unreadCount][]=0&filter[unreadCount][]=3'), ['none', 'three']);
  assert.deepEqual(await list('filter=unreadCount|in|1,2'), ['one', 'two']);
  // Bob reads "three": it leaves the unread list and has a marker; the others keep none.
  const three = chats[1]!;
  const newest = (await call(server, 'GET', `/chats/${three.id}/messages?sort=-id&limit=1`, { token: bob.token })).body.data[0].id;
  await setMarker(server, bob, three.id, newest);
  assert.deepEqual(await list('filter=unreadCount|gt|0'), ['one', 'two']);
  assert.deepEqual(await list(`lastReadId=${newest}`), ['three']);
  assert.deepEqual(await list(`filter=lastReadId|ne|${newest}`), ['none', 'one', 'two']);
  assert.deepEqual(await list('filter=lastReadId|like|%25'), ['three']);
  // The counts are the caller's own: alice wrote everything, so nothing is unread for her.
  const hers = (await call(server, 'GET', '/chats?filter=unreadCount|gt|0', { token: alice.token })).body;
  assert.deepEqual(hers.meta, { total: 0, limit: 20, offset: 0 });
  for (const [query, field] of [['unreadCount=lots', 'unreadCount'], ['filter=unreadCount|like|1', 'filter'], ['lastReadId=<script>', 'lastReadId']]) {
    const res = await call(server, 'GET', `/chats?${query}`, { token: bob.token });
    assertFieldError(res, field!, query);
  }
});
