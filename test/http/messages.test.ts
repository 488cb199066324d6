// Messages over HTTP (docs/protocol.md §4.4, §6.6): posting, replies, history with keyset paging, editing, deleting.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { call, TestClock, withServer } from './client.ts';
import { assertFieldError, createChat, postMessage, threeUsers, withoutIds, type Message } from './chat-fixtures.ts';

const MERGE_PATCH = { 'content-type': 'application/merge-patch+json' };

test('POST a message answers 201, Location and the message in the envelope', async (t) => {
  const clock = new TestClock();
  const server = await withServer(t, { clock });
  const { alice, bob } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'Talk', members: [bob.userId] });
  const res = await call(server, 'POST', `/chats/${chat.id}/messages`, { token: bob.token, json: { data: { text: 'Hello <world>', chatId: chat.id } } });
  assert.equal(res.status, 201);
  const id = res.body.data.id;
  assert.match(id, /^[0-9A-Z]{26}$/);
  assert.equal(res.headers['location'], `/chats/${chat.id}/messages/${id}`);
  const at = new Date(clock.time).toISOString();
  const expected = { data: { id, chatId: chat.id, authorId: bob.userId, text: 'Hello <world>', replyTo: null, createdAt: at, updatedAt: at, editedAt: null, reactions: [], mentions: [], attachments: [] } };
  assert.deepEqual(res.body, expected);
  const read = await call(server, 'GET', `/chats/${chat.id}/messages/${id}`, { token: alice.token });
  assert.deepEqual(read.body, expected);
  assert.equal(read.headers['etag'], res.headers['etag']);
});

test('replyTo must be an earlier message of the same chat', async (t) => {
  const server = await withServer(t);
  const { alice, bob } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'Talk', members: [bob.userId] });
  const elsewhere = await createChat(server, alice, { title: 'Elsewhere' });
  const first = await postMessage(server, alice, chat.id, { text: 'first' });
  const foreign = await postMessage(server, alice, elsewhere.id, { text: 'other chat' });
  const reply = await postMessage(server, bob, chat.id, { text: 'reply', replyTo: first.id });
  assert.equal(reply.replyTo, first.id);
  assert.equal((await postMessage(server, bob, chat.id, { text: 'no reply', replyTo: null })).replyTo, null);
  for (const replyTo of [foreign.id, 'no-such-message', 'bad id', 42]) {
    assertFieldError(await call(server, 'POST', `/chats/${chat.id}/messages`, { token: bob.token, json: { data: { text: 'x', replyTo } } }), 'data.replyTo', String(replyTo));
  }
  // An edit cannot point a message at itself or at a later one (replies never form a cycle).
  for (const replyTo of [first.id, reply.id]) {
    assertFieldError(await call(server, 'PATCH', `/chats/${chat.id}/messages/${first.id}`, { token: alice.token, json: { data: { replyTo } } }), 'data.replyTo');
  }
});

test('every broken message field is a 400 naming it', async (t) => {
  const server = await withServer(t);
  const { alice } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'Talk' });
  const rows: { what: string; json: unknown; field: string }[] = [
    { what: 'no envelope', json: { text: 'x' }, field: 'data' },
    { what: 'text missing', json: { data: {} }, field: 'data.text' },
    { what: 'text empty', json: { data: { text: '' } }, field: 'data.text' },
    { what: 'text too long', json: { data: { text: 'x'.repeat(4001) } }, field: 'data.text' },
    { what: 'text not a string', json: { data: { text: ['x'] } }, field: 'data.text' },
    { what: 'unknown field', json: { data: { text: 'x', foo: 1 } }, field: 'data.foo' },
    { what: 'id chosen by the client', json: { data: { id: 'mine', text: 'x' } }, field: 'data.id' },
    { what: 'another chat', json: { data: { chatId: 'other', text: 'x' } }, field: 'data.chatId' },
    { what: 'read-only authorId', json: { data: { authorId: alice.userId, text: 'x' } }, field: 'data.authorId' },
  ];
  for (const { what, json, field } of rows) assertFieldError(await call(server, 'POST', `/chats/${chat.id}/messages`, { token: alice.token, json }), field, what);
  assert.equal((await call(server, 'GET', `/chats/${chat.id}/messages`, { token: alice.token })).body.meta.total, 0);
  assert.equal((await call(server, 'POST', `/chats/${chat.id}/messages`, { token: alice.token, json: { data: { text: '😀'.repeat(4000) } } })).status, 201);
});

async function postMany(server: Parameters<typeof postMessage>[0], clock: TestClock, ...args: [Parameters<typeof postMessage>[1], string, number]): Promise<Message[]> {
  const [author, chatId, count] = args;
  const messages: Message[] = [];
  for (let i = 0; i < count; i++) {
    clock.advance(1000);
    messages.push(await postMessage(server, author, chatId, { text: `message ${i}` }));
  }
  return messages;
}

test('GET /chats/{id}/messages answers oldest first, with the query conventions and offset links', async (t) => {
  const clock = new TestClock();
  const server = await withServer(t, { clock });
  const { alice, bob, carol } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'Talk', members: [bob.userId] });
  const messages = await postMany(server, clock, alice, chat.id, 5);
  const bobs = await postMessage(server, bob, chat.id, { text: 'from bob' });
  const all = [...messages, bobs];
  const list = await call(server, 'GET', `/chats/${chat.id}/messages`, { token: bob.token });
  assert.equal(list.status, 200);
  assert.deepEqual(list.body, { data: all, meta: { total: 6, limit: 20, offset: 0 } });
  assert.equal(list.headers['link'], undefined);
  const newest = await call(server, 'GET', `/chats/${chat.id}/messages?sort[createdAt]=DESC`, { token: bob.token });
  assert.deepEqual(newest.body.data, [...all].reverse());
  const byBob = await call(server, 'GET', `/chats/${chat.id}/messages?authorId=${bob.userId}`, { token: alice.token });
  assert.deepEqual(byBob.body.data, [bobs]);
  const page = await call(server, 'GET', `/chats/${chat.id}/messages?limit=2&offset=2`, { token: alice.token });
  assert.deepEqual(page.body.data, all.slice(2, 4));
  assert.equal(page.headers['link'], `</chats/${chat.id}/messages?limit=2&offset=4>; rel="next", </chats/${chat.id}/messages?limit=2&offset=0>; rel="prev"`);
  const missingChat = await call(server, 'GET', '/chats/nothing/messages', { token: carol.token });
  const hiddenChat = await call(server, 'GET', `/chats/${chat.id}/messages`, { token: carol.token });
  assert.equal(hiddenChat.status, 404);
  assert.deepEqual(withoutIds(hiddenChat.body, chat.id), withoutIds(missingChat.body, 'nothing'));
});

/** Follows rel="next" (or prev) links from a first page; answers every page's ids. */
async function walk(server: Parameters<typeof postMessage>[0], token: string, first: string, rel: 'next' | 'prev', between?: () => Promise<unknown>): Promise<string[][]> {
  const pages: string[][] = [];
  let path: string | undefined = first;
  while (path !== undefined) {
    const res = await call(server, 'GET', path, { token });
    assert.equal(res.status, 200, res.text);
    pages.push(res.body.data.map((message: Message) => message.id));
    const link = String(res.headers['link'] ?? '').split(', ').find((part) => part.endsWith(`rel="${rel}"`));
    path = link?.slice(1, link.indexOf('>'));
    await between?.();
  }
  return pages;
}

test('after= pages forward and never skips or repeats a message while others are posted', async (t) => {
  const clock = new TestClock();
  const server = await withServer(t, { clock });
  const { alice } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'Busy' });
  const messages = await postMany(server, clock, alice, chat.id, 7);
  const posted: Message[] = [];
  const pages = await walk(server, alice.token, `/chats/${chat.id}/messages?limit=3&after=${messages[0]!.id}`, 'next', async () => {
    if (posted.length < 2) posted.push(...(await postMany(server, clock, alice, chat.id, 1)));
  });
  const seen = pages.flat();
  assert.deepEqual(seen, [...messages.slice(1), ...posted].map((message) => message.id));
  const first = await call(server, 'GET', `/chats/${chat.id}/messages?limit=3&after=${messages[0]!.id}`, { token: alice.token });
  // The bounds narrow the page, not the collection: total is every message of the chat (7 + 2 posted).
  assert.deepEqual(first.body.meta, { total: 9, limit: 3, offset: 0 });
  assert.equal(first.headers['link'], [
    `</chats/${chat.id}/messages?limit=3&after=${messages[3]!.id}>; rel="next"`,
    `</chats/${chat.id}/messages?limit=3&before=${messages[1]!.id}>; rel="prev"`,
  ].join(', '));
});

test('before= pages backward, each page oldest first; after and before together give a window', async (t) => {
  const clock = new TestClock();
  const server = await withServer(t, { clock });
  const { alice } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'History' });
  const messages = await postMany(server, clock, alice, chat.id, 8);
  const ids = messages.map((message) => message.id);
  const last = await call(server, 'GET', `/chats/${chat.id}/messages?limit=3&before=${ids[7]}`, { token: alice.token });
  assert.deepEqual(last.body, { data: messages.slice(4, 7), meta: { total: 8, limit: 3, offset: 0 } });
  assert.equal(last.headers['link'], [
    `</chats/${chat.id}/messages?limit=3&after=${ids[6]}>; rel="next"`,
    `</chats/${chat.id}/messages?limit=3&before=${ids[4]}>; rel="prev"`,
  ].join(', '));
  const pages = await walk(server, alice.token, `/chats/${chat.id}/messages?limit=3&before=${ids[7]}`, 'prev');
  assert.deepEqual(pages, [ids.slice(4, 7), ids.slice(1, 4), ids.slice(0, 1)]);
  const window = await call(server, 'GET', `/chats/${chat.id}/messages?after=${ids[1]}&before=${ids[6]}&limit=2`, { token: alice.token });
  assert.deepEqual(window.body.data, messages.slice(2, 4));
  assert.equal(window.body.meta.total, 8);
  assert.match(String(window.headers['link']), new RegExp(`after=${ids[3]}&before=${ids[6]}>; rel="next"`));
  const filtered = await call(server, 'GET', `/chats/${chat.id}/messages?after=${ids[1]}&text=message%205`, { token: alice.token });
  assert.deepEqual(filtered.body.data, [messages[5]]);
  assert.equal(filtered.body.meta.total, 1, 'a filtered total counts the filter\'s matches in the whole chat');
});

test('after/before must name a message of the chat, and page only in the default order', async (t) => {
  const server = await withServer(t);
  const { alice } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'Here' });
  const other = await createChat(server, alice, { title: 'There' });
  const here = await postMessage(server, alice, chat.id, { text: 'here' });
  const there = await postMessage(server, alice, other.id, { text: 'there' });
  const base = `/chats/${chat.id}/messages`;
  const rows = [
    { query: `after=${there.id}`, field: 'after' },
    { query: 'before=nothing', field: 'before' },
    { query: 'after=', field: 'after' },
    { query: 'before=%3Cscript%3E', field: 'before' },
    { query: `after=${here.id}&after=${here.id}`, field: 'after' },
    { query: `after=${here.id}&sort=createdAt`, field: 'sort' },
    { query: `before=${here.id}&offset=1`, field: 'offset' },
  ];
  for (const { query, field } of rows) {
    const res = await call(server, 'GET', `${base}?${query}`, { token: alice.token });
    assertFieldError(res, field, query);
    assert.equal(res.body.code, 'ERR_BAD_QUERY', query);
  }
});

test('GET /messages/{id} is the same message from the top level; a hidden one is a 404 like a missing one', async (t) => {
  const server = await withServer(t);
  const { alice, bob, carol } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'Talk', members: [bob.userId] });
  const message = await postMessage(server, bob, chat.id, { text: 'anywhere' });
  const nested = await call(server, 'GET', `/chats/${chat.id}/messages/${message.id}`, { token: alice.token });
  const top = await call(server, 'GET', `/messages/${message.id}`, { token: alice.token });
  assert.equal(top.status, 200);
  assert.deepEqual(top.body, nested.body);
  assert.equal(top.headers['etag'], nested.headers['etag']);
  const hidden = await call(server, 'GET', `/messages/${message.id}`, { token: carol.token });
  const missing = await call(server, 'GET', '/messages/no-such-message', { token: carol.token });
  assert.equal(hidden.status, 404);
  assert.deepEqual(withoutIds(hidden.body, message.id), withoutIds(missing.body, 'no-such-message'));
  const wrongChat = await createChat(server, alice, { title: 'Other' });
  assert.equal((await call(server, 'GET', `/chats/${wrongChat.id}/messages/${message.id}`, { token: alice.token })).status, 404, 'a message is found only under its own chat');
  const html = await call(server, 'GET', `/messages/${message.id}`, { token: alice.token, headers: { accept: 'text/html' } });
  assert.match(html.text, new RegExp(`href="/chats/${chat.id}"`));
  assert.match(html.text, new RegExp(`href="/chats/${chat.id}/messages/${message.id}/actions"`));
});

test('PUT and PATCH by the author change text and replyTo; updatedAt moves, createdAt stays; others get 403', async (t) => {
  const clock = new TestClock();
  const server = await withServer(t, { clock });
  const { alice, bob } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'Talk', members: [bob.userId] });
  const first = await postMessage(server, alice, chat.id, { text: 'first' });
  clock.advance(1000);
  const message = await postMessage(server, bob, chat.id, { text: 'tpyo', replyTo: first.id });
  const path = `/chats/${chat.id}/messages/${message.id}`;

  clock.advance(1000);
  const patched = await call(server, 'PATCH', path, { token: bob.token, json: { data: { text: 'typo' } } });
  assert.equal(patched.status, 200);
  const editedAt = new Date(clock.time).toISOString();
  assert.deepEqual(patched.body, { data: { ...message, text: 'typo', updatedAt: editedAt, editedAt } });

  clock.advance(1000);
  // A new replyTo changes the message (updatedAt) but is not an edit of its text (editedAt stays).
  const unreplied = await call(server, 'PATCH', path, { token: bob.token, headers: MERGE_PATCH, json: { data: { replyTo: null } } });
  assert.deepEqual(unreplied.body.data, { ...message, text: 'typo', replyTo: null, updatedAt: new Date(clock.time).toISOString(), editedAt });

  clock.advance(1000);
  const put = await call(server, 'PUT', path, { token: bob.token, json: { data: { id: message.id, text: 'replaced', replyTo: first.id } } });
  assert.equal(put.status, 200);
  const now = new Date(clock.time).toISOString();
  assert.deepEqual(put.body.data, { ...message, text: 'replaced', replyTo: first.id, updatedAt: now, editedAt: now });
  // PUT replaces the whole message: without replyTo, it is null.
  const whole = await call(server, 'PUT', path, { token: bob.token, json: { data: { text: 'replaced' } } });
  assert.equal(whole.body.data.replyTo, null);

  clock.advance(1000);
  const unchanged = await call(server, 'PATCH', path, { token: bob.token, json: { data: { text: 'replaced' } } });
  assert.deepEqual(unchanged.body, whole.body, 'a patch that changes nothing leaves updatedAt');

  assertFieldError(await call(server, 'PATCH', path, { token: bob.token, headers: MERGE_PATCH, json: { data: { text: null } } }), 'data.text');
  assertFieldError(await call(server, 'PATCH', path, { token: bob.token, json: { data: { id: first.id } } }), 'data.id');
  assertFieldError(await call(server, 'PUT', path, { token: bob.token, json: { data: { replyTo: null } } }), 'data.text');
  for (const [method, json] of [['PATCH', { data: { text: 'hijack' } }], ['PUT', { data: { text: 'hijack' } }]] as const) {
    const res = await call(server, method, path, { token: alice.token, json });
    assert.equal(res.status, 403, `${method} by the chat's owner, who is not the author`);
    assert.equal(res.body.code, 'ERR_FORBIDDEN');
  }
  assert.deepEqual((await call(server, 'GET', path, { token: alice.token })).body, whole.body);
  assert.equal((await call(server, 'PUT', `/chats/${chat.id}/messages/no-such`, { token: bob.token, json: { data: { text: 'x' } } })).status, 404, 'PUT never creates a message');
});

test('DELETE of a message: the author or the owner (204); another member gets 403; replies lose their replyTo', async (t) => {
  const clock = new TestClock();
  const server = await withServer(t, { clock });
  const { alice, bob, carol } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'Talk', members: [bob.userId, carol.userId] });
  const bobs = await postMessage(server, bob, chat.id, { text: 'by bob' });
  const reply = await postMessage(server, carol, chat.id, { text: 'reply', replyTo: bobs.id });
  const other = await postMessage(server, bob, chat.id, { text: 'another by bob' });

  const byCarol = await call(server, 'DELETE', `/chats/${chat.id}/messages/${bobs.id}`, { token: carol.token });
  assert.equal(byCarol.status, 403);
  clock.advance(1000);
  const byAuthor = await call(server, 'DELETE', `/chats/${chat.id}/messages/${bobs.id}`, { token: bob.token });
  assert.equal(byAuthor.status, 204);
  assert.equal(byAuthor.raw.length, 0);
  assert.equal((await call(server, 'GET', `/messages/${bobs.id}`, { token: bob.token })).status, 404);
  const orphan = await call(server, 'GET', `/messages/${reply.id}`, { token: carol.token });
  assert.deepEqual(orphan.body.data, { ...reply, replyTo: null, updatedAt: new Date(clock.time).toISOString() });

  const byOwner = await call(server, 'DELETE', `/chats/${chat.id}/messages/${other.id}`, { token: alice.token });
  assert.equal(byOwner.status, 204);
  assert.equal((await call(server, 'DELETE', `/chats/${chat.id}/messages/${other.id}`, { token: alice.token })).status, 404);
});

test('DELETE /chats/{id}/messages: the owner empties the chat (204); a member gets 403', async (t) => {
  const clock = new TestClock();
  const server = await withServer(t, { clock });
  const { alice, bob } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'Talk', members: [bob.userId] });
  const other = await createChat(server, alice, { title: 'Kept' });
  await postMany(server, clock, bob, chat.id, 3);
  const kept = await postMessage(server, alice, other.id, { text: 'stays' });
  const byMember = await call(server, 'DELETE', `/chats/${chat.id}/messages`, { token: bob.token });
  assert.equal(byMember.status, 403);
  assert.equal((await call(server, 'GET', `/chats/${chat.id}/messages`, { token: bob.token })).body.meta.total, 3);
  const byOwner = await call(server, 'DELETE', `/chats/${chat.id}/messages`, { token: alice.token });
  assert.equal(byOwner.status, 204);
  assert.deepEqual((await call(server, 'GET', `/chats/${chat.id}/messages`, { token: bob.token })).body, { data: [], meta: { total: 0, limit: 20, offset: 0 } });
  assert.deepEqual((await call(server, 'GET', `/messages/${kept.id}`, { token: alice.token })).body.data, kept);
  assert.equal((await call(server, 'GET', `/chats/${chat.id}`, { token: bob.token })).status, 200, 'the chat itself stays');
});

test('messages posted at once are all acknowledged, each after its commit, and read back in id order', async (t) => {
  const server = await withServer(t);
  const { alice, bob } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'Rush', members: [bob.userId] });
  const posted = await Promise.all(Array.from({ length: 30 }, (_, i) => postMessage(server, i % 2 === 0 ? alice : bob, chat.id, { text: `rush ${i}` })));
  const list = await call(server, 'GET', `/chats/${chat.id}/messages?limit=100`, { token: alice.token });
  assert.equal(list.body.meta.total, 30);
  assert.deepEqual(list.body.data, [...posted].sort((a, b) => (a.id < b.id ? -1 : 1)));
  // A bad replyTo fails alone; the writes committed with it are kept.
  const [good, bad] = await Promise.all([
    call(server, 'POST', `/chats/${chat.id}/messages`, { token: bob.token, json: { data: { text: 'ok' } } }),
    call(server, 'POST', `/chats/${chat.id}/messages`, { token: bob.token, json: { data: { text: 'bad', replyTo: 'nothing' } } }),
  ]);
  assert.equal(good.status, 201);
  assertFieldError(bad, 'data.replyTo');
  assert.equal((await call(server, 'GET', `/messages/${good.body.data.id}`, { token: alice.token })).status, 200);
});
