// The SQLite store's async face: transactions hold the one connection, reads never see uncommitted writes, events follow commits.
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { SqliteStore } from '../../../src/storage/sqlite/sqlite-store.ts';
import { isUniqueViolation, StoreConstraintError, type UserRow } from '../../../src/storage/store.ts';

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

function user(id: string, login = `login-${id}`): UserRow {
  return { id, login, passwordHash: 'x', avatarId: null, role: 'member' as const, deactivatedAt: null, lastSeenAt: null, createdAt: 1, updatedAt: 1, kind: 'user', ownerId: null };
}

function openStore(t: TestContext): SqliteStore {
  const store = new SqliteStore(':memory:');
  t.after(() => store.close());
  return store;
}

test('a read outside a transaction waits for the open one to end and never sees its uncommitted writes', async (t) => {
  const store = openStore(t);
  let read: Promise<UserRow | undefined> | undefined;
  let readDone = false;
  const writing = store.transaction(async (tx) => {
    await tx.users.insertUser(user('u1'));
    // The transaction stays open across turns of the loop, as one awaiting anything would.
    await nextTurn();
    read = store.users.findUserById('u1');
    void read.then(() => { readDone = true; });
    await nextTurn();
    assert.equal(readDone, false, 'the read waits while the transaction is open');
    throw new Error('changed my mind');
  });
  await assert.rejects(writing, /changed my mind/);
  assert.equal(await read, undefined, 'it ran after the rollback: the row never existed for it');
});

test('two transactions never interleave on the one connection: the second starts when the first ended', async (t) => {
  const store = openStore(t);
  const steps: string[] = [];
  const work = (name: string) => async (tx: Parameters<Parameters<SqliteStore['transaction']>[0]>[0]): Promise<void> => {
    steps.push(`${name} begins`);
    await tx.users.insertUser(user(name));
    await nextTurn();
    steps.push(`${name} ends`);
  };
  await Promise.all([store.transaction(work('a')), store.transaction(work('b')), store.writeTogether(work('c'))]);
  assert.deepEqual(steps, ['a begins', 'a ends', 'b begins', 'b ends', 'c begins', 'c ends']);
  assert.deepEqual((await Promise.all(['a', 'b', 'c'].map((id) => store.users.findUserById(id)))).map((row) => row?.id), ['a', 'b', 'c']);
});

test('the commit listener hears of committed events only, once per commit, with their number', async (t) => {
  const heard: number[] = [];
  const store = new SqliteStore(':memory:', { commits: { eventsCommitted: (count) => heard.push(count), othersCommitted: () => heard.push(0) } });
  t.after(() => store.close());
  const event = { type: 'x', chatId: 'c', createdAt: 1, data: {} };
  await store.transaction(async (tx) => {
    await tx.events.append(event);
    await tx.events.append(event);
  });
  await assert.rejects(store.transaction(async (tx) => {
    await tx.events.append(event);
    throw new Error('rolled back');
  }));
  await store.writeTogether(async (tx) => { await tx.events.append(event); });
  await store.transaction(async () => {});
  assert.deepEqual(heard, [2, 1]);
  assert.deepEqual((await store.events.readAfter(0, 10)).map((record) => record.id), [1, 2, 3]);
});

test('a transaction\'s repositories used after it ended are refused', async (t) => {
  const store = openStore(t);
  let kept: Parameters<Parameters<SqliteStore['transaction']>[0]>[0] | undefined;
  await store.transaction(async (tx) => { kept = tx; });
  await assert.rejects(kept!.users.insertUser(user('late')), /used after it ended/);
  assert.equal(await store.users.findUserById('late'), undefined);
});

test('SQLite constraint errors reach callers as the store\'s own, inside a transaction or not', async (t) => {
  const store = openStore(t);
  await store.users.insertUser(user('u1', 'alice'));
  await assert.rejects(store.users.insertUser(user('u2', 'ALICE')), (error: unknown) => isUniqueViolation(error));
  await assert.rejects(store.transaction((tx) => tx.chats.addMember('nochat', 'u1', 1)), (error: unknown) => error instanceof StoreConstraintError && error.constraint === 'foreign-key');
  await assert.rejects(store.users.findUserById(Symbol('not bindable') as unknown as string), (error: unknown) => !(error instanceof StoreConstraintError));
});

test('a snapshot reads consistently and a closed store refuses calls', async (t) => {
  const store = new SqliteStore(':memory:');
  await store.users.insertUser(user('u1'));
  const ids = await store.snapshot(async (tx) => [(await tx.users.findUserById('u1'))?.id, await tx.events.newestId()]);
  assert.deepEqual(ids, ['u1', 0]);
  await store.close();
  await store.close();
  await assert.rejects(store.users.findUserById('u1'), /not open/);
  t.diagnostic('closed twice without harm');
});
