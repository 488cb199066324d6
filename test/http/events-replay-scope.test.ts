// A replay never reaches past what the reader could have seen live (docs/events.md, "Who receives what"): not
// the chats they are in now, but the chats they were in at each event's moment, that incarnation of the id;
// and text removed by a delete never leaves the server again ("What a replay leaves out").
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import type { RunningServer } from '../../src/index.ts';
import { call, type LoggedIn, type TestResponse, withServer } from './client.ts';
import { createChat, postMessage, threeUsers } from './chat-fixtures.ts';
import { openReady, type EventStream } from './event-stream.ts';

/** What a client receives of one event: its id, type, chat and data, as the log has them. */
interface Seen {
  id: string;
  type: string;
  chatId: string;
  data: Record<string, unknown>;
}

function seenOf(stream: EventStream): Seen[] {
  return stream.logEvents.map((event) => ({ id: event.id!, type: event.json.type, chatId: event.json.chatId, data: event.json.data }));
}

/** A replay from 0 as SSE (Last-Event-ID: 0) and as long-poll (after=0, page after page): both, to compare. */
async function replaysFromZero(server: RunningServer, user: LoggedIn): Promise<{ sse: Seen[]; poll: Seen[] }> {
  const stream = await openReady(server, { token: user.token, lastEventId: '0' });
  stream.close();
  const poll: Seen[] = [];
  let after = '0';
  for (;;) {
    const res = await call(server, 'GET', `/events?after=${after}&wait=0`, { token: user.token });
    assert.equal(res.status, 200, res.text);
    for (const event of res.body.data) poll.push({ id: event.id, type: event.type, chatId: event.chatId, data: event.data });
    if (res.body.data.length === 0) break;
    after = res.body.meta.lastEventId;
  }
  return { sse: seenOf(stream), poll };
}

function putChat(server: RunningServer, owner: LoggedIn, chatId: string, data: Record<string, unknown>): Promise<TestResponse> {
  return call(server, 'PUT', `/chats/${chatId}`, { token: owner.token, json: { data } });
}

test('a chat id re-created by someone else replays none of the deleted chat (SSE and long-poll from 0)', async (t) => {
  const server = await withServer(t);
  const { alice, bob } = await threeUsers(server);
  const bobLive = await openReady(server, { token: bob.token });
  t.after(() => bobLive.close());
  const chatId = `reused-${randomUUID()}`;
  assert.equal((await putChat(server, alice, chatId, { title: 'Alice only' })).status, 201);
  await postMessage(server, alice, chatId, { text: 'alice secret' });
  assert.equal((await call(server, 'DELETE', `/chats/${chatId}`, { token: alice.token })).status, 204);

  const created = await putChat(server, bob, chatId, { title: 'Bob now' });
  assert.equal(created.status, 201, created.text);
  const mine = await postMessage(server, bob, chatId, { text: 'bob here' });
  await bobLive.logEventCount(2);
  const live = seenOf(bobLive);
  assert.deepEqual(live.map((event) => `${event.type} ${event.chatId}`), [`chat.created ${chatId}`, `message.created ${chatId}`]);
  // The chat as GET answers it, without the caller's own read marker (docs/events.md, "Event types").
  const { lastReadId: _marker, unreadCount: _count, mentionCount: _mentions, ...chat } = created.body.data;
  assert.deepEqual(live[0]!.data, chat);
  assert.equal(live[1]!.data['id'], mine.id);

  const { sse, poll } = await replaysFromZero(server, bob);
  assert.deepEqual(sse, live);
  assert.deepEqual(poll, live);
});

test('a member added later replays nothing from before (no deleted text, no text before an edit)', async (t) => {
  const server = await withServer(t);
  const { alice, bob } = await threeUsers(server);
  const aliceLive = await openReady(server, { token: alice.token });
  const bobLive = await openReady(server, { token: bob.token });
  t.after(() => {
    aliceLive.close();
    bobLive.close();
  });
  const chat = await createChat(server, alice, { title: 'Before bob' });
  const gone = await postMessage(server, alice, chat.id, { text: 'deleted words' });
  assert.equal((await call(server, 'DELETE', `/chats/${chat.id}/messages/${gone.id}`, { token: alice.token })).status, 204);
  const edited = await postMessage(server, alice, chat.id, { text: 'words before the edit' });
  assert.equal((await call(server, 'PATCH', `/chats/${chat.id}/messages/${edited.id}`, { token: alice.token, json: { data: { text: 'words after the edit' } } })).status, 200);
  assert.equal((await call(server, 'PUT', `/chats/${chat.id}/members/${bob.userId}`, { token: alice.token })).status, 204);
  const after = await postMessage(server, alice, chat.id, { text: 'welcome bob' });

  await bobLive.logEventCount(3);
  const bobSaw = seenOf(bobLive);
  assert.deepEqual(bobSaw.map((event) => event.type), ['member.added', 'chat.updated', 'message.created']);
  assert.equal(bobSaw[2]!.data['id'], after.id);
  const bobReplays = await replaysFromZero(server, bob);
  assert.deepEqual(bobReplays.sse, bobSaw);
  assert.deepEqual(bobReplays.poll, bobSaw);
  // As GET .../messages shows him: only what came after he joined, and the edited message as it is now.
  const messages = await call(server, 'GET', `/chats/${chat.id}/messages`, { token: bob.token });
  assert.deepEqual(messages.body.data.map((message: { text: string }) => message.text).sort(), ['welcome bob', 'words after the edit']);

  // Alice saw it all live; her replay lacks only the events of the deleted message (its message.deleted stays).
  await aliceLive.logEventCount(8);
  const aliceSaw = seenOf(aliceLive);
  assert.deepEqual(aliceSaw.map((event) => event.type), [
    'chat.created', 'message.created', 'message.deleted', 'message.created', 'message.updated', 'member.added', 'chat.updated', 'message.created',
  ]);
  const expected = aliceSaw.filter((event) => !(event.type === 'message.created' && event.data['id'] === gone.id));
  const aliceReplays = await replaysFromZero(server, alice);
  assert.deepEqual(aliceReplays.sse, expected);
  assert.deepEqual(aliceReplays.poll, expected);
  assert.ok(!JSON.stringify(aliceReplays).includes('deleted words'));
});

test('a deleted and re-created chat id: old-only, new-only and both-incarnation members each replay what they saw live, less the purged', async (t) => {
  const server = await withServer(t);
  const { alice, bob, carol } = await threeUsers(server);
  const streams = { alice: await openReady(server, { token: alice.token }), bob: await openReady(server, { token: bob.token }), carol: await openReady(server, { token: carol.token }) };
  t.after(() => Object.values(streams).forEach((stream) => stream.close()));
  const chatId = `twice-${randomUUID()}`;
  // The old incarnation: alice and bob.
  assert.equal((await putChat(server, alice, chatId, { title: 'Old', members: [bob.userId] })).status, 201);
  await postMessage(server, bob, chatId, { text: 'old words' });
  assert.equal((await call(server, 'DELETE', `/chats/${chatId}`, { token: alice.token })).status, 204);
  // The new one: alice and carol.
  assert.equal((await putChat(server, alice, chatId, { title: 'New', members: [carol.userId] })).status, 201);
  await postMessage(server, carol, chatId, { text: 'new words' });

  await streams.alice.logEventCount(5);
  await streams.bob.logEventCount(3);
  await streams.carol.logEventCount(2);
  const types = (seen: Seen[]): string[] => seen.map((event) => `${event.type} ${String(event.data['title'] ?? event.data['text'] ?? '')}`.trim());
  assert.deepEqual(types(seenOf(streams.alice)), ['chat.created Old', 'message.created old words', 'chat.deleted', 'chat.created New', 'message.created new words']);
  assert.deepEqual(types(seenOf(streams.bob)), ['chat.created Old', 'message.created old words', 'chat.deleted']);
  assert.deepEqual(types(seenOf(streams.carol)), ['chat.created New', 'message.created new words']);

  // Deleting the chat removed its earlier events from the log: live, less those.
  for (const [name, user] of [['alice', alice], ['bob', bob], ['carol', carol]] as const) {
    const live = seenOf(streams[name]);
    const deletedAt = live.findIndex((event) => event.type === 'chat.deleted');
    const expected = deletedAt === -1 ? live : live.slice(deletedAt);
    const replays = await replaysFromZero(server, user);
    assert.deepEqual(replays.sse, expected, `${name} (SSE)`);
    assert.deepEqual(replays.poll, expected, `${name} (long-poll)`);
    assert.ok(!JSON.stringify(replays).includes('old words'), name);
  }
});

test('clearing a chat\'s messages removes their events from replays; membership events stay', async (t) => {
  const server = await withServer(t);
  const { alice } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'Cleared' });
  const message = await postMessage(server, alice, chat.id, { text: 'cleared words' });
  assert.equal((await call(server, 'PUT', `/chats/${chat.id}/messages/${message.id}/reactions/${encodeURIComponent('👍')}`, { token: alice.token })).status, 201);
  assert.equal((await call(server, 'DELETE', `/chats/${chat.id}/messages`, { token: alice.token, headers: { 'if-match': '*' } })).status, 204);
  const { sse, poll } = await replaysFromZero(server, alice);
  assert.deepEqual(sse.map((event) => event.type), ['chat.created', 'messages.cleared']);
  assert.deepEqual(poll, sse);
});
