// Two servers on one PostgreSQL database (docs/protocol.md §14.5, §14.6): typing and presence cross them through a
// NOTIFY on the ephemeral channel (chat_ephemeral) within a second; the 2 s limit holds across them.
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { startServer, type RunningServer } from '../../src/index.ts';
import { createChat, postMessage } from '../http/chat-fixtures.ts';
import { call, registerAndLogIn, TestClock } from '../http/client.ts';
import { openReady, type EventStream } from '../http/event-stream.ts';
import { createTestDatabase } from './test-database.ts';

/** Two servers, as on two machines, sharing one clock (as machines share the time). */
async function twoServers(t: TestContext, clock: TestClock): Promise<[RunningServer, RunningServer]> {
  const database = await createTestDatabase();
  const start = () => startServer({ db: database.url, scryptN: 1024, writeRate: 0, registerRate: 0, registration: 'open', clock, eventTimings: { presenceSweepMs: 20 } });
  const servers = [await start(), await start()] as [RunningServer, RunningServer];
  t.after(async () => {
    for (const server of servers) await server.close();
    await database.drop();
  });
  return servers;
}

function typingOf(stream: EventStream): any[] {
  return stream.ephemeralEvents.filter((event) => event.type === 'typing').map((event) => event.json);
}

test('typing on server A reaches a stream on server B within a second, once; the limit and the end hold across servers', async (t) => {
  const clock = new TestClock();
  const [a, b] = await twoServers(t, clock);
  const ann = await registerAndLogIn(a);
  const bob = await registerAndLogIn(a);
  const chat = await createChat(a, ann, { title: 'Across', members: [bob.userId] });
  const onB = await openReady(b, { token: bob.token });
  const onA = await openReady(a, { token: bob.token });
  t.after(() => { onA.close(); onB.close(); });
  const at = (offset = 0): string => new Date(clock.time + offset).toISOString();
  const expected = { type: 'typing', chatId: chat.id, createdAt: at(), data: { chatId: chat.id, userId: ann.userId, until: at(6000) } };
  assert.equal((await call(a, 'POST', `/chats/${chat.id}/typing`, { token: ann.token })).status, 204);
  await onB.until((s) => typingOf(s).length === 1, 'typing on B', 1000);
  await onA.until((s) => typingOf(s).length === 1, 'typing on A', 1000);
  assert.deepEqual(typingOf(onB), [expected]);
  // B heard it: a start there 1 s later is dropped.
  clock.advance(1000);
  assert.equal((await call(b, 'POST', `/chats/${chat.id}/typing`, { token: ann.token })).status, 204);
  // A message on B ends the typing A accepted; it is the barrier too (it comes after the dropped start).
  await postMessage(b, ann, chat.id, { text: 'done' });
  for (const stream of [onA, onB]) {
    await stream.until((s) => typingOf(s).length === 2 && s.logEvents.some((event) => event.type === 'message.created'), 'the end and the message', 2000);
    assert.deepEqual(typingOf(stream), [expected, { ...expected, createdAt: at(), data: { ...expected.data, until: at() } }], 'never delivered twice (each server drops its own NOTIFY)');
  }
});

test('presence across servers: a stream on B makes the user online on A; closed, offline on both; presence.changed reaches a stream on the other server', async (t) => {
  const clock = new TestClock();
  const [a, b] = await twoServers(t, clock);
  const ann = await registerAndLogIn(a);
  const bob = await registerAndLogIn(a);
  await createChat(a, ann, { title: 'Shared', members: [bob.userId] });
  const annStream = await openReady(a, { token: ann.token });
  t.after(() => annStream.close());
  const presence = async (server: RunningServer): Promise<string> => (await call(server, 'GET', `/users/${bob.userId}`, { token: ann.token })).body.presence;
  assert.equal(await presence(a), 'offline');
  const bobStream = await openReady(b, { token: bob.token });
  await annStream.until((s) => s.ephemeralEvents.some((event) => event.type === 'presence.changed' && event.json.data.userId === bob.userId), 'bob online', 1000);
  assert.deepEqual(annStream.ephemeralEvents.find((event) => event.type === 'presence.changed')!.json.data, { userId: bob.userId, presence: 'online' });
  // B's announcement of its stream and its presence.changed are two messages on the bus: A may deliver the event a
  // moment before it records the holder. Wait for A to know, a few milliseconds at a time (bounded).
  const heard = Date.now();
  while (await presence(a) !== 'online' && Date.now() - heard < 2000) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.equal(await presence(a), 'online', 'A knows of the stream B holds');
  bobStream.close();
  const gone = async (): Promise<boolean> => b.app.services.events.streamCount(bob.userId) === 0;
  while (!(await gone())) await new Promise((resolve) => setTimeout(resolve, 5));
  // The grace is the only wait: the clock moves past it, and A, once it has heard of the close, says offline too.
  clock.advance(10_000);
  await annStream.until((s) => s.ephemeralEvents.some((event) => event.type === 'presence.changed' && event.json.data.presence === 'offline'), 'bob offline', 2000);
  const deadline = Date.now() + 1000;
  while ((await presence(a)) !== 'offline') assert.ok(Date.now() < deadline, 'A says offline within a second');
  assert.equal(await presence(b), 'offline');
});
