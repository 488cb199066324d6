// Nothing lost (docs/protocol.md §9.3): resume by Last-Event-ID or ?after=, reset for unknown or pruned ids, long-poll, across restarts.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { startServer } from '../../src/index.ts';
import { call, registerAndLogIn, TestClock, withServer } from './client.ts';
import { createChat, postMessage, threeUsers } from './chat-fixtures.ts';
import { openReady } from './event-stream.ts';

test('a client that missed 100 events gets exactly those 100, in order, then ready, then live events', async (t) => {
  const server = await withServer(t);
  const { alice, bob } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'Busy', members: [bob.userId] });
  const first = await openReady(server, { token: alice.token });
  const lastSeen = (await first.next('ready')).id!;
  first.close();
  await first.ended;
  const missed: string[] = [];
  for (let i = 0; i < 100; i++) missed.push((await postMessage(server, bob, chat.id, { text: `missed ${i}` })).id);
  const resumed = await openReady(server, { token: alice.token, lastEventId: lastSeen });
  t.after(() => resumed.close());
  assert.deepEqual(resumed.logEvents.map((event) => event.json.data.id), missed);
  const ids = resumed.logEvents.map((event) => Number(event.id));
  assert.deepEqual(ids, Array.from({ length: 100 }, (_, i) => Number(lastSeen) + 1 + i));
  const ready = resumed.events.at(-1)!;
  assert.equal(ready.type, 'ready');
  assert.equal(ready.id, String(ids.at(-1)));
  const live = await postMessage(server, bob, chat.id, { text: 'live' });
  await resumed.logEventCount(101);
  assert.equal(resumed.logEvents[100]!.json.data.id, live.id);
});

test('?after= resumes a first connection; Last-Event-ID wins over it', async (t) => {
  const server = await withServer(t);
  const { alice } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'Resume' });
  const messages = [];
  for (let i = 0; i < 4; i++) messages.push(await postMessage(server, alice, chat.id, { text: `m${i}` }));
  // Events: 1 chat.created, 2..5 the messages.
  const byQuery = await openReady(server, { token: alice.token, query: 'after=3' });
  assert.deepEqual(byQuery.logEvents.map((event) => event.id), ['4', '5']);
  byQuery.close();
  const byHeader = await openReady(server, { token: alice.token, query: 'after=1', lastEventId: '4' });
  assert.deepEqual(byHeader.logEvents.map((event) => event.id), ['5']);
  byHeader.close();
  const fromZero = await openReady(server, { token: alice.token, query: 'after=0' });
  assert.deepEqual(fromZero.logEvents.map((event) => event.id), ['1', '2', '3', '4', '5']);
  fromZero.close();
  const bad = await call(server, 'GET', '/events?after=x', { token: alice.token, headers: { accept: 'text/event-stream' } });
  assert.equal(bad.status, 400);
  assert.deepEqual(bad.body.errors, [{ field: 'after', message: 'must be an event id (a non-negative integer)' }]);
  const unknown = await call(server, 'GET', '/events?since=1', { token: alice.token, headers: { accept: 'text/event-stream' } });
  assert.equal(unknown.status, 400);
  assert.equal(unknown.body.errors[0].field, 'since');
});

test('an unknown resume id gets reset (without an id) before ready; the client then reads state and goes on', async (t) => {
  const server = await withServer(t);
  const { alice } = await threeUsers(server);
  await createChat(server, alice, { title: 'One event' });
  for (const lastEventId of ['999', 'not-a-number']) {
    const stream = await openReady(server, { token: alice.token, lastEventId });
    assert.deepEqual(stream.events.map((event) => event.type), ['reset', 'ready']);
    assert.equal(stream.events[0]!.id, undefined, 'reset does not move the last event id');
    assert.equal(typeof stream.events[0]!.json.reason, 'string');
    assert.equal(stream.events[1]!.id, '1');
    stream.close();
  }
});

test('events older than --event-retention are pruned: resuming below them is a reset, long-poll a 410', async (t) => {
  const clock = new TestClock();
  const server = await withServer(t, { clock, eventRetention: 60, eventTimings: { pruneMs: 20 } });
  const { alice } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'Old' });
  await postMessage(server, alice, chat.id, { text: 'old' });
  clock.advance(61_000);
  const fresh = await postMessage(server, alice, chat.id, { text: 'fresh' });
  // Wait for the background pruning (a condition, not a sleep): the long-poll from 0 becomes a 410.
  let gone;
  for (let tries = 0; tries < 500; tries++) {
    gone = await call(server, 'GET', '/events?after=0&wait=0', { token: alice.token });
    if (gone.status === 410) break;
    await new Promise((resolve) => setImmediate(resolve));
  }
  assert.equal(gone!.status, 410);
  assert.equal(gone!.headers['content-type'], 'application/problem+json');
  assert.equal(gone!.body.code, 'ERR_EVENTS_GONE');
  const reset = await openReady(server, { token: alice.token, lastEventId: '1' });
  assert.deepEqual(reset.events.map((event) => event.type), ['reset', 'ready']);
  assert.match(reset.events[0]!.json.reason, /no longer kept/);
  reset.close();
  // From the pruning point on, nothing is lost: resuming at 2 replays the fresh message.
  const kept = await openReady(server, { token: alice.token, lastEventId: '2' });
  assert.deepEqual(kept.logEvents.map((event) => event.json.data.id), [fresh.id]);
  kept.close();
  const poll = await call(server, 'GET', '/events?after=2&wait=0', { token: alice.token });
  assert.equal(poll.status, 200);
  assert.deepEqual(poll.body.data.map((event: { id: string }) => event.id), ['3']);
});

test('long-poll: answers at once when events wait, else when one arrives, else after wait seconds with none', async (t) => {
  const server = await withServer(t);
  const { alice, bob } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'Poll', members: [bob.userId] });
  const now = await call(server, 'GET', '/events?after=0', { token: bob.token });
  assert.equal(now.status, 200);
  assert.equal(now.headers['cache-control'], 'no-store');
  assert.deepEqual(now.body.data.map((event: { type: string }) => event.type), ['chat.created']);
  assert.deepEqual(now.body.meta, { lastEventId: '1' });
  assert.equal(now.headers['link'], '</events?after=1>; rel="next"');
  // Nothing after 1 yet: the poll waits for the next event.
  const waiting = call(server, 'GET', '/events?after=1&wait=20', { token: bob.token });
  const message = await postMessage(server, alice, chat.id, { text: 'wake up' });
  const woken = await waiting;
  assert.equal(woken.status, 200);
  assert.deepEqual(woken.body.data.map((event: { data: { id: string } }) => event.data.id), [message.id]);
  assert.deepEqual(woken.body.meta, { lastEventId: '2' });
  // `after` missing: only what comes after the request.
  const empty = await call(server, 'GET', '/events?wait=0', { token: bob.token });
  assert.deepEqual(empty.body, { data: [], meta: { lastEventId: '2' } });
  const timedOut = await call(server, 'GET', '/events?after=2&wait=1', { token: bob.token });
  assert.deepEqual(timedOut.body, { data: [], meta: { lastEventId: '2' } });
  for (const wait of ['31', '-1', 'x', '1.5']) {
    const bad = await call(server, 'GET', `/events?wait=${wait}`, { token: bob.token });
    assert.equal(bad.status, 400, wait);
    assert.equal(bad.body.errors[0].field, 'wait');
  }
  const future = await call(server, 'GET', '/events?after=50&wait=0', { token: bob.token });
  assert.equal(future.status, 410);
});

test('long-poll skips what the caller may not see and says how far it read', async (t) => {
  const server = await withServer(t);
  const { alice, carol } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'Not carol\'s' });
  for (let i = 0; i < 3; i++) await postMessage(server, alice, chat.id, { text: `m${i}` });
  const res = await call(server, 'GET', '/events?after=0&wait=0', { token: carol.token });
  assert.deepEqual(res.body, { data: [], meta: { lastEventId: '4' } });
  const xml = await call(server, 'GET', '/events?after=0&wait=0', { token: alice.token, headers: { accept: 'application/xml' } });
  assert.match(xml.text, /<collection type="event" lastEventId="4"/);
  assert.equal((xml.text.match(/<event>/g) ?? []).length, 4);
});

test('long-poll pages: at most 100 events an answer, and meta.lastEventId leads to the rest', async (t) => {
  const server = await withServer(t);
  const { alice } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'Many' });
  for (let i = 0; i < 120; i++) await postMessage(server, alice, chat.id, { text: `m${i}` });
  const first = await call(server, 'GET', '/events?after=0', { token: alice.token });
  assert.equal(first.body.data.length, 100);
  assert.equal(first.body.meta.lastEventId, '100');
  const second = await call(server, 'GET', `/events?after=${first.body.meta.lastEventId}`, { token: alice.token });
  assert.deepEqual(second.body.data.map((event: { id: string }) => Number(event.id)), Array.from({ length: 21 }, (_, i) => 101 + i));
});

test('resume across a restart on the same database file: the log outlives the process', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'chat-events-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const db = join(dir, 'chat.db');
  const first = await startServer({ db, scryptN: 1024, writeRate: 0, registerRate: 0, registration: 'open' });
  const alice = await registerAndLogIn(first);
  const chat = await createChat(first, alice, { title: 'Durable' });
  const stream = await openReady(first, { token: alice.token });
  const seen = (await stream.next('ready')).id!;
  const written = [];
  for (let i = 0; i < 5; i++) written.push((await postMessage(first, alice, chat.id, { text: `before restart ${i}` })).id);
  await first.close();
  await stream.ended;
  const second = await startServer({ db, scryptN: 1024, writeRate: 0, registerRate: 0, registration: 'open' });
  t.after(() => second.close());
  const after = await postMessage(second, alice, chat.id, { text: 'after restart' });
  const resumed = await openReady(second, { token: alice.token, lastEventId: seen });
  t.after(() => resumed.close());
  assert.deepEqual(resumed.logEvents.map((event) => event.json.data.id), [...written, after.id]);
  assert.deepEqual(resumed.logEvents.map((event) => Number(event.id)), [2, 3, 4, 5, 6, 7]);
});
