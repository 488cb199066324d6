// The hub's own timed work (src/events/hub.ts): a failure of it has no caller, and never ends the process.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EventHub, type EventLog } from '../../src/events/hub.ts';
import { StoreUnavailableError } from '../../src/storage/store.ts';

function logFailingWith(error: unknown): EventLog {
  return {
    readAfter: async () => [],
    readTypesBetween: async () => [],
    prunedThrough: async () => 0,
    chatIdsOfUser: async () => [],
    pruneChunk: async () => {
      throw error;
    },
  };
}

for (const { what, error, logged } of [
  { what: 'a bug (a plain Error)', error: new Error('a bug in pruning'), logged: true },
  { what: 'a database that cannot be reached for a moment', error: new StoreUnavailableError('busy'), logged: false },
]) test(`a prune that fails with ${what} is ${logged ? 'logged' : 'tried again quietly'}, and the process goes on`, async (t) => {
  const seen: unknown[] = [];
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  process.on('unhandledRejection', onUnhandled);
  t.after(() => process.off('unhandledRejection', onUnhandled));
  let prunes = 0;
  const log = logFailingWith(error);
  const pruneChunk = log.pruneChunk;
  log.pruneChunk = (cutoff, chunk) => {
    prunes++;
    return pruneChunk(cutoff, chunk);
  };
  const hub = new EventHub({
    log, snapshot: (work) => work(log), startAfter: 0, now: () => 0, retentionSeconds: 60,
    pingMs: 3_600_000, pollMs: 3_600_000, pruneMs: 5, liveSessions: async (ids) => new Map(ids.map((id) => [id, Infinity])),
    logError: (failure) => seen.push(failure),
  });
  t.after(() => hub.stop());
  // Tried at every turn: three turns show the first failure did not stop the timer.
  while (prunes < 3) await new Promise<void>((resolve) => setTimeout(resolve, 5));
  await new Promise<void>((resolve) => setImmediate(resolve));
  assert.deepEqual(unhandled, []);
  if (logged) assert.ok(seen.length >= 2 && seen.every((failure) => failure === error));
  else assert.deepEqual(seen, []);
});
