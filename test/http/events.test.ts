// GET /events as Server-Sent Events (docs/protocol.md §9): headers, every event type with its exact object, visibility.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { call, TestClock, withServer } from './client.ts';
import { createChat, postMessage, threeUsers } from './chat-fixtures.ts';
import { openEvents, openReady, type EventStream } from './event-stream.ts';

/** The event object every frame carries, checked field by field against what GET answers now. */
function assertEvent(stream: EventStream, index: number, type: string, chatId: string, createdAt: string, data: unknown): void {
  const event = stream.logEvents[index]!;
  assert.ok(event, `event ${index} (${type}) arrived`);
  assert.equal(event.type, type, `event ${index}`);
  assert.equal(event.id, event.json.id, 'the frame id is the event id');
  assert.match(event.json.id, /^[1-9]\d*$/);
  assert.deepEqual(event.json, { id: event.id, type, chatId, createdAt, data }, `event ${index} (${type})`);
}

test('GET /events with Accept: text/event-stream opens a stream: its headers, retry, then ready with the newest id', async (t) => {
  const server = await withServer(t);
  const { alice } = await threeUsers(server);
  await createChat(server, alice, { title: 'Before' });
  const stream = await openEvents(server, { token: alice.token });
  t.after(() => stream.close());
  assert.equal(stream.status, 200);
  assert.equal(stream.headers['content-type'], 'text/event-stream');
  assert.equal(stream.headers['cache-control'], 'no-cache');
  assert.equal(stream.headers['x-accel-buffering'], 'no');
  assert.equal(stream.headers['content-encoding'], undefined);
  assert.equal(stream.headers['content-length'], undefined);
  const ready = await stream.next('ready');
  assert.equal(stream.retry, 3000);
  assert.equal(ready.id, '1');
  assert.deepEqual(ready.json, { lastEventId: '1' });
  assert.deepEqual(stream.logEvents, [], 'no replay without a resume id');
});

test('GET /events needs a session like every route: 401 without one, and the cookie works as EventSource sends it', async (t) => {
  const server = await withServer(t);
  const { alice } = await threeUsers(server);
  const anonymous = await openEvents(server);
  assert.equal(anonymous.status, 401);
  assert.match(String(anonymous.headers['www-authenticate']), /^Bearer/);
  anonymous.close();
  const viaCookie = await openReady(server, { headers: { cookie: `session=${alice.token}` } });
  t.after(() => viaCookie.close());
  const chat = await createChat(server, alice, { title: 'Cookie' });
  assert.equal((await viaCookie.next('chat.created')).json.chatId, chat.id);
});

test('every event type carries its exact object: the resource as GET answers it at that moment', async (t) => {
  const clock = new TestClock();
  const server = await withServer(t, { clock });
  const { alice, bob, carol } = await threeUsers(server);
  const stream = await openReady(server, { token: alice.token });
  t.after(() => stream.close());
  const at = (): string => new Date(clock.time).toISOString();
  const get = async (path: string): Promise<unknown> => (await call(server, 'GET', path, { token: alice.token })).body.data;
  // docs/protocol.md §9.1: a chat in an event leaves out the reader's own lastReadId and unreadCount.
  const getChat = async (path: string): Promise<unknown> => {
    const { lastReadId, unreadCount, mentionCount, ...chat } = (await call(server, 'GET', path, { token: alice.token })).body.data;
    assert.equal(typeof unreadCount, 'number');
    assert.equal(typeof mentionCount, 'number');
    assert.ok(lastReadId === null || typeof lastReadId === 'string');
    return chat;
  };

  const chat = await createChat(server, alice, { title: 'Crew', members: [bob.userId] });
  await stream.logEventCount(1);
  assertEvent(stream, 0, 'chat.created', chat.id, at(), await getChat(`/chats/${chat.id}`));

  clock.advance(1000);
  const first = await postMessage(server, bob, chat.id, { text: 'first' });
  await stream.logEventCount(2);
  assertEvent(stream, 1, 'message.created', chat.id, at(), await get(`/chats/${chat.id}/messages/${first.id}`));

  clock.advance(1000);
  const reply = await postMessage(server, alice, chat.id, { text: 'a reply', replyTo: first.id });
  clock.advance(1000);
  assert.equal((await call(server, 'PATCH', `/chats/${chat.id}/messages/${first.id}`, { token: bob.token, json: { data: { text: 'first, edited' } } })).status, 200);
  await stream.logEventCount(4);
  assertEvent(stream, 3, 'message.updated', chat.id, at(), await get(`/chats/${chat.id}/messages/${first.id}`));

  clock.advance(1000);
  assert.equal((await call(server, 'DELETE', `/chats/${chat.id}/messages/${first.id}`, { token: bob.token })).status, 204);
  await stream.logEventCount(6);
  assertEvent(stream, 4, 'message.deleted', chat.id, at(), { id: first.id });
  // The reply lost its replyTo with the message it answered: that is a change of the reply.
  assertEvent(stream, 5, 'message.updated', chat.id, at(), await get(`/chats/${chat.id}/messages/${reply.id}`));

  clock.advance(1000);
  assert.equal((await call(server, 'PUT', `/chats/${chat.id}/members/${carol.userId}`, { token: alice.token })).status, 204);
  await stream.logEventCount(8);
  assertEvent(stream, 6, 'member.added', chat.id, at(), await get(`/chats/${chat.id}/members/${carol.userId}`));
  assertEvent(stream, 7, 'chat.updated', chat.id, at(), await getChat(`/chats/${chat.id}`));

  clock.advance(1000);
  const carolMember = await get(`/chats/${chat.id}/members/${carol.userId}`);
  assert.equal((await call(server, 'DELETE', `/chats/${chat.id}/members/${carol.userId}`, { token: alice.token })).status, 204);
  await stream.logEventCount(10);
  assertEvent(stream, 8, 'member.removed', chat.id, at(), carolMember);
  assertEvent(stream, 9, 'chat.updated', chat.id, at(), await getChat(`/chats/${chat.id}`));

  clock.advance(1000);
  assert.equal((await call(server, 'PATCH', `/chats/${chat.id}`, { token: alice.token, json: { data: { title: 'Renamed' } } })).status, 200);
  await stream.logEventCount(11);
  assertEvent(stream, 10, 'chat.updated', chat.id, at(), await getChat(`/chats/${chat.id}`));

  clock.advance(1000);
  assert.equal((await call(server, 'DELETE', `/chats/${chat.id}/messages`, { token: alice.token })).status, 204);
  await stream.logEventCount(12);
  assertEvent(stream, 11, 'messages.cleared', chat.id, at(), {});

  clock.advance(1000);
  assert.equal((await call(server, 'DELETE', `/chats/${chat.id}`, { token: alice.token })).status, 204);
  await stream.logEventCount(13);
  assertEvent(stream, 12, 'chat.deleted', chat.id, at(), { id: chat.id });

  const ids = stream.logEvents.map((event) => Number(event.id));
  assert.deepEqual(ids, [...ids].sort((a, b) => a - b), 'ids increase');
  assert.equal(new Set(ids).size, ids.length, 'no event twice');
});

test('a write that changes nothing writes no event: the same title, adding a member twice', async (t) => {
  const server = await withServer(t);
  const { alice, bob } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'Same', members: [bob.userId] });
  const stream = await openReady(server, { token: alice.token });
  t.after(() => stream.close());
  assert.equal((await call(server, 'PATCH', `/chats/${chat.id}`, { token: alice.token, json: { data: { title: 'Same' } } })).status, 200);
  assert.equal((await call(server, 'PUT', `/chats/${chat.id}/members/${bob.userId}`, { token: alice.token })).status, 204);
  const message = await postMessage(server, alice, chat.id, { text: 'marker' });
  assert.equal((await call(server, 'PUT', `/chats/${chat.id}/messages/${message.id}`, { token: alice.token, json: { data: { text: 'marker' } } })).status, 200);
  await postMessage(server, alice, chat.id, { text: 'second marker' });
  const events = await stream.logEventCount(2);
  assert.deepEqual(events.map((event) => `${event.type} ${event.json.data.text}`), ['message.created marker', 'message.created second marker']);
});

test('a user sees only the chats they are a member of when the event is delivered; added and removed members', async (t) => {
  const server = await withServer(t);
  const { alice, bob, carol } = await threeUsers(server);
  const carolsOwn = await createChat(server, carol, { title: 'Carol alone' });
  const stream = await openReady(server, { token: carol.token });
  t.after(() => stream.close());
  const chat = await createChat(server, alice, { title: 'Private', members: [bob.userId] });
  await postMessage(server, bob, chat.id, { text: 'not for carol' });
  await postMessage(server, carol, carolsOwn.id, { text: 'marker 1' });
  await stream.logEventCount(1);
  assert.deepEqual(stream.logEvents.map((event) => event.type), ['message.created'], 'only her own chat');
  assert.equal(stream.logEvents[0]!.json.data.text, 'marker 1');

  assert.equal((await call(server, 'PUT', `/chats/${chat.id}/members/${carol.userId}`, { token: alice.token })).status, 204);
  await postMessage(server, bob, chat.id, { text: 'welcome carol' });
  await stream.logEventCount(4);
  assert.deepEqual(stream.logEvents.slice(1).map((event) => event.type), ['member.added', 'chat.updated', 'message.created']);
  assert.equal(stream.logEvents[3]!.json.data.text, 'welcome carol');

  assert.equal((await call(server, 'DELETE', `/chats/${chat.id}/members/${carol.userId}`, { token: alice.token })).status, 204);
  await postMessage(server, bob, chat.id, { text: 'carol is gone' });
  await call(server, 'PATCH', `/chats/${chat.id}`, { token: alice.token, json: { data: { title: 'Without carol' } } });
  await postMessage(server, carol, carolsOwn.id, { text: 'marker 2' });
  await stream.logEventCount(6);
  assert.deepEqual(stream.logEvents.slice(4).map((event) => `${event.type} ${event.json.chatId}`), [`member.removed ${chat.id}`, `message.created ${carolsOwn.id}`]);
  assert.equal(stream.logEvents[4]!.json.data.userId, carol.userId);

  // Resuming from the start shows what she could have received live, as she was a member then (docs/events.md):
  // her chat's events, and the private chat's from her addition to the removal that names her.
  const replay = await openReady(server, { token: carol.token, query: 'after=0' });
  t.after(() => replay.close());
  assert.deepEqual(replay.logEvents.map((event) => `${event.type} ${event.json.chatId === chat.id ? 'private' : 'own'}`),
    ['chat.created own', 'message.created own', 'member.added private', 'chat.updated private', 'message.created private', 'member.removed private', 'message.created own']);
  assert.deepEqual(replay.logEvents.slice(1).map((event) => event.json), stream.logEvents.map((event) => event.json));
});

test('a deleted chat is announced to all its members, who hear nothing of it afterwards', async (t) => {
  const server = await withServer(t);
  const { alice, bob } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'Short-lived', members: [bob.userId] });
  const stream = await openReady(server, { token: bob.token });
  t.after(() => stream.close());
  assert.equal((await call(server, 'DELETE', `/chats/${chat.id}`, { token: alice.token })).status, 204);
  const deleted = await stream.next('chat.deleted');
  assert.deepEqual(deleted.json.data, { id: chat.id });
  // The same id, created again by someone else, is a new chat bob is not in.
  const again = await call(server, 'PUT', `/chats/${chat.id}`, { token: alice.token, json: { data: { title: 'Reborn' } } });
  assert.equal(again.status, 201);
  const mine = await createChat(server, bob, { title: 'Marker' });
  await stream.next('chat.created');
  assert.deepEqual(stream.logEvents.map((event) => `${event.type} ${event.json.chatId}`), [`chat.deleted ${chat.id}`, `chat.created ${mine.id}`]);
});

test('GET /events: Accept decides between the stream and a long-poll; */* and no Accept are the JSON long-poll', async (t) => {
  const server = await withServer(t);
  const { alice } = await threeUsers(server);
  for (const accept of ['*/*', 'application/json', undefined]) {
    const headers: Record<string, string> = accept === undefined ? {} : { accept };
    const res = await call(server, 'GET', '/events?wait=0', { token: alice.token, headers });
    assert.equal(res.status, 200, String(accept));
    assert.equal(res.headers['content-type'], 'application/json');
    assert.equal(res.headers['vary'], 'Accept');
    assert.deepEqual(res.body, { data: [], meta: { lastEventId: '0' } });
  }
  const refused = await call(server, 'GET', '/events', { token: alice.token, headers: { accept: 'image/png' } });
  assert.equal(refused.status, 406);
  assert.match(refused.body.detail, /text\/event-stream/);
  const head = await call(server, 'HEAD', '/events', { token: alice.token, headers: { accept: 'text/event-stream' } });
  assert.equal(head.status, 200);
  assert.equal(head.headers['content-type'], 'text/event-stream');
  assert.equal(head.raw.length, 0);
  const options = await call(server, 'OPTIONS', '/events');
  assert.equal(options.status, 204);
  assert.equal(options.headers['allow'], 'OPTIONS, GET, HEAD');
  assert.equal((await call(server, 'POST', '/events', { token: alice.token, json: {} })).status, 405);
});
