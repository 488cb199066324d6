// The store's read-through layer (storage/read-through.ts): what a GET finds kept and when it is read again. On a
// SQLite file: hits, misses, writes by this store and by another connection, the one stamp of a request, what is
// kept per chat (memberships, pages) through writes elsewhere and retired by every write to its chat, the end with
// the store; with a stand-in store: the limits per kind, a store without a stamp, a read in a transaction.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import Database from 'better-sqlite3';
import { KEPT_LIMITS } from '../../src/storage/kept-entries.ts';
import { ReadThrough, type Stamps } from '../../src/storage/read-through.ts';
import { SqliteStore } from '../../src/storage/sqlite/sqlite-store.ts';
import type { Repositories, SessionRow } from '../../src/storage/store.ts';

const TOKEN = Buffer.alloc(32, 7);
/** The time of the requests: before SESSION expires. */
const NOW = 5000;
const SESSION: SessionRow = { id: 's1', tokenHash: TOKEN, userId: 'u1', createdAt: 1, expiresAt: 10_000, maxExpiresAt: 20_000, lastUsedAt: 1, userAgent: null, address: null };

/** A store on a file with one user, one session and one chat, and a second connection to the file (another --workers process). */
async function storeOnFile(t: TestContext): Promise<{ store: SqliteStore; other: Database.Database }> {
  const dir = mkdtempSync(join(tmpdir(), 'read-through-'));
  const store = new SqliteStore(join(dir, 'chat.db'));
  const other = new Database(join(dir, 'chat.db'));
  other.pragma('busy_timeout = 5000');
  t.after(async () => {
    other.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  await store.users.insertUser({ id: 'u1', login: 'alice', passwordHash: 'x', avatarId: null, role: 'member' as const, deactivatedAt: null, lastSeenAt: null, createdAt: 1, updatedAt: 1 });
  await store.sessions.insertSession(SESSION);
  await store.chats.insertChat({ id: 'c1', kind: 'group', directKey: null, title: 'one', ownerId: 'u1', createdAt: 1, updatedAt: 1 });
  await store.chats.addMember('c1', 'u1', 1);
  return { store, other };
}

/** A stand-in store counting its reads, with a stamp the test sets (undefined: it cannot tell, as in a transaction). */
function countingStore(): { store: Repositories; reads: { count: number }; stamp: { value: string | undefined; reads: number } } {
  const reads = { count: 0 };
  const stamp: { value: string | undefined; reads: number } = { value: '1', reads: 0 };
  const store = {
    sessions: { findSessionByTokenHash: async () => (reads.count += 1, { ...SESSION }) },
    chats: { findChatForMember: async (chatId: string) => (reads.count += 1, { id: chatId, ownerId: 'u1' }) },
  } as unknown as Repositories;
  return { store, reads, stamp };
}

/** Stamps of a stand-in: the change stamp `change` answers, and every chat at version '1'. */
function stampsOf(change: () => Promise<string | undefined>, chat: Stamps['chat'] = async () => ({ messages: '1', members: '1' })): Stamps {
  return { change, chat };
}

test('a GET finds what an earlier GET read, the same frozen row, while nothing is written', async (t) => {
  const { store } = await storeOnFile(t);
  const first = await store.keptReads(true).findSessionByTokenHash(TOKEN, NOW);
  const second = await store.keptReads(true).findSessionByTokenHash(TOKEN, NOW);
  assert.deepEqual(first, SESSION);
  assert.equal(second, first);
  assert.ok(Object.isFrozen(first));
  assert.throws(() => { (first as { expiresAt: number }).expiresAt = 0; }, TypeError);
  const access = await store.keptReads(true).findChatForMember('c1', 'u1');
  assert.deepEqual(access, { id: 'c1', ownerId: 'u1', kind: 'group' });
  assert.equal(await store.keptReads(true).findChatForMember('c1', 'u1'), access);
});

test('a miss is not kept: a row written later is found by the next GET', async (t) => {
  const { store, other } = await storeOnFile(t);
  const reads = store.keptReads(true);
  assert.equal(await reads.findChatForMember('c1', 'u2'), undefined);
  other.prepare("INSERT INTO users (id, login, password_hash, created_at, updated_at) VALUES ('u2', 'bob', 'x', 1, 1)").run();
  other.prepare("INSERT INTO chat_members (chat_id, user_id, added_at) VALUES ('c1', 'u2', 2)").run();
  assert.deepEqual(await store.keptReads(true).findChatForMember('c1', 'u2'), { id: 'c1', ownerId: 'u1', kind: 'group' });
});

/** A value kept for the caller under the change stamp, and whether the next GET finds it. */
async function keptForCaller(store: SqliteStore): Promise<() => Promise<boolean>> {
  const value = await store.keptReads(true).keep('per-caller', 'chats of u1', async () => ({ chats: 1 }), () => true);
  return async () => (await store.keptReads(true).keep('per-caller', 'chats of u1', async () => ({ chats: 2 }), () => true)) === value;
}

test('a write by this store retires every kept entry but those of the chats it left alone, and sessions', async (t) => {
  const { store } = await storeOnFile(t);
  const session = await store.keptReads(true).findSessionByTokenHash(TOKEN, NOW);
  const access = await store.keptReads(true).findChatForMember('c1', 'u1');
  const stillKept = await keptForCaller(store);
  await store.chats.updateChatTitle('c1', 'two', 2);
  assert.equal(await stillKept(), false, 'read again after a write, even of another table');
  assert.equal(await store.keptReads(true).findChatForMember('c1', 'u1'), access, 'a title is not what a membership reads');
  assert.equal(await store.keptReads(true).findSessionByTokenHash(TOKEN, NOW), session, 'nor what a session reads');
  await store.sessions.deleteSession('s1');
  assert.equal(await store.keptReads(true).findSessionByTokenHash(TOKEN, NOW), undefined);
});

test('a session is kept until a session ends or changes, or its user is deactivated or gone; its use moves nothing', async (t) => {
  const { store, other } = await storeOnFile(t);
  other.prepare("INSERT INTO users (id, login, password_hash, created_at, updated_at) VALUES ('u2', 'bob', 'x', 1, 1)").run();
  /** After a write: whether the next request reads the session again, keeping what it read. */
  let kept = await store.keptReads(true).findSessionByTokenHash(TOKEN, NOW);
  const readAgain = async (expected: boolean, why: string): Promise<void> => {
    const now = await store.keptReads(true).findSessionByTokenHash(TOKEN, NOW);
    assert.equal(now !== kept, expected, why);
    assert.deepEqual(now, { ...SESSION, expiresAt: now!.expiresAt, lastUsedAt: now!.lastUsedAt, userAgent: now!.userAgent });
    kept = now;
  };
  await store.sessions.insertSession({ ...SESSION, id: 's2', tokenHash: Buffer.alloc(32, 8), userId: 'u2' });
  await readAgain(false, 'a login');
  await store.sessions.recordSessionUse('s1', 'u1', 11_000, 4000);
  await readAgain(false, 'the session\'s own use (the request that wrote it keeps the row as used)');
  await store.sessions.extendSession('s2', 12_000);
  const bob = (await store.users.findUserById('u2'))!;
  await store.users.updateUser({ ...bob, login: 'robert', updatedAt: 2 });
  await readAgain(false, 'another session\'s use, another user\'s profile');
  await store.sessions.deleteSession('s2');
  await readAgain(true, 'another session ended');
  other.prepare("UPDATE sessions SET user_agent = 'curl' WHERE id = 's1'").run();
  await readAgain(true, 'the session changed by another connection, but for its use');
  await store.users.updateUser({ ...bob, login: 'robert', deactivatedAt: 3, updatedAt: 3 });
  await readAgain(true, 'a user deactivated');
  other.prepare('UPDATE sessions SET expires_at = expires_at - 1').run();
  await readAgain(true, 'an expiry moved back');
  const alice = (await store.users.findUserById('u1'))!;
  await store.users.updateUser({ ...alice, deactivatedAt: 4, updatedAt: 4 });
  assert.equal(await store.keptReads(true).findSessionByTokenHash(TOKEN, NOW), undefined, 'its own user deactivated: no session');
});

test('a kept session that has expired as kept is read again: another process may have used it since', async (t) => {
  const { store, other } = await storeOnFile(t);
  const kept = await store.keptReads(true).findSessionByTokenHash(TOKEN, NOW);
  other.prepare("UPDATE sessions SET expires_at = 15000, last_used_at = 9000 WHERE id = 's1'").run();
  assert.equal(await store.keptReads(true).findSessionByTokenHash(TOKEN, NOW), kept, 'a use elsewhere moves no version');
  const later = await store.keptReads(true).findSessionByTokenHash(TOKEN, 12_000);
  assert.equal(later?.expiresAt, 15_000, 'expired as kept, so read again: found as the other process extended it');
  assert.equal(await store.keptReads(true).findSessionByTokenHash(TOKEN, 12_000), later);
  // The use a request wrote is kept as written: the next request neither reads the row nor writes the use again.
  const request = store.keptReads(false);
  const found = (await request.findSessionByTokenHash(TOKEN, 13_000))!;
  request.sessionUsed(TOKEN, { ...found, expiresAt: 19_000, lastUsedAt: 13_000 });
  const used = await store.keptReads(true).findSessionByTokenHash(TOKEN, 16_000);
  assert.deepEqual([used?.expiresAt, used?.lastUsedAt], [19_000, 13_000]);
  assert.ok(Object.isFrozen(used));
});

test('what is kept per chat stays through writes elsewhere: a page until its messages change, a membership until its members do', async (t) => {
  const { store, other } = await storeOnFile(t);
  await store.chats.insertChat({ id: 'c2', kind: 'group', directKey: null, title: 'two', ownerId: 'u1', createdAt: 2, updatedAt: 2 });
  await store.chats.addMember('c2', 'u1', 2);
  other.prepare("INSERT INTO users (id, login, password_hash, created_at, updated_at) VALUES ('u2', 'bob', 'x', 1, 1)").run();
  let made = 0;
  const page = (): Promise<object> => store.keptReads(true).keepInChat('c1', '/chats/c1/messages', async () => (made += 1, { made }), () => true);
  const access = (): Promise<object | undefined> => store.keptReads(true).findChatForMember('c1', 'u1');
  const kept = { access: await access(), page: await page() };
  /** After a write: which of the two was read again (the other must still be found kept), and keep what was. */
  const readAgain = async (which: 'none' | 'page' | 'access', why: string): Promise<void> => {
    const now = { access: await access(), page: await page() };
    assert.equal(now.page === kept.page, which !== 'page', `${why}: the page`);
    assert.equal(now.access === kept.access, which !== 'access', `${why}: the membership`);
    Object.assign(kept, now);
  };
  await readAgain('none', 'nothing written');

  // Elsewhere: another chat's messages and members, a session, a read marker and the counts every post moves, a title.
  other.prepare("INSERT INTO messages (id, chat_id, author_id, text, created_at, updated_at) VALUES ('m9', 'c2', 'u1', 'elsewhere', 3, 3)").run();
  await store.chats.addMember('c2', 'u2', 3);
  await store.sessions.insertSession({ ...SESSION, id: 's2', tokenHash: Buffer.alloc(32, 8) });
  other.prepare("UPDATE chat_members SET unread_count = 0, last_read_id = 'm9' WHERE chat_id = 'c1'").run();
  await store.chats.updateChatTitle('c1', 'renamed', 4);
  await readAgain('none', 'written elsewhere');

  // To the chat, by this store and by another connection to the file.
  other.prepare("INSERT INTO messages (id, chat_id, author_id, text, created_at, updated_at) VALUES ('m1', 'c1', 'u1', 'hello', 5, 5)").run();
  await readAgain('page', 'a message posted');
  await store.reactions.addReaction({ messageId: 'm1', emoji: '👍', userId: 'u1', createdAt: 6 });
  await readAgain('page', 'a reaction: a column of its message');
  other.prepare("UPDATE messages SET text = 'edited' WHERE id = 'm1'").run();
  await readAgain('page', 'a message edited');
  other.prepare("DELETE FROM messages WHERE id = 'm1'").run();
  await readAgain('page', 'a message deleted');
  await store.chats.addMember('c1', 'u2', 7);
  await readAgain('access', 'a member added');
  other.prepare("DELETE FROM chat_members WHERE chat_id = 'c1' AND user_id = 'u2'").run();
  await readAgain('access', 'a member removed');
  other.prepare("UPDATE chats SET owner_id = 'u2' WHERE id = 'c1'").run();
  await readAgain('access', 'its owner changed');
  assert.deepEqual(kept.access, { id: 'c1', ownerId: 'u2', kind: 'group' });
});

test('a chat deleted and made again under the same id finds nothing kept for the one before', async (t) => {
  const { store, other } = await storeOnFile(t);
  const first = await store.keptReads(true).keepInChat('c1', 'page', async () => ({ chat: 'first' }), () => true);
  assert.equal(await store.keptReads(true).keepInChat('c1', 'page', async () => ({ chat: 'read again' }), () => true), first);
  other.prepare("DELETE FROM chats WHERE id = 'c1'").run();
  assert.equal(await store.keptReads(true).findChatForMember('c1', 'u1'), undefined);
  assert.deepEqual(await store.keptReads(true).keepInChat('c1', 'page', async () => ({ chat: 'none' }), () => true), { chat: 'none' }, 'no chat, nothing found');
  // Made again, as the first was, with nothing posted: its version is still new.
  other.prepare("INSERT INTO chats (id, title, owner_id, created_at, updated_at) VALUES ('c1', 'one', 'u1', 1, 1)").run();
  other.prepare("INSERT INTO chat_members (chat_id, user_id, added_at) VALUES ('c1', 'u1', 1)").run();
  assert.deepEqual(await store.keptReads(true).keepInChat('c1', 'page', async () => ({ chat: 'second' }), () => true), { chat: 'second' });
});

test('a write by another connection to the file retires every kept entry at the next request', async (t) => {
  const { store, other } = await storeOnFile(t);
  assert.deepEqual(await store.keptReads(true).findSessionByTokenHash(TOKEN, NOW), SESSION);
  other.prepare('DELETE FROM sessions').run();
  assert.equal(await store.keptReads(true).findSessionByTokenHash(TOKEN, NOW), undefined);
  other.prepare('DELETE FROM chat_members').run();
  assert.equal(await store.keptReads(true).findChatForMember('c1', 'u1'), undefined);
});

test('one request reads the stamp once: it sees the database as it was when it began, the next request sees the write', async (t) => {
  const { store, other } = await storeOnFile(t);
  const request = store.keptReads(true);
  const session = await request.findSessionByTokenHash(TOKEN, NOW);
  other.prepare('DELETE FROM sessions').run();
  assert.equal(await request.findSessionByTokenHash(TOKEN, NOW), session, 'the same request, the same stamp');
  assert.equal(await store.keptReads(true).findSessionByTokenHash(TOKEN, NOW), undefined);

  // Counted on a stand-in: three finds of one request, one stamp read.
  const { store: standIn, stamp } = countingStore();
  let versionReads = 0;
  const layer = new ReadThrough(standIn, stampsOf(async () => (stamp.reads += 1, stamp.value), async () => (versionReads += 1, { messages: '1', members: '1' })));
  const reads = layer.forRequest(true);
  await reads.findSessionByTokenHash(TOKEN, NOW);
  await reads.keep('per-caller', 'chat', async () => ({ chat: 1 }), () => true);
  assert.equal(stamp.reads, 1);
  // And each chat's version once: the membership and the page of one chat, under one version.
  await reads.findChatForMember('c1', 'u1');
  await reads.keepInChat('c1', 'page', async () => ({ page: 1 }), () => true);
  assert.equal(versionReads, 1);
  await reads.findChatForMember('c2', 'u1');
  assert.equal(versionReads, 2);
});

test('writes find and keep only memberships and sessions, under their versions: every other read is made', async (t) => {
  const { store } = await storeOnFile(t);
  const kept = await store.keptReads(true).findSessionByTokenHash(TOKEN, NOW);
  assert.equal(await store.keptReads(false).findSessionByTokenHash(TOKEN, NOW), kept, 'a session a read found, found by a write');
  // On a store without a version of its sessions (PostgreSQL), a write reads its session.
  const { store: standIn, reads } = countingStore();
  const layer = new ReadThrough(standIn, stampsOf(async () => '1'));
  const written = layer.forRequest(false);
  const first = await written.findSessionByTokenHash(TOKEN, NOW);
  assert.notEqual(await written.findSessionByTokenHash(TOKEN, NOW), first);
  assert.equal(Object.isFrozen(first), false);
  assert.equal(reads.count, 2);
  let made = 0;
  const value = { n: 1 };
  for (let i = 0; i < 2; i += 1) assert.equal(await written.keep('per-caller', 'k', async () => (made += 1, value), () => true), value);
  for (let i = 0; i < 2; i += 1) assert.equal(await written.keepInChat('c1', 'k', async () => (made += 1, value), () => true), value);
  assert.equal(made, 4);
  const access = await store.keptReads(false).findChatForMember('c1', 'u1');
  assert.equal(await store.keptReads(true).findChatForMember('c1', 'u1'), access, 'a membership a write checked, found by a read');
  assert.equal(await store.keptReads(false).findChatForMember('c1', 'u1'), access);
  await store.chats.removeMember('c1', 'u1');
  assert.equal(await store.keptReads(false).findChatForMember('c1', 'u1'), undefined, 'gone with the member');
});

test('values of the layers above are kept only when keepable says so, per kind and key', async () => {
  const { store, reads } = countingStore();
  const layer = new ReadThrough(store, stampsOf(async () => '1'));
  const read = async (): Promise<{ n: number }> => (reads.count += 1, { n: reads.count });
  const shared = await layer.forRequest(true).keepInChat('c1', 'k', read, () => true);
  assert.equal(await layer.forRequest(true).keepInChat('c1', 'k', read, () => true), shared);
  assert.notEqual(await layer.forRequest(true).keep('per-caller', 'k', read, () => true), shared, 'another kind, another entry');
  const refused = await layer.forRequest(true).keepInChat('c1', 'other', read, () => false);
  assert.notEqual(await layer.forRequest(true).keepInChat('c1', 'other', read, () => false), refused);
  assert.equal(reads.count, 4);
});

test('each kind keeps at most its limit: per chat the least recently found out first, else the oldest', async () => {
  const { store, reads } = countingStore();
  const layer = new ReadThrough(store, stampsOf(async () => '1'));
  const read = async (): Promise<object> => (reads.count += 1, {});
  const page = (i: number): Promise<object> => layer.forRequest(true).keepInChat('c1', `page ${i}`, read, () => true);
  for (let i = 0; i < KEPT_LIMITS.shared; i += 1) await page(i);
  await page(0);
  await page(KEPT_LIMITS.shared);
  assert.equal(layer.size('shared'), KEPT_LIMITS.shared);
  reads.count = 0;
  await page(KEPT_LIMITS.shared);
  await page(0);
  assert.equal(reads.count, 0, 'the newest is kept, and the first, found again before the limit');
  await page(1);
  assert.equal(reads.count, 1, 'the least recently found went');
  for (let i = 0; i < KEPT_LIMITS.session + 10; i += 1) await layer.forRequest(true).findSessionByTokenHash(Buffer.from(String(i)), NOW);
  assert.equal(layer.size('session'), KEPT_LIMITS.session);
  assert.equal(layer.size('shared'), KEPT_LIMITS.shared, 'one kind\'s limit leaves the others alone');
});

test('a store without a change stamp (PostgreSQL), or a stamp it cannot tell (in a transaction), keeps nothing', async () => {
  const cannotTell = async (): Promise<undefined> => undefined;
  for (const stamps of [undefined, stampsOf(cannotTell, cannotTell)]) {
    const { store, reads } = countingStore();
    const layer = new ReadThrough(store, stamps);
    for (let i = 0; i < 3; i += 1) await layer.forRequest(true).findSessionByTokenHash(TOKEN, NOW);
    for (let i = 0; i < 3; i += 1) await layer.forRequest(true).findChatForMember('c1', 'u1');
    assert.equal(reads.count, 6);
    assert.equal(layer.size('session'), 0);
    assert.equal(layer.size('member'), 0);
  }
});

test('the kept entries end with their store: after close, nothing is kept', async () => {
  const { store, reads } = countingStore();
  const layer = new ReadThrough(store, stampsOf(async () => '1'));
  await layer.forRequest(true).findSessionByTokenHash(TOKEN, NOW);
  await layer.forRequest(true).findChatForMember('c1', 'u1');
  assert.equal(layer.size('session'), 1);
  assert.equal(layer.size('member'), 1);
  layer.close();
  assert.equal(layer.size('session'), 0);
  assert.equal(layer.size('member'), 0);
  await layer.forRequest(true).findSessionByTokenHash(TOKEN, NOW);
  await layer.forRequest(true).findSessionByTokenHash(TOKEN, NOW);
  assert.equal(reads.count, 4);
});

test('two stores keep apart: what one keeps, the other never finds', async (t) => {
  const one = await storeOnFile(t);
  const two = await storeOnFile(t);
  const found = await one.store.keptReads(true).findSessionByTokenHash(TOKEN, NOW);
  assert.notEqual(await two.store.keptReads(true).findSessionByTokenHash(TOKEN, NOW), found);
});

test('the outbound queue\'s bookkeeping (a lease, an attempt recorded) keeps what is kept; queueing a delivery retires it', async (t) => {
  const { store } = await storeOnFile(t);
  const first = await keptForCaller(store);
  const id = await store.transaction((tx) => tx.outbound.enqueueDelivery({ kind: 'push', targetId: 'p1', eventId: null, payload: '{}', createdAt: 1 }));
  assert.equal(await first(), false, 'a write of the queue that is not bookkeeping retires every kept read');
  const afterQueueing = await keptForCaller(store);
  const [leased] = await store.outbound.leaseDueDeliveries('me', 2, 100, 10);
  assert.equal(leased!.id, id);
  assert.equal(await afterQueueing(), true, 'a lease retires nothing');
  assert.deepEqual(await store.outbound.recordAttempts('me', [{ id, state: 'delivered', nextAttemptAt: 3, at: 3, status: 201, error: null, durationMs: 1 }], []), [id]);
  assert.equal(await afterQueueing(), true, 'an attempt recorded retires nothing');
  assert.equal(store.db.pragma('synchronous', { simple: true }), 2, 'the bookkeeping commits at NORMAL, and FULL is back after');
  await store.sessions.insertSession({ ...SESSION, id: 's2', tokenHash: Buffer.alloc(32, 8) });
  assert.equal(await afterQueueing(), false, 'any other write does');
});
