// The outbound queue below HTTP (docs/protocol.md §16.5), on SQLite and, with TEST_DATABASE_URL, on PostgreSQL: a
// lease takes each target's first due row only, never a leased one; an expired lease is taken over and its old
// owner can no longer record; then the loop itself sends in order, retries, and drops what its kind refuses.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test, type TestContext } from 'node:test';
import { DeliveryLoop } from '../../src/outbound/delivery-loop.ts';
import { OutboundKinds } from '../../src/outbound/outbound-kind.ts';
import { PostgresStore } from '../../src/storage/postgres/postgres-store.ts';
import { SqliteStore } from '../../src/storage/sqlite/sqlite-store.ts';
import type { Store } from '../../src/storage/store.ts';
import { createTestDatabase } from '../postgres/test-database.ts';

const backends: { name: string; open(t: TestContext): Promise<Store> }[] = [
  { name: 'SQLite', open: async (t) => { const store = new SqliteStore(':memory:'); t.after(() => store.close()); return store; } },
];
if (process.env['TEST_DATABASE_URL']) {
  backends.push({ name: 'PostgreSQL', open: async (t) => {
    const database = await createTestDatabase();
    const store = await PostgresStore.open(database.url, { poolSize: 4, listen: false });
    t.after(async () => { await store.close(); await database.drop(); });
    return store;
  } });
}

const enqueue = (store: Store, targetId: string, payload: string, at = 1000) =>
  store.transaction((tx) => tx.outbound.enqueueDelivery({ kind: 'test', targetId, eventId: null, payload, createdAt: at }));
const done = { state: 'delivered' as const, nextAttemptAt: 0, at: 2000, status: 200, error: null, durationMs: 3 };

for (const backend of backends) {
  test(`${backend.name}: a lease takes the first due row of each target, never a leased one nor a second of a target`, async (t) => {
    const store = await backend.open(t);
    for (const [target, payload] of [['a', 'a1'], ['b', 'b1'], ['a', 'a2'], ['b', 'b2'], ['a', 'a3']]) await enqueue(store, target!, payload!);
    const first = await store.outbound.leaseDueDeliveries('p1', 1000, 61_000, 10);
    assert.deepEqual(first.map((row) => row.payload), ['a1', 'b1']);
    assert.deepEqual(await store.outbound.leaseDueDeliveries('p2', 1000, 61_000, 10), [], 'a leased head blocks its target');
    assert.equal(await store.outbound.recordAttempt(first[0]!.id, 'p1', done), true);
    assert.deepEqual((await store.outbound.leaseDueDeliveries('p2', 1000, 90_000, 10)).map((row) => row.payload), ['a2']);
    // p1's lease on b1 runs out: p3 takes it over, and p1 can no longer record it.
    const taken = await store.outbound.leaseDueDeliveries('p3', 61_000, 121_000, 10);
    assert.deepEqual(taken.map((row) => row.payload), ['b1'], 'a2 is still leased by p2, b1 is free again');
    assert.equal(await store.outbound.recordAttempt(first[1]!.id, 'p1', done), false);
    assert.equal(await store.outbound.recordAttempt(first[1]!.id, 'p3', { ...done, state: 'pending', nextAttemptAt: 200_000 }), true);
    assert.deepEqual((await store.outbound.leaseDueDeliveries('p3', 150_000, 200_000, 10)).map((row) => row.payload), ['a2'], 'p2\'s lease ran out; b1 waits for its retry, and b2 behind it');
    const page = await store.outbound.listDeliveries('test', 'b', { filters: [], sort: [], limit: 10, offset: 0 } as never);
    assert.deepEqual(page.rows.map((row) => [row.payload, row.state, row.attempts, row.lastStatus]), [['b1', 'pending', 1, 200], ['b2', 'pending', 0, null]]);
    assert.equal(await store.outbound.dropPendingDeliveries('test', 'b'), 2);
  });

  test(`${backend.name}: the loop sends a target's deliveries in order, retries a failure, drops what its kind refuses`, async (t) => {
    const store = await backend.open(t);
    const received: string[] = [];
    let failOnce = true;
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        if (body === 'x2' && failOnce) {
          failOnce = false;
          res.writeHead(503).end();
          return;
        }
        received.push(body);
        res.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    t.after(() => server.close());
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const kinds = new OutboundKinds();
    let resumed = 0;
    kinds.register({ kind: 'test', prepare: async (row) => (row.payload === 'drop' ? null : { url, headers: {}, body: Buffer.from(row.payload) }), resume: async () => { resumed += 1; } });
    const loop = new DeliveryLoop({
      queue: store.outbound, kinds, clock: { now: () => Date.now() }, allowPrivate: () => true, logError: (error) => { throw error; },
      pollMs: 20, retry: { firstDelayMs: 10, maxDelayMs: 50, windowMs: 60_000 },
    });
    for (const payload of ['x1', 'x2', 'drop', 'x3']) await enqueue(store, 't', payload, Date.now());
    loop.start();
    while (received.length < 3) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.deepEqual(received, ['x1', 'x2', 'x3'], 'x3 waited for x2\'s retry');
    assert.equal(resumed, 1, 'the kind finished what a crash cut short, once, at the start');
    loop.stop();
    await loop.idle();
    const rows = (await store.outbound.listDeliveries('test', 't', { filters: [], sort: [], limit: 10, offset: 0 } as never)).rows;
    assert.deepEqual(rows.map((row) => [row.payload, row.state, row.attempts]), [['x1', 'delivered', 1], ['x2', 'delivered', 2], ['drop', 'dropped', 1], ['x3', 'delivered', 1]]);
    const x2 = await store.outbound.listAttempts([rows[1]!.id]);
    assert.deepEqual(x2.map((attempt) => [attempt.attempt, attempt.status, attempt.error]), [[1, 503, 'HTTP 503'], [2, 200, null]], 'each attempt, not only the last');
  });

  test(`${backend.name}: each recorded attempt is kept, the newest 40 of a delivery; they go with it; given-up targets are found`, async (t) => {
    const store = await backend.open(t);
    const id = await enqueue(store, 'a', 'a1');
    const other = await enqueue(store, 'b', 'b1');
    for (let n = 1; n <= 45; n++) {
      const [row] = await store.outbound.leaseDueDeliveries('p1', 1000 + n, 61_000, 10);
      assert.equal(row?.id, id);
      const state = n === 45 ? 'failed' as const : 'pending' as const;
      assert.equal(await store.outbound.recordAttempt(id, 'p1', { state, nextAttemptAt: 1000 + n, at: 2000 + n, status: n % 2 === 0 ? 500 : null, error: `e${n}`, durationMs: n }), true);
      if (n === 1) assert.equal(await store.outbound.recordAttempt(id, 'p1', done), false, 'a lost lease records no attempt');
    }
    const kept = await store.outbound.listAttempts([id, other]);
    assert.deepEqual(kept.map((attempt) => attempt.attempt), Array.from({ length: 40 }, (_, index) => index + 6));
    assert.deepEqual(kept.at(-1), { deliveryId: id, attempt: 45, at: 2045, status: null, error: 'e45', durationMs: 45 });
    assert.deepEqual(await store.outbound.listTargetsWithFailures('test'), ['a']);
    assert.equal(await store.outbound.deleteDeliveriesOf('test', 'a'), 1);
    assert.deepEqual(await store.outbound.listAttempts([id]), [], 'gone with their delivery');
    assert.deepEqual(await store.outbound.listAttempts([]), []);
  });
}
