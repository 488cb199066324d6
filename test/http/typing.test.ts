// POST /chats/{id}/typing and the typing event (docs/protocol.md §14.5): exact events, the 2 s limit, the 6 s expiry
// with the TestClock, the end a message makes, and that an ephemeral event is never in the log.
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { call, TestClock, withServer } from './client.ts';
import { createChat, postMessage, threeUsers } from './chat-fixtures.ts';
import { openReady, type EventStream } from './event-stream.ts';

function typingOf(stream: EventStream): unknown[] {
  return stream.ephemeralEvents.filter((event) => event.type === 'typing').map((event) => event.json);
}

async function setUp(t: TestContext) {
  const clock = new TestClock();
  const server = await withServer(t, { clock });
  const { alice, bob, carol } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'Typing', members: [bob.userId] });
  // Everyone is in this one: a message in it is a barrier (what was written to a stream before it has arrived).
  const everyone = await createChat(server, carol, { title: 'Everyone', members: [alice.userId, bob.userId] });
  const streams = await Promise.all([alice, bob, carol].map((user) => openReady(server, { token: user.token })));
  t.after(() => streams.forEach((stream) => stream.close()));
  let barriers = 0;
  const barrier = async (): Promise<void> => {
    const message = await postMessage(server, carol, everyone.id, { text: `barrier ${++barriers}` });
    await Promise.all(streams.map((stream) => stream.until((s) => s.logEvents.some((event) => event.json.data.id === message.id), 'the barrier')));
  };
  const at = (offset = 0): string => new Date(clock.time + offset).toISOString();
  const typing = (user: { token: string }, chatId = chat.id) => call(server, 'POST', `/chats/${chatId}/typing`, { token: user.token });
  const [aliceStream, bobStream, carolStream] = streams as [EventStream, EventStream, EventStream];
  return { clock, server, alice, bob, carol, chat, aliceStream, bobStream, carolStream, at, typing, barrier };
}

test('POST /chats/{id}/typing answers 204; the other members\' streams get a typing event without an id, nobody else', async (t) => {
  const { alice, chat, aliceStream, bobStream, carolStream, at, typing, barrier } = await setUp(t);
  const res = await typing(alice);
  assert.equal(res.status, 204);
  assert.equal(res.text, '');
  assert.equal(res.headers['cache-control'], 'no-store');
  const event = await bobStream.next('typing');
  assert.equal(event.id, undefined, 'no id: Last-Event-ID does not move');
  assert.deepEqual(event.json, { type: 'typing', chatId: chat.id, createdAt: at(), data: { chatId: chat.id, userId: alice.userId, until: at(6000) } });
  await barrier();
  assert.deepEqual(typingOf(aliceStream), [], 'never to the typist\'s own streams');
  assert.deepEqual(typingOf(carolStream), [], 'never to someone who is not a member');
});

test('typing: 404 for a chat the caller is not a member of, 401 without a session', async (t) => {
  const { carol, chat, typing } = await setUp(t);
  const res = await typing(carol);
  assert.equal(res.status, 404);
  assert.equal(res.body.code, 'ERR_NOT_FOUND');
  assert.equal(res.body.detail, `No chat ${chat.id}`);
  assert.equal((await typing({ token: '' })).status, 401);
});

test('typing is limited to one forwarded every 2 s per user and chat: more answer 204 and are dropped', async (t) => {
  const { clock, alice, bob, chat, bobStream, at, typing, barrier } = await setUp(t);
  assert.equal((await typing(alice)).status, 204);
  const first = at(6000);
  clock.advance(1999);
  assert.equal((await typing(alice)).status, 204);
  await barrier();
  assert.deepEqual(typingOf(bobStream).map((event: any) => event.data.until), [first], 'the second, 1.999 s later, was not forwarded');
  clock.advance(1);
  assert.equal((await typing(alice)).status, 204);
  // Another member's typing is limited on its own.
  assert.equal((await typing(bob)).status, 204);
  await barrier();
  assert.deepEqual(typingOf(bobStream).map((event: any) => event.data.until), [first, at(6000)], 'accepted again 2 s after the last accepted one');
  assert.deepEqual(typingOf(bobStream).map((event: any) => event.data.chatId), [chat.id, chat.id]);
});

test('a message ends its author\'s typing (until = now); after the 6 s expiry a message sends nothing', async (t) => {
  const { clock, alice, chat, bobStream, at, typing, barrier, server } = await setUp(t);
  await typing(alice);
  clock.advance(3000);
  await postMessage(server, alice, chat.id, { text: 'done typing' });
  await bobStream.until((stream) => typingOf(stream).length === 2, 'the end of typing');
  assert.deepEqual(typingOf(bobStream)[1], { type: 'typing', chatId: chat.id, createdAt: at(), data: { chatId: chat.id, userId: alice.userId, until: at() } });
  // The end also lifts the limit: the next keystroke is forwarded at once.
  await typing(alice);
  await bobStream.until((stream) => typingOf(stream).length === 3, 'typing again');
  clock.advance(6000);
  await postMessage(server, alice, chat.id, { text: 'after it expired' });
  await barrier();
  assert.equal(typingOf(bobStream).length, 3, 'an expired typing is not ended again');
});

test('ephemeral events are never in the log: a replay and a long-poll hold none of them', async (t) => {
  const { alice, bob, chat, typing, bobStream, server } = await setUp(t);
  await typing(alice);
  await bobStream.next('typing');
  await postMessage(server, alice, chat.id, { text: 'hello' });
  const replay = await openReady(server, { token: bob.token, lastEventId: '0' });
  t.after(() => replay.close());
  assert.ok(replay.logEvents.length > 0);
  assert.deepEqual(replay.events.filter((event) => event.type === 'typing' || event.id === undefined), [], 'the replay holds no ephemeral event');
  const poll = await call(server, 'GET', '/events?after=0&wait=0', { token: bob.token });
  assert.equal(poll.status, 200);
  assert.deepEqual(poll.body.data.filter((event: any) => event.type === 'typing' || event.type === 'presence.changed'), []);
  assert.deepEqual(poll.body.data.map((event: any) => event.id), replay.logEvents.map((event) => event.id), 'the same log either way');
  const ready = await replay.next('ready');
  assert.equal(ready.json.lastEventId, bobStream.events.filter((event) => event.id !== undefined).at(-1)!.id, 'the stream\'s last id is the log\'s newest');
});
