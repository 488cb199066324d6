// The path from a commit to the streams (src/events/event-wake-up.ts, docs/events.md "How a commit wakes the
// streams"): the store tells its CommitListener, which counts, wakes the hub and tells the other workers.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EventHub } from '../../src/events/hub.ts';
import { EventWakeUp } from '../../src/events/event-wake-up.ts';
import { Counter } from '../../src/metrics/registry.ts';
import { SqliteStore } from '../../src/storage/sqlite/sqlite-store.ts';
import { hubOver, ids, MemoryLog, openStream, recorder, until } from './memory-log.ts';

const eventsWritten = (): Counter => new Counter('chat_events_written_total', 'Events appended to the event log.');

test('a commit of this process is counted, wakes the hub and is relayed; another process\'s only wakes the hub', async (t) => {
  const log = new MemoryLog();
  log.created('a', ['u']);
  const counter = eventsWritten();
  let relayed = 0;
  const onDisk: (number | undefined)[] = [];
  const wakeUp = new EventWakeUp(counter, (through) => { relayed++; onDisk.push(through); });
  // Before the hub exists (the store is opened first): counted and relayed, nothing to wake.
  wakeUp.eventsCommitted(1, true, 7);
  assert.deepEqual([counter.get(), relayed, onDisk], [1, 1, [7]], 'relayed with how far the log is on disk');
  const hub = hubOver(t, log, log.newestId);
  wakeUp.startWaking(hub);
  const u = recorder('u');
  await openStream(hub, u);
  const m1 = log.message('a', 'm1');
  const m2 = log.message('a', 'm2');
  wakeUp.eventsCommitted(2);
  await until(() => u.got.length === 2, 'the two events');
  assert.deepEqual([ids(u.got), counter.get(), relayed], [[m1, m2], 3, 2]);
  const m3 = log.message('a', 'm3');
  wakeUp.othersCommitted();
  await until(() => u.got.length === 3, 'the event of another process');
  assert.deepEqual([ids(u.got), counter.get(), relayed], [[m1, m2, m3], 3, 2]);
});

for (const how of ['transaction', 'writeTogether'] as const) test(`a SQLite ${how} that appends events wakes the hub through the listener it was opened with, with no poll`, async (t) => {
  const counter = eventsWritten();
  const wakeUp = new EventWakeUp(counter, undefined);
  const store = new SqliteStore(':memory:', { commits: wakeUp });
  const hub = new EventHub({
    log: store.events, snapshot: (work) => store.snapshot((tx) => work(tx.events)), startAfter: await store.events.newestId(),
    now: () => 0, retentionSeconds: 86_400, pingMs: 3_600_000, pollMs: 3_600_000, pruneMs: 3_600_000,
    liveSessions: async (sessionIds) => new Map(sessionIds.map((id) => [id, Infinity])),
  });
  wakeUp.startWaking(hub);
  t.after(async () => {
    hub.stop();
    await store.close();
  });
  const u = recorder('u');
  await openStream(hub, u);
  await store[how](async (tx) => {
    await tx.events.append({ type: 'read.updated', chatId: 'c', createdAt: 1, data: { chatId: 'c' }, onlyUserId: 'u' });
    await tx.events.append({ type: 'read.updated', chatId: 'c', createdAt: 1, data: { chatId: 'c' }, onlyUserId: 'v' });
  });
  await until(() => u.got.length === 1, 'the event');
  assert.deepEqual([u.got.map((event) => event.type), counter.get()], [['read.updated'], 2]);
});

test('the delivery loop is woken by a commit that queued deliveries, not by every commit that appended events', async (t) => {
  const heard: { count: number; queued: boolean | undefined }[] = [];
  const store = new SqliteStore(':memory:', { commits: { eventsCommitted: (count, queued) => void heard.push({ count, queued }), othersCommitted: () => {} } });
  t.after(() => store.close());
  await store.writeTogether((tx) => tx.events.append({ type: 'read.updated', chatId: 'c', createdAt: 1, data: {}, onlyUserId: 'u' }));
  await store.transaction((tx) => tx.outbound.enqueueDelivery({ kind: 'push', targetId: 's', eventId: null, payload: '{}', createdAt: 1 }));
  await store.transaction(async (tx) => {
    await tx.events.append({ type: 'read.updated', chatId: 'c', createdAt: 1, data: {}, onlyUserId: 'u' });
    await tx.outbound.enqueueDelivery({ kind: 'push', targetId: 's', eventId: 1, payload: '{}', createdAt: 1 });
  });
  assert.deepEqual(heard, [{ count: 1, queued: false }, { count: 0, queued: true }, { count: 1, queued: true }]);

  const counter = eventsWritten();
  let relayed = 0;
  let loopWakes = 0;
  const wakeUp = new EventWakeUp(counter, () => relayed++);
  wakeUp.alsoWake(() => loopWakes++);
  wakeUp.eventsCommitted(3, false);
  wakeUp.eventsCommitted(0, true);
  wakeUp.eventsCommitted(2);
  // A backend that cannot tell (PostgreSQL) wakes the loop with every commit, as before.
  assert.deepEqual([counter.get(), relayed, loopWakes], [5, 2, 2]);
});
