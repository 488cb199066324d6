// The hub's replays (src/events/hub.ts) over a log in memory: a replay that holds events it has not written yet
// leaves out those a delete removed meanwhile, and a replay judges each event by the membership at its moment.
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { EventHub, type EventLog, type Subscriber } from '../../src/events/hub.ts';
import type { LoggedEvent } from '../../src/events/logged-event.ts';
import { MemoryLog } from './memory-log.ts';

/** startAfter 0: the hub reads the whole log into memory; the newest id: a process started now, replays read the log. */
function hubOver(t: TestContext, log: MemoryLog, startAfter = 0): EventHub {
  const hub = new EventHub({
    log, snapshot: (work) => work(log), startAfter, now: () => 0, retentionSeconds: 86_400,
    pingMs: 3_600_000, pollMs: 3_600_000, pruneMs: 3_600_000, liveSessions: async (ids) => new Map(ids.map((id) => [id, Infinity])),
  });
  t.after(() => hub.stop());
  return hub;
}

/** A subscriber that records what it is given; congested after its first delivery until drain() is called. */
function recorder(userId: string): Subscriber & { got: LoggedEvent[]; drain: () => void; drained: Promise<void> } {
  let drain: () => void = () => {};
  let congested = false;
  const drained = new Promise<void>((resolve) => {
    drain = () => {
      congested = false;
      resolve();
    };
  });
  const got: LoggedEvent[] = [];
  return {
    userId, sessionId: 's', kind: 'stream', got, drain, drained,
    deliver: (events) => {
      got.push(...events);
      congested = true;
    },
    ready: () => {},
    isCongested: () => congested,
    whenDrained: () => drained,
    ping: () => {},
    end: () => {},
  };
}

for (const where of ['held in memory', 'read from the log'] as const) test(`events a delete removes while a replay waits for its client to drain are not written after (${where})`, async (t) => {
  const log = new MemoryLog();
  log.members.set('a', new Set(['u']));
  log.append('chat.created', 'a', { id: 'a', members: ['u'] });
  for (let i = 0; i < 150; i++) log.append('message.created', 'a', { id: `m${i}`, text: `text ${i}` }, { subjectId: `m${i}` });
  const hub = hubOver(t, log, where === 'held in memory' ? 0 : 151);
  const subscriber = recorder('u');
  await hub.attach(subscriber);
  const replaying = hub.replayThenGoLive(subscriber, await hub.openReplay('u', 0));
  // The first slice is out and the client is behind: the replay holds the rest of its page.
  await new Promise<void>((resolve) => setImmediate(resolve));
  assert.equal(subscriber.got.length, 100);
  // m120 is deleted meanwhile (its transaction purges the store) and this process's hub reads the deletion.
  const deletion = log.append('message.deleted', 'a', { id: 'm120' }, { subjectId: 'm120' });
  log.purge({ beforeId: deletion, chatId: 'a', subjectId: 'm120', types: ['message.created', 'message.updated', 'message.deleted', 'messages.cleared', 'reaction.added', 'reaction.removed'] });
  hub.wake();
  await new Promise<void>((resolve) => setImmediate(resolve));
  subscriber.drain();
  await replaying;
  const sent = subscriber.got.map((event) => event.type === 'message.deleted' ? 'deleted m120' : JSON.parse(event.data).id as string);
  assert.deepEqual(sent, ['a', ...Array.from({ length: 150 }, (_, i) => `m${i}`).filter((id) => id !== 'm120'), 'deleted m120']);
  assert.ok(!subscriber.got.some((event) => event.data.includes('text 120')));
});

test('a replay from an id judges each event by the membership at its moment, not now', async (t) => {
  const log = new MemoryLog();
  log.append('chat.created', 'a', { id: 'a', members: ['owner'] });
  const cut = log.append('message.created', 'a', { id: 'm1', text: 'before' }, { subjectId: 'm1' });
  log.append('message.created', 'a', { id: 'm2', text: 'still before' }, { subjectId: 'm2' });
  log.append('member.added', 'a', { userId: 'u' });
  log.append('message.created', 'a', { id: 'm3', text: 'after' }, { subjectId: 'm3' });
  log.append('member.removed', 'a', { userId: 'u' }, { alsoUserIds: JSON.stringify(['u']) });
  log.append('member.added', 'a', { userId: 'u' });
  log.members.set('a', new Set(['owner', 'u']));
  const hub = hubOver(t, log);
  const subscriber = recorder('u');
  subscriber.drain();
  await hub.attach(subscriber);
  const replay = await hub.openReplay('u', cut);
  const events = await hub.readVisible(replay, 100);
  assert.deepEqual(events.map((event) => event.id), [4, 5, 6, 7]);
  assert.equal(replay.through, 7);
});

/** A log whose next read of events after `after` lets another process delete `messageId` just as it answers. */
function deleteWhenRead(log: MemoryLog, messageId: string): void {
  const readAfter = log.readAfter.bind(log);
  let done = false;
  log.readAfter = async (afterId, limit) => {
    const records = await readAfter(afterId, limit);
    if (!done && records.some((record) => record.subjectId === messageId)) {
      done = true;
      // Another process's DELETE commits (purging the store) and answers; this hub is not woken.
      const deletion = log.append('message.deleted', 'a', { id: messageId }, { subjectId: messageId });
      log.purge({ beforeId: deletion, chatId: 'a', subjectId: messageId, types: ['message.created', 'message.updated', 'reaction.added', 'reaction.removed'] });
    }
    return records;
  };
}

for (const kind of ['stream', 'long-poll'] as const) test(`a delete another process commits while a replay reads is caught up before events are handed out (${kind})`, async (t) => {
  const log = new MemoryLog();
  log.members.set('a', new Set(['u']));
  log.append('chat.created', 'a', { id: 'a', members: ['u'] });
  log.append('message.created', 'a', { id: 'm1', text: 'secret' }, { subjectId: 'm1' });
  const hub = hubOver(t, log, 2);
  const subscriber = recorder('u');
  subscriber.drain();
  await hub.attach(subscriber);
  deleteWhenRead(log, 'm1');
  const replay = await hub.openReplay('u', 0);
  const sent = kind === 'stream'
    ? (await hub.replayThenGoLive(subscriber, replay), subscriber.got)
    : await hub.readVisible(replay, 100);
  assert.ok(!sent.some((event) => event.data.includes('secret')), 'the deleted text is not handed out');
  assert.deepEqual(sent.map((event) => event.type), kind === 'stream' ? ['chat.created', 'message.deleted'] : ['chat.created']);
});

test('a user added while their stream attaches is followed from the snapshot on: no event of the chat is lost', async (t) => {
  const log = new MemoryLog();
  log.members.set('a', new Set(['owner']));
  log.append('chat.created', 'a', { id: 'a', members: ['owner'] });
  let addedMeanwhile = false;
  // The store's snapshot: the log and the members as they stood when it began, whatever commits meanwhile.
  const snapshot = async <T>(work: (view: EventLog) => Promise<T>): Promise<T> => {
    const frozen = new MemoryLog();
    frozen.records = [...log.records];
    frozen.members = new Map(log.members);
    const chatIdsOfUser = frozen.chatIdsOfUser.bind(frozen);
    frozen.chatIdsOfUser = async (userId) => {
      if (!addedMeanwhile) {
        addedMeanwhile = true;
        // Another request adds u to the chat and commits while the snapshot reads; the hub is woken.
        log.append('member.added', 'a', { userId: 'u' });
        log.members.set('a', new Set(['owner', 'u']));
        hub.wake();
        for (let i = 0; i < 5; i++) await new Promise<void>((resolve) => setImmediate(resolve));
      }
      return chatIdsOfUser(userId);
    };
    return work(frozen);
  };
  const hub = new EventHub({
    log, snapshot, startAfter: 1, now: () => 0, retentionSeconds: 86_400,
    pingMs: 3_600_000, pollMs: 3_600_000, pruneMs: 3_600_000, liveSessions: async (ids) => new Map(ids.map((id) => [id, Infinity])),
  });
  t.after(() => hub.stop());
  const subscriber = recorder('u');
  subscriber.drain();
  await hub.attach(subscriber);
  await hub.replayThenGoLive(subscriber, await hub.openReplay('u', 1));
  log.append('message.created', 'a', { id: 'm1', text: 'welcome' }, { subjectId: 'm1' });
  await hub.catchUp();
  assert.deepEqual(subscriber.got.map((event) => event.type), ['member.added', 'message.created']);
});
