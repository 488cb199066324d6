// Presence (docs/protocol.md §14.6): in user answers, computed when answered; the presence.changed event to those
// who share a chat; requests written to last_seen_at in batches, never one write per request.
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { call, runSql, TestClock, withServer } from './client.ts';
import { createChat, threeUsers } from './chat-fixtures.ts';
import { openReady, type EventStream } from './event-stream.ts';

async function setUp(t: TestContext, sweepMs = 20) {
  const clock = new TestClock();
  const server = await withServer(t, { clock, eventTimings: { presenceSweepMs: sweepMs, presenceFlushMs: 3_600_000 } });
  const { alice, bob, carol } = await threeUsers(server);
  const presenceOf = async (userId: string, reader = carol): Promise<string> => {
    const res = await call(server, 'GET', `/users/${userId}`, { token: reader.token });
    assert.equal(res.status, 200);
    return res.body.presence;
  };
  return { clock, server, alice, bob, carol, presenceOf };
}

function presenceEvents(stream: EventStream): unknown[] {
  return stream.ephemeralEvents.filter((event) => event.type === 'presence.changed').map((event) => event.json);
}

test('a user who never made a request is offline; a request makes them online for 2 minutes, then away, then offline after 30', async (t) => {
  const { clock, server, alice, presenceOf } = await setUp(t, 3_600_000);
  assert.equal(await presenceOf(alice.userId), 'offline', 'logging in is not a request with a session');
  assert.equal((await call(server, 'GET', '/chats', { token: alice.token })).status, 200);
  assert.equal(await presenceOf(alice.userId), 'online');
  clock.advance(2 * 60_000 - 1);
  assert.equal(await presenceOf(alice.userId), 'online');
  clock.advance(1);
  assert.equal(await presenceOf(alice.userId), 'away');
  clock.advance(28 * 60_000 - 1);
  assert.equal(await presenceOf(alice.userId), 'away');
  clock.advance(1);
  assert.equal(await presenceOf(alice.userId), 'offline');
});

test('presence is in every answer about users: GET /users/{id} exactly, GET /users, PATCH, search', async (t) => {
  const { clock, server, alice, bob } = await setUp(t, 3_600_000);
  const at = new Date(clock.time).toISOString();
  const res = await call(server, 'GET', `/users/${bob.userId}`, { token: alice.token });
  assert.deepEqual(res.body, { id: bob.userId, login: bob.login, avatar: null, role: 'member', active: true, kind: 'user', ownerId: null, presence: 'offline', createdAt: at, updatedAt: at }, 'bob has made no request with his session yet');
  const list = await call(server, 'GET', `/users?filter[id]=${alice.userId}`, { token: bob.token });
  assert.deepEqual(list.body.data.map((user: any) => user.presence), ['online']);
  const patched = await call(server, 'PATCH', '/users', { token: alice.token, json: { login: `${alice.login}2` } });
  assert.equal(patched.status, 200);
  assert.equal(patched.body.presence, 'online');
  const found = await call(server, 'GET', `/search?q=${alice.login}`, { token: bob.token });
  assert.deepEqual(found.body.data.filter((hit: any) => hit.type === 'user').map((hit: any) => hit.presence), ['online']);
});

test('If-Match on a user holds while only presence moved: presence is not part of what a PATCH changes', async (t) => {
  const { clock, server, alice } = await setUp(t, 3_600_000);
  const read = await call(server, 'GET', `/users/${alice.userId}`, { token: alice.token });
  clock.advance(3 * 60_000);
  const patched = await call(server, 'PATCH', `/users/${alice.userId}`, { token: alice.token, json: { login: `${alice.login}x` }, headers: { 'if-match': String(read.headers['etag']) } });
  assert.equal(patched.status, 200, patched.text);
  const stale = await call(server, 'PATCH', `/users/${alice.userId}`, { token: alice.token, json: { login: `${alice.login}y` }, headers: { 'if-match': String(read.headers['etag']) } });
  assert.equal(stale.status, 412, 'a change of the login is a change');
});

test('an open stream keeps a user online; once it closes they are offline after the 10 s grace, their earlier requests forgotten', async (t) => {
  const { clock, server, bob, presenceOf } = await setUp(t, 3_600_000);
  const stream = await openReady(server, { token: bob.token });
  clock.advance(31 * 60_000);
  assert.equal(await presenceOf(bob.userId), 'online', 'an open stream, however idle');
  stream.close();
  await stream.ended;
  await waitFor(() => server.app.services.events.streamCount(bob.userId) === 0, 'the stream detached');
  assert.equal(await presenceOf(bob.userId), 'online', 'within the grace (a page moving to the next)');
  clock.advance(10_000);
  assert.equal(await presenceOf(bob.userId), 'offline');
  await call(server, 'GET', '/chats', { token: bob.token });
  assert.equal(await presenceOf(bob.userId), 'online', 'a request after leaving counts again');
});

test('presence.changed goes to those who share a chat, without an id: online at the first request, away and offline as time passes', async (t) => {
  const { clock, server, alice, bob, carol } = await setUp(t);
  await createChat(server, alice, { title: 'Shared', members: [bob.userId] });
  const aliceStream = await openReady(server, { token: alice.token });
  const carolStream = await openReady(server, { token: carol.token });
  t.after(() => { aliceStream.close(); carolStream.close(); });
  // Bob's requests so far (his login, the setup) are forgotten: 31 minutes on, he is offline to everyone.
  clock.advance(31 * 60_000);
  await aliceStream.until(() => server.app.services.presence.presenceOf(bob.userId, null) === 'offline', 'bob offline');
  const before = presenceEvents(aliceStream).length;
  const at = new Date(clock.time).toISOString();
  await call(server, 'GET', '/chats', { token: bob.token });
  const online = await aliceStream.until((stream) => presenceEvents(stream).length > before, 'bob online').then(() => aliceStream.ephemeralEvents.at(-1)!);
  assert.equal(online.id, undefined);
  assert.deepEqual(online.json, { type: 'presence.changed', chatId: null, createdAt: at, data: { userId: bob.userId, presence: 'online' } });
  clock.advance(2 * 60_000);
  await aliceStream.until((stream) => presenceEvents(stream).length > before + 1, 'bob away');
  assert.deepEqual((presenceEvents(aliceStream).at(-1) as any).data, { userId: bob.userId, presence: 'away' });
  clock.advance(28 * 60_000);
  await aliceStream.until((stream) => presenceEvents(stream).length > before + 2, 'bob offline');
  assert.deepEqual((presenceEvents(aliceStream).at(-1) as any).data, { userId: bob.userId, presence: 'offline' });
  assert.deepEqual(presenceEvents(carolStream).filter((event: any) => event.data.userId === bob.userId), [], 'carol shares no chat with bob');
});

test('requests are written to last_seen_at in batches: one statement per flush, never a write per request', async (t) => {
  const { clock, server, alice, bob } = await setUp(t, 3_600_000);
  const lastSeen = async (userId: string): Promise<unknown> => (await runSql(server, `SELECT last_seen_at AS at FROM users WHERE id = '${userId}'`))[0]!['at'];
  await call(server, 'GET', '/chats', { token: alice.token });
  assert.equal(await lastSeen(alice.userId), null, 'nothing written by the request itself');
  clock.advance(1000);
  const at = clock.time;
  await call(server, 'GET', '/chats', { token: alice.token });
  await call(server, 'GET', '/chats', { token: bob.token });
  await server.app.services.presence.flush();
  assert.equal(await lastSeen(alice.userId), at);
  assert.equal(await lastSeen(bob.userId), at);
  // An older value never moves it back (another process's flush arriving late).
  await server.app.services.storage.users.recordLastSeen([[alice.userId, at - 5000]]);
  assert.equal(await lastSeen(alice.userId), at);
});

async function waitFor(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
