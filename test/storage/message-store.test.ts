// The message store: reply targets, deleting with replies, and a history page that is one index range.
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { MESSAGE_SELECT } from '../../src/storage/sqlite/message-store.ts';
import { SqliteStore } from '../../src/storage/sqlite/sqlite-store.ts';
import type { MessageRow } from '../../src/storage/store.ts';

async function openStorage(t: TestContext): Promise<SqliteStore> {
  const storage = new SqliteStore(':memory:');
  t.after(() => storage.close());
  await storage.users.insertUser({ id: 'u1', login: 'one', passwordHash: 'x', avatarId: null, role: 'member' as const, deactivatedAt: null, lastSeenAt: null, createdAt: 1, updatedAt: 1 });
  for (const id of ['c1', 'c2']) {
    await storage.chats.insertChat({ id, kind: 'group', directKey: null, title: id, ownerId: 'u1', createdAt: 1, updatedAt: 1 });
    await storage.chats.addMember(id, 'u1', 1);
  }
  return storage;
}

function message(id: string, chatId: string, replyTo: string | null = null): MessageRow {
  return { id, chatId, authorId: 'u1', text: `text ${id}`, replyTo, createdAt: 5, updatedAt: 5, editedAt: null, reactions: '[]', mentions: '[]', attachments: '[]' };
}

test('messages are found by id, and under their own chat only', async (t) => {
  const storage = await openStorage(t);
  await storage.messages.insertMessage(message('m1', 'c1'));
  assert.deepEqual(await storage.messages.findMessage('m1'), message('m1', 'c1'));
  assert.deepEqual(await storage.messages.findMessageInChat('c1', 'm1'), message('m1', 'c1'));
  assert.equal(await storage.messages.findMessageInChat('c2', 'm1'), undefined);
});

test('a reply target is an earlier message of the same chat, in insertion order whatever the ids say', async (t) => {
  const storage = await openStorage(t);
  // Ids that sort the other way round from insertion: seq decides.
  await storage.messages.insertMessage(message('z-first', 'c1'));
  await storage.messages.insertMessage(message('a-second', 'c1'));
  await storage.messages.insertMessage(message('other', 'c2'));
  const rows = [
    { what: 'a new message may reply to any', replyTo: 'a-second', messageId: null, expected: true },
    { what: 'earlier', replyTo: 'z-first', messageId: 'a-second', expected: true },
    { what: 'later', replyTo: 'a-second', messageId: 'z-first', expected: false },
    { what: 'itself', replyTo: 'z-first', messageId: 'z-first', expected: false },
    { what: 'another chat', replyTo: 'other', messageId: null, expected: false },
    { what: 'missing', replyTo: 'nothing', messageId: null, expected: false },
  ];
  for (const { what, replyTo, messageId, expected } of rows) {
    assert.equal(await storage.messages.isEarlierMessageInChat('c1', replyTo, messageId), expected, what);
  }
});

test('deleting a message nulls its replies\' replyTo and moves their updatedAt; deleting a chat\'s messages spares others', async (t) => {
  const storage = await openStorage(t);
  await storage.messages.insertMessage(message('m1', 'c1'));
  await storage.messages.insertMessage(message('m2', 'c1', 'm1'));
  await storage.messages.insertMessage(message('m3', 'c1'));
  await storage.messages.insertMessage(message('k1', 'c2'));
  await storage.transaction((tx) => tx.messages.deleteMessage('m1', 99));
  assert.equal(await storage.messages.findMessage('m1'), undefined);
  assert.deepEqual(await storage.messages.findMessage('m2'), { ...message('m2', 'c1'), replyTo: null, updatedAt: 99 });
  assert.deepEqual(await storage.messages.findMessage('m3'), message('m3', 'c1'), 'a message that was no reply is untouched');
  assert.equal(await storage.messages.deleteChatMessages('c1'), 2);
  assert.deepEqual(await storage.messages.findMessage('k1'), message('k1', 'c2'));
});

test('a keyset page of history is one range scan of messages_by_chat, with no sort step', async (t) => {
  const storage = await openStorage(t);
  // The shape PageRunner builds for GET /chats/{id}/messages?after=...: scope AND query, ORDER BY id.
  for (const [bound, direction] of [['m.id > ?', 'ASC'], ['m.id < ?', 'DESC']] as const) {
    const plan = storage.db.prepare(`EXPLAIN QUERY PLAN ${MESSAGE_SELECT} WHERE (m.chat_id = ? AND ${bound}) AND (1) ORDER BY m.id ${direction} LIMIT ? OFFSET ?`)
      .all('c1', 'm1', 50, 0) as { detail: string }[];
    const op = bound.includes('>') ? '>' : '<';
    // Reactions are a column of the message (kept by triggers): the page is still this one range scan.
    assert.deepEqual(plan.map((step) => step.detail), [`SEARCH m USING INDEX messages_by_chat (chat_id=? AND id${op}?)`], bound);
  }
});
