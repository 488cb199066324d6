// The presence tracker (src/events/presence.ts) over a bus of its own and a clock the test moves: requests noted in
// memory and written in one batch; stream holders heard from other processes; what is announced, and when.
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { EphemeralBus } from '../../src/events/ephemeral-bus.ts';
import { HOLDER_TTL_MS, LAST_SEEN_PER_WRITE, PresenceTracker } from '../../src/events/presence.ts';
import { STREAM_GRACE_MS } from '../../src/events/presence-rule.ts';

function tracker(t: TestContext, lastSeen: Record<string, number> = {}) {
  let now = Date.UTC(2026, 10, 21, 9, 30);
  const bus = new EphemeralBus();
  const announced: string[] = [];
  bus.listen((message) => {
    if (message.kind === 'event') announced.push(`${String(message.event.data['userId'])} ${String(message.event.data['presence'])} to ${message.event.audienceChatIds.join(',')}`);
  });
  const flushes: (readonly (readonly [string, number])[])[] = [];
  const local = new Map<string, number>();
  const presence = new PresenceTracker({
    bus, now: () => now, localStreams: (userId) => local.get(userId) ?? 0, localHolders: () => [...local.keys()],
    chatIdsOfUser: async (userId) => [`chat-of-${userId}`], lastSeenOf: async (userId) => lastSeen[userId] ?? null,
    recordLastSeen: async (seen) => void flushes.push(seen), logError: (error) => { throw error; }, flushMs: 3_600_000, sweepMs: 3_600_000,
  });
  t.after(() => presence.stop());
  const settle = () => new Promise<void>((resolve) => setImmediate(resolve));
  return { presence, bus, announced, flushes, local, settle, advance: (ms: number) => { now += ms; }, now: () => now };
}

test('requests are two map writes: one announcement when the user comes online, one batch per flush', async (t) => {
  const { presence, announced, flushes, settle, advance, now } = tracker(t);
  presence.noteActivity('u');
  presence.noteActivity('u');
  advance(1000);
  presence.noteActivity('v');
  presence.noteActivity('u');
  await settle();
  assert.deepEqual(announced, ['u online to chat-of-u', 'v online to chat-of-v']);
  await presence.flush();
  await presence.flush();
  assert.deepEqual(flushes, [[['u', now()], ['v', now()]]], 'one batch with each user once, and nothing when nothing happened');
});

test('a flush writes in pieces of LAST_SEEN_PER_WRITE users, one after another, each user once', async (t) => {
  const { presence, flushes, now } = tracker(t);
  const users = Array.from({ length: 2 * LAST_SEEN_PER_WRITE + 1 }, (_, i) => `u${i}`);
  for (const userId of users) presence.noteActivity(userId);
  await presence.flush();
  assert.deepEqual(flushes.map((piece) => piece.length), [LAST_SEEN_PER_WRITE, LAST_SEEN_PER_WRITE, 1]);
  assert.deepEqual(flushes.flat(), users.map((userId) => [userId, now()]));
});

test('time makes a user away, then offline: each change announced once, by the sweep', async (t) => {
  const { presence, announced, settle, advance } = tracker(t);
  presence.noteActivity('u');
  advance(2 * 60_000);
  await presence.sweep();
  await presence.sweep();
  advance(28 * 60_000);
  await presence.sweep();
  await settle();
  assert.deepEqual(announced, ['u online to chat-of-u', 'u away to chat-of-u', 'u offline to chat-of-u']);
});

test('a request another process wrote to last_seen_at keeps the user online here', async (t) => {
  const lastSeen: Record<string, number> = {};
  const { presence, announced, settle, advance, now } = tracker(t, lastSeen);
  presence.noteActivity('u');
  advance(3 * 60_000);
  lastSeen['u'] = now() - 1000;
  await presence.sweep();
  await settle();
  assert.deepEqual(announced, ['u online to chat-of-u']);
  assert.equal(presence.presenceOf('u', lastSeen['u']), 'online');
});

test('streams held by another process: online while announced, offline after the grace once closed or forgotten', async (t) => {
  const { presence, bus, announced, settle, advance } = tracker(t);
  const other = new EphemeralBus();
  const relay: string[] = [];
  other.connect({ send: (payload) => relay.push(payload) });
  other.publish({ kind: 'streams', open: ['u', 'w'], closed: [] });
  for (const payload of relay.splice(0)) bus.receive(payload);
  assert.equal(presence.presenceOf('u', null), 'online');
  other.publish({ kind: 'streams', open: [], closed: ['u'] });
  for (const payload of relay.splice(0)) bus.receive(payload);
  advance(STREAM_GRACE_MS - 1);
  assert.equal(presence.presenceOf('u', null), 'online', 'within the grace');
  advance(1);
  assert.equal(presence.presenceOf('u', null), 'offline');
  // w's process dies without a word: forgotten HOLDER_TTL_MS after its last announcement, offline after the grace.
  advance(HOLDER_TTL_MS - STREAM_GRACE_MS - 1);
  assert.equal(presence.presenceOf('w', null), 'online');
  advance(1);
  await presence.sweep();
  assert.equal(presence.presenceOf('w', null), 'online', 'forgotten, within the grace');
  advance(STREAM_GRACE_MS);
  await presence.sweep();
  await settle();
  assert.equal(presence.presenceOf('w', null), 'offline');
  assert.deepEqual(announced, ['w offline to chat-of-w'], 'the peers of w are told by the process that noticed');
});

test('the hub\'s first stream and last stream of a user are announced on the bus; a close is told after the grace', async (t) => {
  const { presence, bus, announced, local, settle, advance } = tracker(t);
  const sent: string[] = [];
  bus.connect({ send: (payload) => sent.push(JSON.parse(payload).m.kind) });
  local.set('u', 1);
  presence.streamsChanged('u', 1);
  local.delete('u');
  presence.streamsChanged('u', 0);
  await presence.sweep();
  advance(STREAM_GRACE_MS);
  await presence.sweep();
  await settle();
  assert.deepEqual(announced, ['u online to chat-of-u', 'u offline to chat-of-u']);
  // The announcements wait for the user's chats to be read: both holder messages go first.
  assert.deepEqual(sent, ['streams', 'streams', 'event', 'event']);
});

test('a close heard late counts from when it happened there, not from when it was heard', async (t) => {
  const { presence, bus, now } = tracker(t);
  const other = new EphemeralBus();
  const relay: string[] = [];
  other.connect({ send: (payload) => relay.push(payload) });
  other.publish({ kind: 'streams', open: ['u'], closed: [], at: now() });
  other.publish({ kind: 'streams', open: [], closed: ['u'], at: now() - STREAM_GRACE_MS });
  for (const payload of relay.splice(0)) bus.receive(payload);
  assert.equal(presence.presenceOf('u', null), 'offline', 'the grace was over before the message arrived');
});

test('a user another process told online is not told again when their requests reach this one; after offline, they are', async (t) => {
  const a = tracker(t);
  const b = tracker(t);
  // Two processes: each one's messages reach the other (src/workers.ts relays them through the primary).
  const told = { a: [] as string[], b: [] as string[] };
  a.bus.connect({ send: (payload) => { told.a.push(payload); b.bus.receive(payload); } });
  b.bus.connect({ send: (payload) => { told.b.push(payload); a.bus.receive(payload); } });
  const presences = (payloads: string[]) => payloads.map((payload) => JSON.parse(payload).m)
    .filter((message) => message.kind === 'event').map((message) => `${message.event.data.userId} ${message.event.data.presence}`);
  a.presence.noteActivity('u');
  await a.settle();
  b.presence.noteActivity('u');
  b.local.set('u', 1);
  b.presence.streamsChanged('u', 1);
  await b.settle();
  assert.deepEqual(presences(told.a), ['u online']);
  assert.deepEqual(presences(told.b), [], 'b took up what a told');
  assert.equal(b.presence.presenceOf('u', null), 'online');
  // Only a's request: a tells the peers u is away, then offline; b follows u now and agrees (an open stream there).
  b.local.delete('u');
  b.presence.streamsChanged('u', 0);
  a.advance(30 * 60_000);
  b.advance(30 * 60_000);
  await a.presence.sweep();
  await a.settle();
  await b.presence.sweep();
  await b.settle();
  assert.deepEqual(presences(told.a), ['u online', 'u offline']);
  assert.deepEqual(presences(told.b), [], 'b heard the change: it does not tell it again');
  // Offline to the peers: the next request, wherever it lands, tells them online.
  b.presence.noteActivity('u');
  await b.settle();
  assert.deepEqual(presences(told.b), ['u online']);
});

test('a user told online elsewhere, not followed here: told offline there, then a request here tells the peers online again', async (t) => {
  const a = tracker(t);
  const b = tracker(t);
  const told: string[] = [];
  a.bus.connect({ send: (payload) => b.bus.receive(payload) });
  b.bus.connect({ send: (payload) => { told.push(JSON.parse(payload).m.event?.data.presence); a.bus.receive(payload); } });
  a.presence.noteActivity('v');
  await a.settle();
  a.advance(30 * 60_000);
  await a.presence.sweep();
  await a.settle();
  b.presence.noteActivity('v');
  await b.settle();
  assert.deepEqual(told, ['online']);
});
