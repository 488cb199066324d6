// --workers 2 (docs/protocol.md §14.5, §14.6): typing and presence cross processes through the primary's relay of
// the ephemeral bus. Every request and stream below is on a fresh connection, handed to the workers in turn
// (node:cluster's round-robin), so each step is taken on both processes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { call } from '../http/client.ts';
import { openReady, type EventStream } from '../http/event-stream.ts';
import { register, startWorkers } from './workers-server.ts';

function typingOf(stream: EventStream): any[] {
  return stream.ephemeralEvents.filter((event) => event.type === 'typing');
}

async function until(condition: () => Promise<boolean>, what: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

test('--workers 2: typing answered by one process reaches streams held by both within a second, and the 2 s limit holds across them', { timeout: 60_000 }, async (t) => {
  const server = await startWorkers(t);
  const alice = await register(server.url, 'alice');
  const bob = await register(server.url, 'bob');
  const chat = (await call(server.url, 'POST', '/chats', { token: alice.token, json: { data: { title: 'Across', members: [bob.userId] } } })).body.data;
  const streams = [await openReady(server.url, { token: bob.token }), await openReady(server.url, { token: bob.token })];
  t.after(() => streams.forEach((stream) => stream.close()));

  const started = performance.now();
  assert.equal((await call(server.url, 'POST', `/chats/${chat.id}/typing`, { token: alice.token })).status, 204);
  await Promise.all(streams.map((stream) => stream.until((s) => typingOf(s).length === 1, 'typing', 1000)));
  t.diagnostic(`typing on both workers' streams after ${(performance.now() - started).toFixed(1)} ms`);
  for (const stream of streams) {
    assert.equal(typingOf(stream)[0].id, undefined);
    assert.deepEqual(typingOf(stream)[0].json.data.userId, alice.userId);
  }
  // Both processes heard the accepted one: two more at once, one on each, are dropped.
  for (let i = 0; i < 2; i++) assert.equal((await call(server.url, 'POST', `/chats/${chat.id}/typing`, { token: alice.token })).status, 204);
  // A message is the barrier (and ends the typing on both: until = now).
  await call(server.url, 'POST', `/chats/${chat.id}/messages`, { token: alice.token, json: { data: { text: 'sent' } } });
  await Promise.all(streams.map((stream) => stream.until((s) => s.logEvents.some((event) => event.type === 'message.created') && typingOf(s).length >= 2, 'the message and the end', 2000)));
  for (const stream of streams) {
    const [start, end] = typingOf(stream).map((event) => event.json.data);
    assert.equal(typingOf(stream).length, 2, 'the two starts within 2 s were dropped on either process');
    assert.ok(Date.parse(end.until) < Date.parse(start.until), 'the message ended it before it would have expired');
  }
});

test('--workers 2: presence is the same on both processes; a user whose last stream closed is offline on both', { timeout: 60_000 }, async (t) => {
  const server = await startWorkers(t);
  const alice = await register(server.url, 'alice');
  const bob = await register(server.url, 'bob');
  const presence = async (): Promise<string[]> => Promise.all([0, 1].map(async () => (await call(server.url, 'GET', `/users/${bob.userId}`, { token: alice.token })).body.presence));
  assert.deepEqual(await presence(), ['offline', 'offline']);
  const stream = await openReady(server.url, { token: bob.token });
  // The other process hears of the stream through the bus: online on both at once.
  await until(async () => (await presence()).every((value) => value === 'online'), 'bob online on both', 1000);
  stream.close();
  const closed = performance.now();
  await until(async () => (await presence()).every((value) => value === 'offline'), 'bob offline on both', 60_000);
  t.diagnostic(`offline on both ${((performance.now() - closed) / 1000).toFixed(1)} s after the stream closed (the grace is 10 s)`);
});
