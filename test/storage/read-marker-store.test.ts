// Read markers in storage: the counts kept by triggers equal a plain recount after any sequence of writes (property test).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { SqliteStore } from '../../src/storage/sqlite/sqlite-store.ts';

const USERS = ['ua', 'ub', 'uc'];

type Op =
  | { kind: 'post'; author: number }
  | { kind: 'delete'; pick: number }
  | { kind: 'mark'; user: number; pick: number | null }
  | { kind: 'clear' }
  | { kind: 'leave-and-join'; user: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('post' as const), author: fc.nat(2) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('delete' as const), pick: fc.nat(50) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('mark' as const), user: fc.nat(2), pick: fc.option(fc.nat(50)) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'clear' as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('leave-and-join' as const), user: fc.integer({ min: 1, max: 2 }) }) },
);

test('after any sequence of posts, deletes, marker moves, delete-all and re-joins, every kept count is the recount', async () => {
  await fc.assert(fc.asyncProperty(fc.array(op, { maxLength: 60 }), async (ops) => {
    const storage = new SqliteStore(':memory:');
    try {
      let now = 1;
      let sequence = 0;
      for (const user of USERS) await storage.users.insertUser({ id: user, login: user, passwordHash: 'x', avatarId: null, role: 'member' as const, deactivatedAt: null, lastSeenAt: null, createdAt: 1, updatedAt: 1 });
      await storage.chats.insertChat({ id: 'c', kind: 'group', directKey: null, title: 'c', ownerId: 'ua', createdAt: 1, updatedAt: 1 });
      for (const user of USERS) await storage.chats.addMember('c', user, 1);
      const ids = (): string[] => (storage.db.prepare("SELECT id FROM messages WHERE chat_id = 'c' ORDER BY id").pluck().all() as string[]);
      for (const step of ops) {
        now += 1;
        const present = ids();
        switch (step.kind) {
          case 'post':
            sequence += 1;
            await storage.messages.insertMessage({ id: `m${String(sequence).padStart(4, '0')}`, chatId: 'c', authorId: USERS[step.author]!, text: 'x', replyTo: null, createdAt: now, updatedAt: now, mentions: '[]' });
            break;
          case 'delete':
            if (present.length > 0) await storage.transaction((tx) => tx.messages.deleteMessage(present[step.pick % present.length]!, now));
            break;
          case 'mark':
            await storage.readMarkers.setMarker('c', USERS[step.user]!, step.pick === null || present.length === 0 ? null : present[step.pick % present.length]!);
            break;
          case 'clear':
            await storage.messages.deleteChatMessages('c');
            break;
          case 'leave-and-join':
            await storage.chats.removeMember('c', USERS[step.user]!);
            await storage.chats.addMember('c', USERS[step.user]!, now);
            break;
        }
        const after = ids();
        for (const user of USERS) {
          const marker = (await storage.readMarkers.findMarker('c', user))!;
          if (marker.lastReadId !== null) assert.ok(after.includes(marker.lastReadId), `${user}'s marker names a message of the chat`);
          const recount = storage.db.prepare("SELECT count(*) FROM messages WHERE chat_id = 'c' AND id > coalesce(?, '') AND author_id <> ?").pluck().get(marker.lastReadId, user);
          assert.equal(marker.unreadCount, recount, `${user} after ${JSON.stringify(step)}`);
        }
      }
    } finally {
      await storage.close();
    }
  }), { numRuns: 150 });
});

test('a new member\'s marker starts on the newest message; a member\'s own post moves theirs', async () => {
  const storage = new SqliteStore(':memory:');
  try {
    for (const user of USERS) await storage.users.insertUser({ id: user, login: user, passwordHash: 'x', avatarId: null, role: 'member' as const, deactivatedAt: null, lastSeenAt: null, createdAt: 1, updatedAt: 1 });
    await storage.chats.insertChat({ id: 'c', kind: 'group', directKey: null, title: 'c', ownerId: 'ua', createdAt: 1, updatedAt: 1 });
    await storage.chats.addMember('c', 'ua', 1);
    assert.deepEqual(await storage.readMarkers.findMarker('c', 'ua'), { chatId: 'c', userId: 'ua', lastReadId: null, unreadCount: 0, mentionCount: 0 });
    await storage.messages.insertMessage({ id: 'm1', chatId: 'c', authorId: 'ua', text: 'x', replyTo: null, createdAt: 2, updatedAt: 2, mentions: '[]' });
    assert.deepEqual(await storage.readMarkers.findMarker('c', 'ua'), { chatId: 'c', userId: 'ua', lastReadId: 'm1', unreadCount: 0, mentionCount: 0 });
    await storage.chats.addMember('c', 'ub', 3);
    assert.deepEqual(await storage.readMarkers.findMarker('c', 'ub'), { chatId: 'c', userId: 'ub', lastReadId: 'm1', unreadCount: 0, mentionCount: 0 });
    assert.equal(await storage.readMarkers.findMarker('c', 'uc'), undefined);
  } finally {
    await storage.close();
  }
});
