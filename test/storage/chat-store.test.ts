// The chat store: member lists in a fixed order, membership lookups, member changes, unknown users.
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { SqliteStore } from '../../src/storage/sqlite/sqlite-store.ts';
import { isForeignKeyViolation } from '../../src/storage/store.ts';

async function openStorage(t: TestContext, userIds: string[]): Promise<SqliteStore> {
  const storage = new SqliteStore(':memory:');
  t.after(() => storage.close());
  for (const id of userIds) await storage.users.insertUser({ id, login: `login-${id}`, passwordHash: 'x', avatarId: null, role: 'member' as const, deactivatedAt: null, lastSeenAt: null, createdAt: 1, updatedAt: 1 });
  return storage;
}

async function insertChat(storage: SqliteStore, id: string, ownerId: string, members: [string, number][]): Promise<void> {
  await storage.chats.insertChat({ id, kind: 'group', directKey: null, title: `Chat ${id}`, ownerId, createdAt: 10, updatedAt: 10 });
  for (const [userId, addedAt] of members) await storage.chats.addMember(id, userId, addedAt);
}

test('findChat lists the owner first, then members in the order they joined, ties by id', async (t) => {
  const storage = await openStorage(t, ['u1', 'u2', 'u3', 'u4']);
  await insertChat(storage, 'c1', 'u3', [['u4', 5], ['u2', 5], ['u3', 7], ['u1', 6]]);
  assert.deepEqual(await storage.chats.findChat('c1'), { id: 'c1', kind: 'group', title: 'Chat c1', ownerId: 'u3', members: ['u3', 'u2', 'u4', 'u1'], createdAt: 10, updatedAt: 10 });
  assert.equal(await storage.chats.findChat('c2'), undefined);
});

test('findChatForMember finds a chat only through membership; a missing chat looks the same', async (t) => {
  const storage = await openStorage(t, ['u1', 'u2']);
  await insertChat(storage, 'c1', 'u1', [['u1', 1]]);
  assert.deepEqual(await storage.chats.findChatForMember('c1', 'u1'), { id: 'c1', ownerId: 'u1', kind: 'group' });
  assert.equal(await storage.chats.findChatForMember('c1', 'u2'), undefined);
  assert.equal(await storage.chats.findChatForMember('c9', 'u1'), undefined);
});

test('member changes report whether they changed anything; an unknown user is a foreign key violation', async (t) => {
  const storage = await openStorage(t, ['u1', 'u2', 'u3']);
  await insertChat(storage, 'c1', 'u1', [['u1', 1]]);
  assert.equal(await storage.chats.addMember('c1', 'u2', 2), true);
  assert.equal(await storage.chats.addMember('c1', 'u2', 3), false);
  assert.equal((await storage.chats.findMember('c1', 'u2'))?.addedAt, 2, 'adding again keeps the first addedAt');
  assert.deepEqual(await storage.chats.findMember('c1', 'u2'), { chatId: 'c1', userId: 'u2', login: 'login-u2', addedAt: 2, notificationLevel: null });
  await assert.rejects(storage.chats.addMember('c1', 'ghost', 4), (error: unknown) => isForeignKeyViolation(error));
  await storage.chats.addMember('c1', 'u3', 4);
  assert.equal(await storage.chats.keepOnlyMembers('c1', ['u1', 'u3']), 1);
  assert.deepEqual((await storage.chats.findChat('c1'))?.members, ['u1', 'u3']);
  assert.equal(await storage.chats.removeMember('c1', 'u3'), true);
  assert.equal(await storage.chats.removeMember('c1', 'u3'), false);
  assert.deepEqual(await storage.chats.findUnknownUsers(['u1', 'zz', 'u2', 'aa']), ['zz', 'aa']);
  assert.deepEqual(await storage.chats.findUnknownUsers([]), []);
});

test('deleteChat removes the chat and its member rows; a throw inside a transaction leaves the chat whole', async (t) => {
  const storage = await openStorage(t, ['u1', 'u2']);
  await insertChat(storage, 'c1', 'u1', [['u1', 1], ['u2', 1]]);
  await assert.rejects(storage.transaction(async (tx) => {
    await tx.chats.deleteChat('c1');
    throw new Error('fails half way');
  }), /fails half way/);
  assert.deepEqual((await storage.chats.findChat('c1'))?.members, ['u1', 'u2']);
  await storage.chats.deleteChat('c1');
  assert.equal(await storage.chats.findChat('c1'), undefined);
  assert.equal((storage.db.prepare('SELECT count(*) AS n FROM chat_members').get() as { n: number }).n, 0);
});
