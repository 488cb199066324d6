// The chat store: member lists in a fixed order, membership lookups, member changes, unknown users.
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { isForeignKeyViolation } from '../../src/storage/chat-store.ts';
import { Storage } from '../../src/storage/storage.ts';

function openStorage(t: TestContext, userIds: string[]): Storage {
  const storage = new Storage(':memory:');
  t.after(() => storage.close());
  for (const id of userIds) storage.users.insertUser({ id, login: `login-${id}`, passwordHash: 'x', avatarId: null, createdAt: 1, updatedAt: 1 });
  return storage;
}

function insertChat(storage: Storage, id: string, ownerId: string, members: [string, number][]): void {
  storage.chats.insertChat({ id, title: `Chat ${id}`, ownerId, createdAt: 10, updatedAt: 10 });
  for (const [userId, addedAt] of members) storage.chats.addMember(id, userId, addedAt);
}

test('findChat lists the owner first, then members in the order they joined, ties by id', (t) => {
  const storage = openStorage(t, ['u1', 'u2', 'u3', 'u4']);
  insertChat(storage, 'c1', 'u3', [['u4', 5], ['u2', 5], ['u3', 7], ['u1', 6]]);
  assert.deepEqual(storage.chats.findChat('c1'), { id: 'c1', title: 'Chat c1', ownerId: 'u3', members: ['u3', 'u2', 'u4', 'u1'], createdAt: 10, updatedAt: 10 });
  assert.equal(storage.chats.findChat('c2'), undefined);
});

test('findChatForMember finds a chat only through membership; a missing chat looks the same', (t) => {
  const storage = openStorage(t, ['u1', 'u2']);
  insertChat(storage, 'c1', 'u1', [['u1', 1]]);
  assert.deepEqual(storage.chats.findChatForMember('c1', 'u1'), { id: 'c1', ownerId: 'u1' });
  assert.equal(storage.chats.findChatForMember('c1', 'u2'), undefined);
  assert.equal(storage.chats.findChatForMember('c9', 'u1'), undefined);
});

test('member changes report whether they changed anything; an unknown user is a foreign key violation', (t) => {
  const storage = openStorage(t, ['u1', 'u2', 'u3']);
  insertChat(storage, 'c1', 'u1', [['u1', 1]]);
  assert.equal(storage.chats.addMember('c1', 'u2', 2), true);
  assert.equal(storage.chats.addMember('c1', 'u2', 3), false);
  assert.equal(storage.chats.findMember('c1', 'u2')?.addedAt, 2, 'adding again keeps the first addedAt');
  assert.deepEqual(storage.chats.findMember('c1', 'u2'), { chatId: 'c1', userId: 'u2', login: 'login-u2', addedAt: 2 });
  assert.throws(() => storage.chats.addMember('c1', 'ghost', 4), (error: unknown) => isForeignKeyViolation(error));
  storage.chats.addMember('c1', 'u3', 4);
  assert.equal(storage.chats.keepOnlyMembers('c1', ['u1', 'u3']), 1);
  assert.deepEqual(storage.chats.findChat('c1')?.members, ['u1', 'u3']);
  assert.equal(storage.chats.removeMember('c1', 'u3'), true);
  assert.equal(storage.chats.removeMember('c1', 'u3'), false);
  assert.deepEqual(storage.chats.findUnknownUsers(['u1', 'zz', 'u2', 'aa']), ['zz', 'aa']);
  assert.deepEqual(storage.chats.findUnknownUsers([]), []);
});

test('deleteChat removes the chat and its member rows; a throw inside a transaction leaves the chat whole', (t) => {
  const storage = openStorage(t, ['u1', 'u2']);
  insertChat(storage, 'c1', 'u1', [['u1', 1], ['u2', 1]]);
  assert.throws(() => storage.transaction(() => {
    storage.chats.deleteChat('c1');
    throw new Error('fails half way');
  }), /fails half way/);
  assert.deepEqual(storage.chats.findChat('c1')?.members, ['u1', 'u2']);
  storage.chats.deleteChat('c1');
  assert.equal(storage.chats.findChat('c1'), undefined);
  assert.equal((storage.db.prepare('SELECT count(*) AS n FROM chat_members').get() as { n: number }).n, 0);
});
