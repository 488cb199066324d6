// Events of reactions, read markers and edits (docs/protocol.md §9.1, §10): exact objects, and read.updated only to its owner.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { call, TestClock, withServer } from './client.ts';
import { createChat, postMessage, threeUsers } from './chat-fixtures.ts';
import { openReady, type EventStream } from './event-stream.ts';

function assertEvent(stream: EventStream, index: number, type: string, chatId: string, createdAt: string, data: unknown): void {
  const event = stream.logEvents[index]!;
  assert.ok(event, `event ${index} (${type}) arrived`);
  assert.deepEqual(event.json, { id: event.id, type, chatId, createdAt, data }, `event ${index} (${type})`);
}

test('reaction.added and reaction.removed carry the reaction and its messageId; message.updated on an edit carries editedAt and reactions', async (t) => {
  const clock = new TestClock();
  const server = await withServer(t, { clock });
  const { alice, bob } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'Live reactions', members: [bob.userId] });
  const message = await postMessage(server, bob, chat.id, { text: 'react' });
  const stream = await openReady(server, { token: bob.token });
  t.after(() => stream.close());
  const at = (): string => new Date(clock.time).toISOString();
  const path = `/chats/${chat.id}/messages/${message.id}`;

  clock.advance(1000);
  const reactedAt = at();
  assert.equal((await call(server, 'PUT', `${path}/reactions/%F0%9F%91%8D`, { token: alice.token })).status, 201);
  // The same reaction again changes nothing, and says nothing.
  assert.equal((await call(server, 'PUT', `/messages/${message.id}/reactions/%F0%9F%91%8D`, { token: alice.token })).status, 204);
  clock.advance(1000);
  assert.equal((await call(server, 'PATCH', path, { token: bob.token, json: { data: { text: 'react, edited' } } })).status, 200);
  await stream.logEventCount(2);
  assertEvent(stream, 0, 'reaction.added', chat.id, reactedAt, { messageId: message.id, emoji: '👍', userId: alice.userId, createdAt: reactedAt });
  const current = (await call(server, 'GET', path, { token: bob.token })).body.data;
  assert.deepEqual(current.reactions, [{ emoji: '👍', count: 1, userIds: [alice.userId] }]);
  assert.equal(current.editedAt, at());
  assertEvent(stream, 1, 'message.updated', chat.id, at(), current);

  clock.advance(1000);
  assert.equal((await call(server, 'DELETE', `/messages/${message.id}/reactions/%F0%9F%91%8D`, { token: alice.token })).status, 204);
  await stream.logEventCount(3);
  // The reaction as it was: made at reactedAt, removed now.
  assertEvent(stream, 2, 'reaction.removed', chat.id, at(), { messageId: message.id, emoji: '👍', userId: alice.userId, createdAt: reactedAt });
});

test('read.updated carries the caller\'s marker to their own streams only; a chat in events has no per-caller fields', async (t) => {
  const clock = new TestClock();
  const server = await withServer(t, { clock });
  const { alice, bob } = await threeUsers(server);
  const bobs = await openReady(server, { token: bob.token });
  const alices = await openReady(server, { token: alice.token });
  t.after(() => {
    bobs.close();
    alices.close();
  });
  const chat = await createChat(server, alice, { title: 'Markers', members: [bob.userId] });
  const first = await postMessage(server, alice, chat.id, { text: 'one' });
  await postMessage(server, alice, chat.id, { text: 'two' });
  clock.advance(1000);
  const moved = await call(server, 'PUT', `/chats/${chat.id}/read`, { token: bob.token, json: { data: { lastReadId: first.id } } });
  assert.equal(moved.status, 200);
  // Where it already is: no event.
  assert.equal((await call(server, 'PUT', `/chats/${chat.id}/read`, { token: bob.token, json: { data: { lastReadId: first.id } } })).status, 200);
  const marker = await postMessage(server, alice, chat.id, { text: 'marker' });
  await bobs.logEventCount(5);
  await alices.logEventCount(4);
  assert.deepEqual(bobs.logEvents.map((event) => event.type), ['chat.created', 'message.created', 'message.created', 'read.updated', 'message.created']);
  assert.deepEqual(alices.logEvents.map((event) => event.type), ['chat.created', 'message.created', 'message.created', 'message.created']);
  assertEvent(bobs, 3, 'read.updated', chat.id, new Date(clock.time).toISOString(), { chatId: chat.id, lastReadId: first.id, unreadCount: 1, mentionCount: 0 });
  assert.deepEqual(bobs.logEvents[3]!.json.data, moved.body.data);
  assert.equal(bobs.logEvents[4]!.json.data.id, marker.id);
  // The chat in chat.created is the same for both: no lastReadId or unreadCount.
  assert.deepEqual(Object.keys(bobs.logEvents[0]!.json.data).sort(), ['createdAt', 'id', 'kind', 'members', 'ownerId', 'title', 'updatedAt']);
  assert.deepEqual(bobs.logEvents[0]!.json, alices.logEvents[0]!.json);
  // A replay shows the same rule: bob's marker event is bob's alone.
  const replay = await openReady(server, { token: alice.token, query: 'after=0' });
  t.after(() => replay.close());
  assert.ok(!replay.logEvents.some((event) => event.type === 'read.updated'));
});
