// A route's kept reply (resources/kept-reply.ts): kept only when the route says so and only for GET and HEAD,
// under a key of the path, the query, HTML or not and (per caller) the caller; frozen once kept, so that a
// request that finds it cannot change it for the others.
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { freezeDeep, keptReadsFor, keptReply } from '../../src/resources/kept-reply.ts';
import type { Reply, RequestContext, Route } from '../../src/resources/context.ts';
import { SqliteStore } from '../../src/storage/sqlite/sqlite-store.ts';

/** A store with chats c1 and c2: a 'shared' reply is kept under its chat's version, and no chat has none. */
async function openStore(t: TestContext): Promise<SqliteStore> {
  const store = new SqliteStore(':memory:');
  t.after(() => store.close());
  await store.users.insertUser({ id: 'u1', login: 'alice', passwordHash: 'x', avatarId: null, role: 'member' as const, deactivatedAt: null, lastSeenAt: null, createdAt: 1, updatedAt: 1 });
  for (const id of ['c1', 'c2']) await store.chats.insertChat({ id, kind: 'group', directKey: null, title: id, ownerId: 'u1', createdAt: 1, updatedAt: 1 });
  return store;
}

/** The parts of a request's context keptReply reads. */
function request(store: SqliteStore, options: { method?: string; keep?: Route['keep']; mediaType?: string; path?: string; query?: string; userId?: string } = {}): RequestContext {
  return {
    method: options.method ?? 'GET',
    mediaType: options.mediaType ?? 'application/json',
    path: options.path ?? '/chats/c1/messages',
    rawQuery: options.query ?? '',
    params: { chatId: (options.path ?? '/chats/c1/messages').split('/')[2]! },
    caller: { userId: options.userId ?? 'u1', sessionId: 's1', via: 'header' },
    kept: keptReadsFor(store, options.method ?? 'GET', { keep: options.keep }),
  } as unknown as RequestContext;
}

/** A fresh page each time it is read, counted. */
function pageReader(): { read: () => Promise<Reply>; count: () => number } {
  let count = 0;
  const read = async (): Promise<Reply> => {
    count += 1;
    return {
      status: 200,
      headers: { 'X-Read': String(count) },
      representation: { kind: 'collection', type: 'message', data: [{ id: 'm1', text: 'hello', tags: ['a'] }], meta: { total: 1, limit: 50, offset: 0 }, links: [{ rel: 'chat', href: '/chats/c1' }] },
    };
  };
  return { read, count: () => count };
}

test('a kept reply is frozen all the way down: changing it throws, and the next request finds it unchanged', async (t) => {
  const store = await openStore(t);
  const { read, count } = pageReader();
  const reply = await keptReply(request(store, { keep: 'shared' }), read);
  const rep = reply.representation!;
  assert.equal(rep.kind !== 'problem' && rep.shared, true);
  assert.throws(() => { reply.status = 500; }, TypeError);
  assert.throws(() => { reply.headers!['X-Read'] = 'changed'; }, TypeError);
  assert.throws(() => { (rep.data as Record<string, unknown>[])[0]!['text'] = 'changed'; }, TypeError);
  assert.throws(() => { ((rep.data as Record<string, unknown>[])[0]!['tags'] as string[]).push('b'); }, TypeError);
  assert.throws(() => { (rep as { page?: unknown }).page = {}; }, TypeError);
  assert.throws(() => { rep.kind === 'collection' && rep.links!.push({ rel: 'next', href: '/x' }); }, TypeError);
  assert.equal(await keptReply(request(store, { keep: 'shared', userId: 'u2' }), read), reply, 'shared: the same object for another caller');
  assert.equal(count(), 1);
});

test('a per-caller reply is kept for each caller apart; HTML apart from JSON and XML; each path and query apart', async (t) => {
  const store = await openStore(t);
  const { read, count } = pageReader();
  const mine = await keptReply(request(store, { keep: 'per-caller', path: '/chats/c1' }), read);
  assert.equal(await keptReply(request(store, { keep: 'per-caller', path: '/chats/c1' }), read), mine);
  assert.notEqual(await keptReply(request(store, { keep: 'per-caller', path: '/chats/c1', userId: 'u2' }), read), mine);
  assert.equal(count(), 2);

  const json = await keptReply(request(store, { keep: 'shared' }), read);
  assert.equal(await keptReply(request(store, { keep: 'shared', mediaType: 'application/xml' }), read), json);
  assert.notEqual(await keptReply(request(store, { keep: 'shared', mediaType: 'text/html' }), read), json);
  assert.notEqual(await keptReply(request(store, { keep: 'shared', query: 'limit=1' }), read), json);
  assert.notEqual(await keptReply(request(store, { keep: 'shared', path: '/chats/c2/messages' }), read), json);
  assert.equal(count(), 6);
});

test('a route without keep, a write, and a problem or an absent reply are read every time and left as they are', async (t) => {
  const store = await openStore(t);
  const { read, count } = pageReader();
  const plain = await keptReply(request(store), read);
  assert.equal(Object.isFrozen(plain), false);
  await keptReply(request(store), read);
  await keptReply(request(store, { keep: 'shared', method: 'POST' }), read);
  assert.equal(count(), 3);
  const problem = async (): Promise<Reply> => ({ status: 404, representation: { kind: 'problem', data: { type: 'about:blank', title: 'Not Found', status: 404, detail: 'x', code: 'ERR_NOT_FOUND' } } });
  assert.notEqual(await keptReply(request(store, { keep: 'shared' }), problem), await keptReply(request(store, { keep: 'shared' }), problem));
  let absent = 0;
  for (let i = 0; i < 2; i += 1) assert.equal(await keptReply(request(store, { keep: 'per-caller' }), async () => (absent += 1, undefined)), undefined);
  assert.equal(absent, 2);
});

test('freezeDeep leaves functions and byte arrays as they are', () => {
  const bytes = Buffer.from('abc');
  const itemHref = (): string => '/x';
  const value = { bytes, itemHref, nested: [{ a: 1 }] };
  freezeDeep(value);
  assert.ok(Object.isFrozen(value.nested[0]));
  assert.equal(Object.isFrozen(itemHref), false);
  bytes[0] = 0x41;
  assert.equal(bytes.toString(), 'Abc');
});
