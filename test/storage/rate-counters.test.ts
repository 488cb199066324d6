// Rate counters in memory and in a SQLite file (--workers): fixed windows, taken back, read without counting.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { MemoryRateCounters } from '../../src/storage/memory-rate-counters.ts';
import { SqliteStore } from '../../src/storage/sqlite/sqlite-store.ts';
import { StoreUnavailableError, type RateCounterRepository } from '../../src/storage/store.ts';

const backends: { what: string; open(): { counters: RateCounterRepository; close(): Promise<void> } }[] = [
  { what: 'in memory', open: () => ({ counters: new MemoryRateCounters(), close: async () => undefined }) },
  {
    what: 'in a SQLite file, shared by processes',
    open: () => {
      const dir = mkdtempSync(join(tmpdir(), 'rate-counters-'));
      const store = new SqliteStore(join(dir, 'chat.db'), { sharedRateCounters: true });
      return { counters: store.rateCounters, close: async () => { await store.close(); rmSync(dir, { recursive: true, force: true }); } };
    },
  },
];

for (const backend of backends) {
  test(`rate counters ${backend.what}: count reads the current window without counting`, async (t) => {
    const { counters, close } = backend.open();
    t.after(close);
    assert.equal(await counters.count('k', 0), 0);
    assert.deepEqual(await counters.hit('k', 1000, 0), { count: 1, resetAt: 1000 });
    assert.deepEqual(await counters.hit('k', 1000, 500), { count: 2, resetAt: 1000 });
    assert.equal(await counters.count('k', 999), 2);
    assert.equal(await counters.count('k', 999), 2, 'reading counted nothing');
    await counters.undo('k');
    assert.equal(await counters.count('k', 999), 1);
    assert.equal(await counters.count('k', 1000), 0, 'a window that ended counts nothing');
    assert.deepEqual(await counters.hit('k', 1000, 1000), { count: 1, resetAt: 2000 });
    await counters.clear('k');
    assert.equal(await counters.count('k', 1500), 0);
  });
}

test('rate counters in a SQLite file: every call maps SQLite errors as the store does (a busy file is a 503, not a 500)', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'rate-counters-'));
  const store = new SqliteStore(join(dir, 'chat.db'), { sharedRateCounters: true });
  t.after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const busy = () => {
    throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
  };
  // Every statement of the counters' own connection answers as a file locked past busy_timeout would.
  const statements = store.rateCounters as unknown as Record<'upsert' | 'read' | 'decrement' | 'remove', { get: unknown; run: unknown }>;
  for (const name of ['upsert', 'read', 'decrement', 'remove'] as const) statements[name] = { get: busy, run: busy };
  await assert.rejects(store.rateCounters.hit('k', 1000, 0), StoreUnavailableError);
  await assert.rejects(store.rateCounters.count('k', 0), StoreUnavailableError);
  await assert.rejects(store.rateCounters.undo('k'), StoreUnavailableError);
  await assert.rejects(store.rateCounters.clear('k'), StoreUnavailableError);
});
