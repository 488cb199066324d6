// Limits and lifetimes of event streams (docs/protocol.md §9.7): per-user and server caps, slow readers, pings, sessions, shutdown.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { test } from 'node:test';
import { call, registerAndLogIn, TestClock, withServer } from './client.ts';
import { createChat, postMessage, threeUsers } from './chat-fixtures.ts';
import { openEvents, openReady, type EventStream } from './event-stream.ts';
import { spawnServer } from '../fault/server-child.ts';

async function openMany(url: string, token: string, count: number): Promise<EventStream[]> {
  const streams = [];
  for (let i = 0; i < count; i++) streams.push(await openReady(url, { token }));
  return streams;
}

test('at most 5 open streams per user: the sixth is a 429 with Retry-After; closing one frees its place', async (t) => {
  const server = await withServer(t);
  const { alice, bob } = await threeUsers(server);
  const streams = await openMany(server.url, alice.token, 5);
  t.after(() => streams.forEach((stream) => stream.close()));
  const sixth = await call(server, 'GET', '/events', { token: alice.token, headers: { accept: 'text/event-stream' } });
  assert.equal(sixth.status, 429);
  assert.equal(sixth.headers['retry-after'], '15');
  assert.equal(sixth.headers['content-type'], 'application/problem+json');
  assert.equal(sixth.body.code, 'ERR_TOO_MANY_STREAMS');
  // Long-polls are not streams: they still answer.
  assert.equal((await call(server, 'GET', '/events?wait=0', { token: alice.token })).status, 200);
  const bobs = await openReady(server, { token: bob.token });
  bobs.close();
  streams[0]!.close();
  // The server learns of the closed socket asynchronously: retry until its place is free.
  let again: EventStream | undefined;
  for (let tries = 0; tries < 200 && again === undefined; tries++) {
    const attempt = await openEvents(server, { token: alice.token });
    if (attempt.status === 200) again = attempt;
    else attempt.close();
  }
  assert.ok(again, 'a place freed up');
  again.close();
});

test('--max-streams caps the whole server: over it, 503 with Retry-After', async (t) => {
  const server = await withServer(t, { maxStreams: 2 });
  const { alice, bob, carol } = await threeUsers(server);
  const a = await openReady(server, { token: alice.token });
  const b = await openReady(server, { token: bob.token });
  t.after(() => [a, b].forEach((stream) => stream.close()));
  const third = await call(server, 'GET', '/events', { token: carol.token, headers: { accept: 'text/event-stream' } });
  assert.equal(third.status, 503);
  assert.equal(third.headers['retry-after'], '15');
  assert.equal(third.body.code, 'ERR_SERVER_BUSY');
});

test('a reader that stops reading is cut off past about 1 MiB unsent, and resumes by id losing nothing', { timeout: 120_000 }, async (t) => {
  const server = await withServer(t);
  const { alice, bob } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'Flood', members: [bob.userId] });
  // A raw socket, so the test decides when to read: paused, the kernel buffers fill, then the server's.
  const socket = connect(server.port, '127.0.0.1');
  socket.write(`GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\nAuthorization: Bearer ${alice.token}\r\n\r\n`);
  socket.pause();
  let closedByServer = false;
  socket.once('close', () => { closedByServer = true; });
  const events = server.app.services.events;
  // Opening reads the session and the log (a round trip to PostgreSQL on a busy machine): wait for the stream itself,
  // checking every few milliseconds, not for a number of event-loop turns.
  const opened = Date.now();
  while (events.streamCount(alice.userId) === 0 && Date.now() - opened < 30_000) await new Promise((resolve) => setTimeout(resolve, 5));
  assert.equal(events.streamCount(alice.userId), 1, 'the stream is open');
  const posted: string[] = [];
  const text = 'x'.repeat(4000);
  // Post until the server lets go of the stream (bounded: 20,000 messages are 80 MiB of events).
  while (events.streamCount(alice.userId) === 1 && posted.length < 20_000) {
    const batch = await Promise.all(Array.from({ length: 20 }, () => postMessage(server, bob, chat.id, { text })));
    posted.push(...batch.map((message) => message.id));
  }
  assert.equal(events.streamCount(alice.userId), 0, `cut off after ${posted.length} messages`);
  // Reading again, the client gets what was already on its way, then the end of the stream.
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  socket.resume();
  await new Promise<void>((resolve) => (closedByServer ? resolve() : socket.once('close', () => resolve())));
  const received = Buffer.concat(chunks).toString('utf8');
  const frames = [...received.matchAll(/id: (\d+)\nevent: message\.created\ndata: (.*)\n\n/g)];
  const seenIds = frames.map((frame) => JSON.parse(frame[2]!).data.id as string);
  assert.ok(seenIds.length < posted.length, `the cut stream did not deliver everything (${seenIds.length} of ${posted.length})`);
  const lastEventId = frames.at(-1)?.[1] ?? '1';
  const resumed = await openReady(server, { token: alice.token, lastEventId });
  t.after(() => resumed.close());
  const all = [...seenIds, ...resumed.logEvents.map((event) => event.json.data.id as string)];
  // Posts sent at once may commit in any order (PostgreSQL runs them side by side): events come in the order of
  // their ids, which is the order of commits, and each message's event comes exactly once.
  assert.deepEqual([...all].sort(), [...posted].sort(), 'every message exactly once');
  assert.equal(new Set(all).size, all.length, 'no message twice');
  const eventIds = [...frames.map((frame) => Number(frame[1])), ...resumed.logEvents.map((event) => Number(event.id))];
  assert.deepEqual(eventIds, [...eventIds].sort((a, b) => a - b), 'in the order of event ids');
});

test('streams get a ping comment at the configured interval (at most 15 s by default)', async (t) => {
  const server = await withServer(t, { eventTimings: { pingMs: 30 } });
  const alice = await registerAndLogIn(server);
  const stream = await openReady(server, { token: alice.token });
  t.after(() => stream.close());
  await stream.until((s) => s.comments >= 3, 'three pings');
});

test('logout closes the session\'s streams at once; other sessions of the user keep theirs', async (t) => {
  const server = await withServer(t);
  const alice = await registerAndLogIn(server);
  const other = await call(server, 'POST', '/session', { json: { login: alice.login, password: alice.password } });
  const kept = await openReady(server, { token: other.body.token });
  t.after(() => kept.close());
  const stream = await openReady(server, { token: alice.token });
  assert.equal((await call(server, 'DELETE', '/session', { token: alice.token })).status, 204);
  await stream.ended;
  assert.equal(kept.closed, false);
  const chat = await createChat(server, { ...alice, token: other.body.token }, { title: 'Still here' });
  assert.equal((await kept.next('chat.created')).json.chatId, chat.id);
});

test('a password change and session expiry close streams at the next check; an open stream does not prolong its session', async (t) => {
  const clock = new TestClock();
  const server = await withServer(t, { clock, sessionTtl: 100, eventTimings: { pingMs: 20 } });
  const alice = await registerAndLogIn(server);
  const second = (await call(server, 'POST', '/session', { json: { login: alice.login, password: alice.password } })).body.token as string;
  const doomed = await openReady(server, { token: second });
  const change = await call(server, 'PATCH', '/users', { token: alice.token, json: { password: 'a new password 2', currentPassword: alice.password } });
  assert.equal(change.status, 200);
  await doomed.ended;
  const mine = await openReady(server, { token: alice.token });
  // The stream stays open while the clock runs: it neither extends the session nor outlives it.
  clock.advance(101_000);
  await mine.ended;
  assert.equal((await call(server, 'GET', '/session', { token: alice.token })).status, 401);
});

test('SIGTERM ends every stream cleanly and the server still exits at once with 0', async (t) => {
  const server = await spawnServer(['--db', ':memory:', '--scrypt-n', '1024', '--quiet']);
  t.after(() => server.kill('SIGKILL'));
  const alice = await registerAndLogIn({ url: server.url, app: { services: { config: { basePath: '' } } } } as never);
  const streams = await openMany(server.url, alice.token, 3);
  await server.kill('SIGTERM');
  await Promise.all(streams.map((stream) => stream.ended));
  assert.equal(server.child.exitCode, 0);
});
