// The PostgreSQL store below HTTP: case rules of logins, constraint errors that leave a transaction usable, events
// that commit in id order, an unreachable server, one migration for servers starting together, and what the
// commit listener hears (its own commits, counted; every NOTIFY, a hint).
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { test } from 'node:test';
import { PostgresStore } from '../../src/storage/postgres/postgres-store.ts';
import { DatabaseOpenError, StoreConstraintError } from '../../src/storage/store.ts';
import { createTestDatabase } from './test-database.ts';

async function openStore(t: import('node:test').TestContext): Promise<PostgresStore> {
  const database = await createTestDatabase();
  const store = await PostgresStore.open(database.url, { poolSize: 4 });
  t.after(async () => {
    await store.close();
    await database.drop();
  });
  return store;
}

const user = (id: string, login: string) => ({ id, login, passwordHash: 'x', avatarId: null, role: 'member' as const, deactivatedAt: null, lastSeenAt: null, createdAt: 1, updatedAt: 1 });

test('logins are unique and found without regard to ASCII case; a taken one is a unique StoreConstraintError', async (t) => {
  const store = await openStore(t);
  await store.users.insertUser(user('u1', 'Ann.Lee'));
  assert.equal((await store.users.findUserByLogin('ann.lee'))?.id, 'u1');
  assert.equal((await store.users.findUserByLogin('ANN.LEE'))?.createdAt, 1, 'timestamps come back as numbers');
  await assert.rejects(store.users.insertUser(user('u2', 'ANN.lee')), (error: unknown) => error instanceof StoreConstraintError && error.constraint === 'unique');
});

test('a constraint error inside a transaction fails that statement only: the transaction goes on and commits', async (t) => {
  const store = await openStore(t);
  await store.users.insertUser(user('u1', 'ann'));
  await store.transaction(async (tx) => {
    await tx.chats.insertChat({ id: 'c1', kind: 'group', directKey: null, title: 'Chat', ownerId: 'u1', createdAt: 2, updatedAt: 2 });
    await assert.rejects(tx.chats.addMember('c1', 'nobody', 3), (error: unknown) => error instanceof StoreConstraintError && error.constraint === 'foreign-key');
    assert.equal(await tx.chats.addMember('c1', 'u1', 3), true);
  });
  assert.deepEqual((await store.chats.findChat('c1'))?.members, ['u1']);
});

test('events of concurrent transactions commit in id order: the second append waits for the first transaction', async (t) => {
  const store = await openStore(t);
  const event = (type: string) => ({ type, chatId: 'c', createdAt: 1, data: {} });
  let releaseFirst!: () => void;
  const firstHolds = new Promise<void>((resolve) => { releaseFirst = resolve; });
  let firstAppended!: () => void;
  const appended = new Promise<void>((resolve) => { firstAppended = resolve; });
  const first = store.transaction(async (tx) => {
    const id = await tx.events.append(event('first'));
    firstAppended();
    await firstHolds;
    return id;
  });
  await appended;
  let secondId: number | undefined;
  const second = store.transaction(async (tx) => (secondId = await tx.events.append(event('second'))));
  // The second transaction cannot get an id while the first is open: nothing of it is in the log yet.
  assert.deepEqual(await store.events.readAfter(0, 10), []);
  assert.equal(secondId, undefined);
  releaseFirst();
  const [a, b] = await Promise.all([first, second]);
  assert.ok(a < b);
  assert.deepEqual((await store.events.readAfter(0, 10)).map((record) => [record.id, record.type]), [[a, 'first'], [b, 'second']]);
  assert.equal(await store.events.newestId(), b);
  await assert.rejects(store.events.append(event('outside')), /needs a transaction/);
});

test('pruning keeps the newest id: ids never go back', async (t) => {
  const store = await openStore(t);
  const id = await store.transaction((tx) => tx.events.append({ type: 'x', chatId: 'c', createdAt: 1, data: {} }));
  assert.equal(await store.events.pruneChunk(10, 100), 1);
  assert.equal(await store.events.prunedThrough(), id);
  assert.equal(await store.events.newestId(), id);
  const next = await store.transaction((tx) => tx.events.append({ type: 'x', chatId: 'c', createdAt: 20, data: {} }));
  assert.ok(next > id);
});

test('rate counters count in fixed windows, take back and forget', async (t) => {
  const store = await openStore(t);
  assert.deepEqual(await store.rateCounters.hit('k', 1000, 0), { count: 1, resetAt: 1000 });
  assert.deepEqual(await store.rateCounters.hit('k', 1000, 500), { count: 2, resetAt: 1000 });
  await store.rateCounters.undo('k');
  assert.deepEqual(await store.rateCounters.hit('k', 1000, 600), { count: 2, resetAt: 1000 });
  assert.equal(await store.rateCounters.count('k', 999), 2, 'count reads the window without counting');
  assert.equal(await store.rateCounters.count('k', 1000), 0, 'a window that ended counts nothing');
  assert.deepEqual(await store.rateCounters.hit('k', 1000, 1000), { count: 1, resetAt: 2000 });
  await store.rateCounters.clear('k');
  assert.equal(await store.rateCounters.count('k', 1500), 0);
  assert.deepEqual(await store.rateCounters.hit('k', 1000, 1500), { count: 1, resetAt: 2500 });
});

/** A loopback port with nothing listening on it. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

test('an unreachable server is a DatabaseOpenError that never shows the password', async () => {
  const port = await closedPort();
  await assert.rejects(PostgresStore.open(`postgres://chat:s3cret-pw@127.0.0.1:${port}/chat`), (error: unknown) => {
    assert.ok(error instanceof DatabaseOpenError);
    assert.match(error.message, /connection refused/);
    assert.match(error.message, /chat:\*\*\*@127\.0\.0\.1/);
    assert.doesNotMatch(error.message, /s3cret/);
    return true;
  });
});

test('servers starting together migrate once', async (t) => {
  const database = await createTestDatabase();
  t.after(() => database.drop());
  const stores = await Promise.all([1, 2, 3].map(() => PostgresStore.open(database.url, { poolSize: 1, listen: false })));
  for (const store of stores) await store.close();
});

/** Waits for a condition that a notification from the server makes true (never a fixed sleep). */
async function until(condition: () => boolean, what: string): Promise<void> {
  for (let tries = 0; tries < 2000; tries++) {
    if (condition()) return;
    await new Promise<void>((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`still waiting for ${what}`);
}

test('the commit listener hears this store\'s commits with their number, and every NOTIFY as a hint only', async (t) => {
  const database = await createTestDatabase();
  const heard: string[] = [];
  const commits = { eventsCommitted: (count: number) => heard.push(`own ${count}`), othersCommitted: () => heard.push('notified') };
  const store = await PostgresStore.open(database.url, { poolSize: 2, commits });
  const other = await PostgresStore.open(database.url, { poolSize: 2, listen: false });
  t.after(async () => {
    await store.close();
    await other.close();
    await database.drop();
  });
  // Listening began: one hint covers whatever was appended while no connection listened.
  assert.deepEqual(heard, ['notified']);
  heard.length = 0;
  const event = { type: 'x', chatId: 'c', createdAt: 1, data: {} };
  await store.transaction(async (tx) => {
    await tx.events.append(event);
    await tx.events.append(event);
  });
  assert.ok(heard.includes('own 2'), 'told before the transaction resolves');
  // Its own NOTIFY comes back to it too: a hint, never counted again.
  await until(() => heard.length === 2, 'the NOTIFY of its own commit');
  assert.deepEqual(heard.sort(), ['notified', 'own 2']);
  heard.length = 0;
  await other.transaction(async (tx) => void await tx.events.append(event));
  await until(() => heard.length === 1, 'the NOTIFY of the other store\'s commit');
  assert.deepEqual(heard, ['notified']);
});

test('a deadlock undoes one of the two transactions, which runs again (after a pause at random) and commits', async (t) => {
  const store = await openStore(t);
  await store.users.insertUser(user('u1', 'one'));
  await store.users.insertUser(user('u2', 'two'));
  // Each locks its first row, waits until the other holds its own, then asks for the other's: a cycle, once.
  const holding: Array<() => void> = [];
  const bothHold = new Promise<void>((resolve) => { holding.push(resolve); });
  let held = 0;
  const runs: string[] = [];
  const lockBoth = (first: string, second: string) => store.run('BEGIN', async (client) => {
    runs.push(first);
    await client.query('UPDATE users SET updated_at = updated_at + 1 WHERE id = $1', [first]);
    if (runs.length <= 2 && (held += 1) === 2) holding[0]!();
    if (runs.length <= 2) await bothHold;
    await client.query('UPDATE users SET updated_at = updated_at + 1 WHERE id = $1', [second]);
    return first;
  });
  assert.deepEqual(await Promise.all([lockBoth('u1', 'u2'), lockBoth('u2', 'u1')]), ['u1', 'u2']);
  assert.equal(runs.length, 3, 'one of the two ran again');
  const rows = await Promise.all(['u1', 'u2'].map((id) => store.users.findUserById(id)));
  assert.deepEqual(rows.map((row) => row?.updatedAt), [3, 3], 'each committed once, the undone one not at all');
});
