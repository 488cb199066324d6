// Property of the event hub (src/events/hub.ts): whatever the interleaving of commits, wake-ups, attaches, replays
// and detaches, and whatever order the store's answers come back in (fast-check's scheduler), every stream gets
// each event after its resume id that its user could have seen live, once, in id order, and nothing else.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { EventLog } from '../../src/events/hub.ts';
import type { EventRecord } from '../../src/storage/rows.ts';
import { hubOver, ids, MemoryLog, recorder, type Recorder } from './memory-log.ts';

const USERS = ['u', 'v', 'w'] as const;
const CHATS = ['a', 'b'] as const;

type Action =
  | { kind: 'commit'; chat: typeof CHATS[number]; user: typeof USERS[number]; what: 'message' | 'membership' | 'only'; wake: boolean }
  | { kind: 'wake' }
  | { kind: 'open'; user: typeof USERS[number]; resume: number }
  | { kind: 'detach'; which: number }
  /** Lets this many of the store's answers (or the flows waiting on them) go on. */
  | { kind: 'run'; tasks: number };

const action: fc.Arbitrary<Action> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('commit' as const), chat: fc.constantFrom(...CHATS), user: fc.constantFrom(...USERS), what: fc.constantFrom('message' as const, 'membership' as const, 'only' as const), wake: fc.boolean() }), weight: 4 },
  { arbitrary: fc.constant({ kind: 'wake' as const }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('open' as const), user: fc.constantFrom(...USERS), resume: fc.double({ min: 0, max: 1, noNaN: true }) }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('detach' as const), which: fc.nat() }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('run' as const), tasks: fc.integer({ min: 1, max: 4 }) }), weight: 3 },
);

/** The store's reads answer as of when they were asked, but come back when the scheduler says. */
function scheduled(log: EventLog, s: fc.Scheduler): EventLog {
  return {
    readAfter: s.scheduleFunction((afterId: number, limit: number) => log.readAfter(afterId, limit)),
    readTypesBetween: s.scheduleFunction((afterId: number, throughId: number, types: readonly string[]) => log.readTypesBetween(afterId, throughId, types)),
    prunedThrough: s.scheduleFunction(() => log.prunedThrough()),
    chatIdsOfUser: s.scheduleFunction((userId: string) => log.chatIdsOfUser(userId)),
    pruneChunk: s.scheduleFunction((cutoff: number, chunk: number) => log.pruneChunk(cutoff, chunk)),
  };
}

/** Who could see each event live, worked out here from the log alone: the members after it, its named users. */
function audiences(records: readonly EventRecord[]): Map<number, Set<string>> {
  const members = new Map<string, Set<string>>();
  const seen = new Map<number, Set<string>>();
  for (const record of records) {
    const data = JSON.parse(record.data) as { members?: string[]; userId?: string };
    const chat = members.get(record.chatId) ?? new Set<string>();
    members.set(record.chatId, chat);
    if (record.type === 'chat.created') for (const userId of USERS) data.members!.includes(userId) ? chat.add(userId) : chat.delete(userId);
    if (record.type === 'member.added') chat.add(data.userId!);
    if (record.type === 'member.removed') chat.delete(data.userId!);
    const also = record.alsoUserIds === null ? [] : JSON.parse(record.alsoUserIds) as string[];
    seen.set(record.id, record.onlyUserId !== null ? new Set([record.onlyUserId]) : new Set([...chat, ...also]));
  }
  return seen;
}

interface Opened {
  subscriber: Recorder;
  /** The id it resumed after, once attached. */
  after: number | undefined;
  detached: boolean;
  flow: Promise<void>;
}

test('random interleavings of commits, wake-ups, attaches and detaches: each stream gets what its user could see, once, in order', { timeout: 120_000 }, async (t) => {
  await fc.assert(fc.asyncProperty(fc.scheduler(), fc.array(action, { minLength: 1, maxLength: 40 }), fc.integer({ min: 0, max: 3 }), async (s, actions, history) => {
    const log = new MemoryLog();
    log.created('a', ['u', 'v']);
    log.created('b', ['w']);
    for (let i = 0; i < history; i++) log.message('a', `old${i}`);
    // Some of the log is history the hub never held (a process started after it): replays read it from the log.
    const startAfter = Math.min(log.newestId, history);
    const hub = hubOver(t, log, startAfter, {
      log: scheduled(log, s),
      snapshot: (work) => log.snapshot((frozen) => work(scheduled(frozen, s))),
    });
    const opened: Opened[] = [];
    let messages = 0;
    for (const step of actions) {
      if (step.kind === 'commit') {
        const members = log.members.get(step.chat)!;
        if (step.what === 'message') log.message(step.chat, `m${++messages}`);
        else if (step.what === 'only') log.only(step.chat, step.user);
        else if (members.has(step.user)) log.removed(step.chat, step.user);
        else log.added(step.chat, step.user);
        if (step.wake) hub.wake();
      } else if (step.kind === 'wake') {
        hub.wake();
      } else if (step.kind === 'open') {
        const entry: Opened = { subscriber: recorder(step.user, `s${opened.length}`), after: undefined, detached: false, flow: Promise.resolve() };
        entry.flow = (async () => {
          const from = await hub.attach(entry.subscriber);
          entry.after = Math.floor(step.resume * from);
          await hub.replayThenGoLive(entry.subscriber, await hub.openReplay(step.user, entry.after));
        })();
        opened.push(entry);
      } else if (step.kind === 'detach') {
        const entry = opened[step.which % Math.max(opened.length, 1)];
        if (entry && !entry.detached) {
          entry.detached = true;
          hub.detach(entry.subscriber);
        }
      } else {
        for (let i = 0; i < step.tasks && s.count() > 0; i++) await s.waitNext(1);
      }
    }
    await s.waitFor(Promise.all(opened.map((entry) => entry.flow)));
    hub.wake();
    await s.waitFor(hub.catchUp());
    assert.equal(hub.newestId, log.newestId);
    const audience = audiences(log.records);
    for (const { subscriber, after, detached } of opened) {
      const got = ids(subscriber.got);
      const expected = log.records.filter((record) => record.id > after! && audience.get(record.id)!.has(subscriber.userId)).map((record) => record.id);
      if (!detached) {
        assert.deepEqual(got, expected, `${subscriber.sessionId} (${subscriber.userId}, after ${after})`);
        const { newestId, delivered } = subscriber.readyAt!;
        assert.ok(got.slice(0, delivered).every((id) => id <= newestId) && got.slice(delivered).every((id) => id > newestId), 'ready() tells where replay ends and live begins');
      } else {
        // Left midway: a part of what it would have had, in order, nothing twice, nothing it may not see.
        assert.ok(got.every((id, index) => expected.includes(id) && (index === 0 || got[index - 1]! < id)), `${subscriber.sessionId}: ${got} within ${expected}`);
      }
    }
    hub.stop();
  }), { numRuns: Number(process.env.HUB_PROPERTY_RUNS ?? 300) });
});
