// The event hub itself (src/events/hub.ts), called directly over a log in memory: wake-ups, live delivery in id
// order and once, replay then live, who may see what on replay, detach, session ends and stop.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hubOver, ids, MemoryLog, openStream, recorder, until } from './memory-log.ts';

test('a live subscriber gets, after a wake-up, each new event its user may see, once and in id order', async (t) => {
  const log = new MemoryLog();
  log.created('a', ['u']);
  log.created('b', ['v']);
  const hub = hubOver(t, log, log.newestId);
  const u = recorder('u');
  await openStream(hub, u);
  assert.deepEqual(u.readyAt, { newestId: 2, delivered: 0 });
  const m1 = log.message('a', 'm1');
  log.message('b', 'm2');
  const mine = log.only('a', 'u');
  log.only('a', 'v');
  const m3 = log.message('a', 'm3');
  hub.wake();
  await hub.catchUp();
  assert.deepEqual(ids(u.got), [m1, mine, m3]);
  assert.equal(hub.newestId, m3);
  // Read again with nothing new: nothing is sent twice.
  hub.wake();
  await hub.catchUp();
  assert.deepEqual(ids(u.got), [m1, mine, m3]);
});

test('wake-ups given before the hub reads are one read of the log; without one, events wait for the next read', async (t) => {
  const log = new MemoryLog();
  log.created('a', ['u']);
  const hub = hubOver(t, log, log.newestId);
  const u = recorder('u');
  await openStream(hub, u);
  const m1 = log.message('a', 'm1');
  // A lost hint loses nothing: the event is read at the next read of the log (the poll, another wake-up).
  await new Promise<void>((resolve) => setImmediate(resolve));
  assert.deepEqual(u.got, []);
  const reads = log.reads;
  for (let i = 0; i < 5; i++) hub.wake();
  await until(() => u.got.length === 1, 'the event');
  assert.equal(log.reads - reads, 1);
  assert.deepEqual(ids(u.got), [m1]);
});

for (const where of ['held in memory', 'read from the log'] as const) test(`a stream resumed from an id gets the history after it, then the live events, with no gap and nothing twice (${where})`, async (t) => {
  const log = new MemoryLog();
  log.created('a', ['u']);
  for (let i = 1; i <= 9; i++) log.message('a', `m${i}`);
  const hub = hubOver(t, log, where === 'held in memory' ? 0 : log.newestId);
  // Behind after the first slice: the replay waits for the client while more is committed and dispatched.
  const u = recorder('u');
  let drain: () => void = () => {};
  const drained = new Promise<void>((resolve) => { drain = resolve; });
  u.isCongested = () => u.got.length > 0 && u.readyAt === undefined;
  u.whenDrained = () => drained;
  const streaming = openStream(hub, u, 4);
  await until(() => u.got.length > 0, 'the first slice');
  assert.deepEqual(ids(u.got), [5, 6, 7, 8, 9, 10]);
  log.message('a', 'm10');
  log.message('a', 'm11');
  hub.wake();
  await until(() => hub.newestId === 12, 'the hub to read 12');
  // Not live yet: what came meanwhile is the replay's to send.
  assert.equal(u.got.length, 6);
  drain();
  await streaming;
  assert.deepEqual(u.readyAt, { newestId: 12, delivered: 8 });
  const m12 = log.message('a', 'm12');
  hub.wake();
  await hub.catchUp();
  assert.deepEqual(ids(u.got), [5, 6, 7, 8, 9, 10, 11, 12, m12]);
});

for (const where of ['held in memory', 'read from the log'] as const) test(`a replay sends exactly what the user could have seen live, judged at each event's moment (${where})`, async (t) => {
  const log = new MemoryLog();
  const hub = hubOver(t, log, 0);
  // Attached before anything happened: what it receives live is what the replay must give.
  const live = recorder('u', 'live');
  await openStream(hub, live);
  const script = [
    () => log.created('a', ['owner']),
    () => log.message('a', 'before u joined'),
    () => log.added('a', 'u'),
    () => log.message('a', 'while a member'),
    () => log.removed('a', 'u'),
    () => log.message('a', 'after u left'),
    () => log.only('a', 'u'),
    () => log.only('a', 'owner'),
    () => log.created('b', ['u', 'owner']),
    () => log.message('b', 'in b'),
    () => log.added('a', 'u'),
    () => log.message('a', 'back in a'),
  ];
  for (const step of script) {
    step();
    hub.wake();
    await hub.catchUp();
  }
  const expected = [3, 4, 5, 7, 9, 10, 11, 12];
  assert.deepEqual(ids(live.got), expected);
  // A process started now holds none of it: the replay reads the log.
  const replayHub = where === 'held in memory' ? hub : hubOver(t, log, log.newestId);
  const resumed = recorder('u', 'resumed');
  await openStream(replayHub, resumed, 0);
  assert.deepEqual(ids(resumed.got), expected);
  // From the middle: judged by the membership at that id (u was not a member of a after 5, until 11).
  const fromMiddle = recorder('u', 'middle');
  await openStream(replayHub, fromMiddle, 5);
  assert.deepEqual(ids(fromMiddle.got), [7, 9, 10, 11, 12]);
  // A long-poll reads the same.
  const poll = recorder('u', 'poll', 'poll');
  await replayHub.attach(poll);
  const events = await replayHub.readVisible(await replayHub.openReplay('u', 0), 100);
  assert.deepEqual(ids(events), expected);
});

test('a detached subscriber gets nothing more and counts no more; long-polls never count as streams', async (t) => {
  const log = new MemoryLog();
  log.created('a', ['u']);
  const hub = hubOver(t, log, log.newestId);
  const stream = recorder('u', 's1');
  const other = recorder('u', 's2');
  const poll = recorder('u', 's3', 'poll');
  await openStream(hub, stream);
  await openStream(hub, other);
  await openStream(hub, poll);
  assert.deepEqual([hub.streamCount('u'), hub.streamCount()], [2, 2]);
  hub.detach(stream);
  hub.detach(stream);
  assert.deepEqual([hub.streamCount('u'), hub.streamCount()], [1, 1]);
  const m1 = log.message('a', 'm1');
  hub.wake();
  await hub.catchUp();
  assert.deepEqual([ids(stream.got), ids(other.got), ids(poll.got)], [[], [m1], [m1]]);
  assert.deepEqual(stream.ended, [], 'a detach is the caller\'s own: the hub does not end the answer');
});

test('ending a session ends its subscribers only; stop ends the rest, once, as a shutdown', async (t) => {
  const log = new MemoryLog();
  log.created('a', ['u', 'v']);
  const hub = hubOver(t, log, log.newestId);
  const [u1, u2, v] = [recorder('u', 'one'), recorder('u', 'two'), recorder('v', 'three')];
  for (const subscriber of [u1, u2, v]) await openStream(hub, subscriber);
  hub.endSession('one');
  assert.deepEqual([u1.ended, u2.ended, v.ended], [['session ended'], [], []]);
  assert.equal(hub.streamCount(), 2);
  hub.stop();
  assert.deepEqual([u1.ended, u2.ended, v.ended], [['session ended'], ['shutdown'], ['shutdown']]);
  assert.equal(hub.streamCount(), 0);
  // A stream still being opened when the server began to stop ends at once: it cannot hold the server's close.
  const late = recorder('v', 'four');
  await hub.attach(late);
  assert.deepEqual(late.ended, ['shutdown']);
  assert.equal(hub.streamCount(), 0);
});

test('a session.ended read from the log is delivered, then ends the subscribers of the sessions it names; one attaching later ends at once', async (t) => {
  const log = new MemoryLog();
  log.created('a', ['u', 'v']);
  const hub = hubOver(t, log, log.newestId);
  const [one, two, poll, other, v] = [recorder('u', 'one'), recorder('u', 'two'), recorder('u', 'two', 'poll'), recorder('u', 'three'), recorder('v', 'four')];
  for (const subscriber of [one, two, poll, other, v]) await openStream(hub, subscriber);
  // Written by another process: this hub learns of it only by reading the log, like every event.
  const ended = log.append('session.ended', '', { userId: 'u', ids: ['one', 'two'] }, { onlyUserId: 'u' });
  hub.wake();
  await hub.catchUp();
  assert.deepEqual([one.ended, two.ended, poll.ended, other.ended, v.ended], [['session ended'], ['session ended'], ['session ended'], [], []]);
  assert.deepEqual([ids(one.got), ids(other.got), ids(v.got)], [[ended], [ended], []], 'delivered to the user\'s streams first, to no one else');
  assert.equal(hub.streamCount('u'), 1);
  // A request authenticated just before the end attaches just after the hub read it: ended at once too.
  const late = recorder('u', 'two');
  await openStream(hub, late);
  assert.deepEqual(late.ended, ['session ended']);
  assert.equal(hub.streamCount('u'), 1);
});

test('at each tick, streams of a session that ended are ended and the others pinged; long-polls are not pinged', async (t) => {
  const log = new MemoryLog();
  log.created('a', ['u']);
  const hub = hubOver(t, log, log.newestId, { pingMs: 5, liveSessions: async (sessionIds) => new Map(sessionIds.filter((id) => id !== "gone").map((id) => [id, Infinity])) });
  const [kept, gone, poll] = [recorder('u', 'kept'), recorder('u', 'gone'), recorder('u', 'kept', 'poll')];
  for (const subscriber of [kept, gone, poll]) await openStream(hub, subscriber);
  await until(() => kept.pings > 0 && gone.ended.length > 0, 'a tick');
  assert.deepEqual([gone.ended, gone.pings, poll.pings, poll.ended], [['session ended'], 0, 0, []]);
  assert.equal(hub.streamCount('u'), 1);
});

test('a tick reads a session again only once its known expiry has come: extended, it stays; expired, its streams end', async (t) => {
  const log = new MemoryLog();
  log.created('a', ['u']);
  let now = 1000;
  // The store's view: each session's expiry; a session missing from it has ended.
  const expiry = new Map([['short', 2000], ['long', 9000]]);
  const asked: string[][] = [];
  const hub = hubOver(t, log, log.newestId, {
    pingMs: 5,
    now: () => now,
    liveSessions: async (sessionIds) => {
      asked.push([...sessionIds].sort());
      return new Map(sessionIds.filter((id) => (expiry.get(id) ?? 0) > now).map((id) => [id, expiry.get(id)!]));
    },
  });
  const [short, long, shortToo] = [recorder('u', 'short'), recorder('u', 'long'), recorder('u', 'short')];
  for (const subscriber of [short, long, shortToo]) await openStream(hub, subscriber);
  await until(() => short.pings >= 3 && long.pings >= 3, 'three ticks');
  assert.deepEqual(asked, [['long', 'short']], 'each session read once, while its expiry is ahead');

  // Its expiry came, but it was used meanwhile: read again, kept, known until the new expiry.
  now = 2000;
  expiry.set('short', 5000);
  const pings = short.pings;
  await until(() => short.pings >= pings + 3, 'three more ticks');
  assert.deepEqual(asked, [['long', 'short'], ['short']]);
  // Expired: both its streams end at the next tick; the other session's stream goes on.
  now = 5000;
  await until(() => short.ended.length > 0 && shortToo.ended.length > 0, 'the expired session\'s streams end');
  assert.deepEqual([short.ended, shortToo.ended, long.ended], [['session ended'], ['session ended'], []]);
  assert.deepEqual(asked.slice(2), [['short']]);
  assert.equal(hub.streamCount('u'), 1);
});

/** Answers of one of the log's reads, as of when it was called, held back while `holding` (a slow store). */
function holdable<A extends unknown[], R>(read: (...args: A) => Promise<R>) {
  const waiting: (() => void)[] = [];
  const gate = {
    holding: false,
    get waiting(): number {
      return waiting.length;
    },
    call: async (...args: A): Promise<R> => {
      const answer = read(...args);
      if (gate.holding) await new Promise<void>((resolve) => waiting.push(resolve));
      return answer;
    },
    release(): void {
      gate.holding = false;
      for (const resume of waiting.splice(0)) resume();
    },
  };
  return gate;
}

test('an attach waits for a pump under way: a user added while both read is followed from then on', async (t) => {
  const log = new MemoryLog();
  log.created('a', ['owner']);
  const reads = holdable(log.readAfter.bind(log));
  log.readAfter = reads.call;
  let chatsRead: ReturnType<typeof holdable<[string], string[]>> | undefined;
  const hub = hubOver(t, log, log.newestId, {
    snapshot: (work) => log.snapshot((frozen) => {
      const view = frozen as MemoryLog;
      chatsRead = holdable(view.chatIdsOfUser.bind(view));
      chatsRead.holding = true;
      view.chatIdsOfUser = chatsRead.call;
      return work(view);
    }),
  });
  // A pump is reading (slowly), and another wake-up asks it to go round once more.
  reads.holding = true;
  hub.wake();
  await until(() => reads.waiting === 1, 'the pump to read');
  hub.wake();
  await new Promise<void>((resolve) => setImmediate(resolve));
  const u = recorder('u');
  const streaming = openStream(hub, u);
  for (let i = 0; i < 5; i++) await new Promise<void>((resolve) => setImmediate(resolve));
  // u is added and the pump reads it; only then may the attach read u's chats, or u would be one step behind.
  const added = log.added('a', 'u');
  reads.release();
  await until(() => hub.newestId === added, 'the pump to read the addition');
  await until(() => chatsRead !== undefined && chatsRead.waiting === 1, 'the attach to read the chats');
  chatsRead!.release();
  await streaming;
  const m1 = log.message('a', 'm1');
  hub.wake();
  await hub.catchUp();
  assert.deepEqual(ids(u.got), [m1]);
});
