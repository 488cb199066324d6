// Reactions over HTTP (docs/protocol.md §10.2): PUT/DELETE …/reactions/{emoji}, the collection, the summary on every message.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { call, registerAndLogIn, withServer, TestClock } from './client.ts';
import { assertFieldError, createChat, postMessage, threeUsers } from './chat-fixtures.ts';

const THUMBS = '👍';
const HEART = '❤️';
const enc = encodeURIComponent;

test('PUT adds the caller\'s reaction (201, then 204), DELETE takes it back (204, then 404)', async (t) => {
  const clock = new TestClock();
  const server = await withServer(t, { clock });
  const { alice, bob } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'React', members: [bob.userId] });
  const message = await postMessage(server, alice, chat.id, { text: 'react to me' });
  const path = `/chats/${chat.id}/messages/${message.id}/reactions/${enc(THUMBS)}`;
  const at = new Date(clock.time).toISOString();
  const added = await call(server, 'PUT', path, { token: bob.token });
  assert.equal(added.status, 201, added.text);
  assert.equal(added.headers['location'], path);
  assert.deepEqual(added.body, { data: { emoji: THUMBS, userId: bob.userId, createdAt: at } });
  clock.advance(1000);
  const again = await call(server, 'PUT', path, { token: bob.token });
  assert.equal(again.status, 204);
  assert.equal(again.raw.length, 0);
  // GET of the same URL is the caller's own reaction, unchanged by the second PUT.
  const mine = await call(server, 'GET', path, { token: bob.token });
  assert.equal(mine.status, 200);
  assert.deepEqual(mine.body, added.body);
  assert.equal((await call(server, 'GET', path, { token: alice.token })).status, 404, 'alice has no such reaction');

  const shown = await call(server, 'GET', `/chats/${chat.id}/messages/${message.id}`, { token: alice.token });
  assert.deepEqual(shown.body.data.reactions, [{ emoji: THUMBS, count: 1, userIds: [bob.userId] }]);
  assert.equal(shown.body.data.updatedAt, message.updatedAt, 'a reaction is not a change of the message');

  assert.equal((await call(server, 'DELETE', path, { token: bob.token })).status, 204);
  const gone = await call(server, 'DELETE', path, { token: bob.token });
  assert.equal(gone.status, 404);
  assert.equal(gone.body.code, 'ERR_NOT_FOUND');
  assert.equal((await call(server, 'DELETE', path, { token: alice.token })).status, 404, 'only one\'s own reaction');
  assert.deepEqual((await call(server, 'GET', `/messages/${message.id}`, { token: alice.token })).body.data.reactions, []);
  const allow = await call(server, 'OPTIONS', path);
  assert.equal(allow.headers['allow'], 'OPTIONS, GET, HEAD, PUT, DELETE');
});

test('reactions on a message: in order of first use, users in the order they reacted, the same for every reader', async (t) => {
  const server = await withServer(t);
  const { alice, bob, carol } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'Order', members: [bob.userId, carol.userId] });
  const message = await postMessage(server, alice, chat.id, { text: 'order' });
  const other = await postMessage(server, alice, chat.id, { text: 'untouched' });
  const react = async (user: typeof alice, emoji: string, method = 'PUT') => {
    const res = await call(server, method, `/messages/${message.id}/reactions/${enc(emoji)}`, { token: user.token });
    assert.ok(res.status === 201 || res.status === 204, res.text);
  };
  await react(bob, HEART);
  await react(alice, THUMBS);
  await react(carol, HEART);
  await react(bob, THUMBS);
  await react(carol, '+1');
  const expected = [
    { emoji: HEART, count: 2, userIds: [bob.userId, carol.userId] },
    { emoji: THUMBS, count: 2, userIds: [alice.userId, bob.userId] },
    { emoji: '+1', count: 1, userIds: [carol.userId] },
  ];
  for (const user of [alice, bob, carol]) {
    const one = await call(server, 'GET', `/chats/${chat.id}/messages/${message.id}`, { token: user.token });
    assert.deepEqual(one.body.data.reactions, expected);
    const page = await call(server, 'GET', `/chats/${chat.id}/messages`, { token: user.token });
    assert.deepEqual(page.body.data.map((m: { reactions: unknown }) => m.reactions), [expected, []]);
  }
  // Every heart taken back, then given again: the heart is now the newest first use.
  await react(bob, HEART, 'DELETE');
  await react(carol, HEART, 'DELETE');
  await react(carol, HEART);
  const after = (await call(server, 'GET', `/messages/${message.id}`, { token: bob.token })).body.data.reactions;
  assert.deepEqual(after.map((r: { emoji: string }) => r.emoji), [THUMBS, '+1', HEART]);
  assert.deepEqual((await call(server, 'GET', `/messages/${other.id}`, { token: bob.token })).body.data.reactions, []);
});

test('the reactions collection: {emoji, userId, createdAt}, the query conventions, both addresses', async (t) => {
  const clock = new TestClock();
  const server = await withServer(t, { clock });
  const { alice, bob, carol } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'Collection', members: [bob.userId, carol.userId] });
  const message = await postMessage(server, alice, chat.id, { text: 'collect' });
  const made = [];
  for (const [user, emoji] of [[bob, THUMBS], [carol, HEART], [alice, THUMBS], [carol, '+1']] as const) {
    clock.advance(1000);
    assert.equal((await call(server, 'PUT', `/chats/${chat.id}/messages/${message.id}/reactions/${enc(emoji)}`, { token: user.token })).status, 201);
    made.push({ emoji, userId: user.userId, createdAt: new Date(clock.time).toISOString() });
  }
  const nested = await call(server, 'GET', `/chats/${chat.id}/messages/${message.id}/reactions`, { token: carol.token });
  const top = await call(server, 'GET', `/messages/${message.id}/reactions`, { token: carol.token });
  assert.equal(nested.status, 200);
  assert.deepEqual(nested.body, { data: made, meta: { total: 4, limit: 20, offset: 0 } });
  assert.deepEqual(top.body, nested.body);
  const list = async (query: string) => (await call(server, 'GET', `/messages/${message.id}/reactions?${query}`, { token: bob.token })).body;
  assert.deepEqual((await list(`emoji=${enc(THUMBS)}`)).data, [made[0], made[2]]);
  assert.deepEqual((await list(`filter=userId|eq|${carol.userId}`)).data, [made[1], made[3]]);
  assert.deepEqual((await list('sort=-createdAt&limit=2')).data, [made[3], made[2]]);
  assert.deepEqual((await list(`createdAt=>${made[1]!.createdAt}`)).data, [made[2], made[3]]);
  const page = await call(server, 'GET', `/messages/${message.id}/reactions?limit=1&offset=1`, { token: bob.token });
  assert.deepEqual(page.body.data, [made[1]]);
  assert.equal(page.headers['link'], `</messages/${message.id}/reactions?limit=1&offset=2>; rel="next", </messages/${message.id}/reactions?limit=1&offset=0>; rel="prev"`);
  // The order column is not a field of a reaction: the query string cannot name it.
  assertFieldError(await call(server, 'GET', `/messages/${message.id}/reactions?sort=seq`, { token: bob.token }), 'sort');
  assertFieldError(await call(server, 'GET', `/messages/${message.id}/reactions?seq=1`, { token: bob.token }), 'seq');
});

test('emoji: percent-encoded UTF-8 of 1 to 32 code points, no whitespace or control characters; else 400 naming emoji', async (t) => {
  const server = await withServer(t);
  const { alice } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'Emoji' });
  const message = await postMessage(server, alice, chat.id, { text: 'emoji' });
  const base = `/chats/${chat.id}/messages/${message.id}/reactions/`;
  const accepted = ['👩‍💻', '🏳️‍🌈', '+1', 'ok', 'x'.repeat(32), '🇫🇷', '%', '/'];
  for (const emoji of accepted) {
    const res = await call(server, 'PUT', base + enc(emoji), { token: alice.token });
    assert.equal(res.status, 201, `${emoji}: ${res.text}`);
    assert.equal(res.body.data.emoji, emoji);
  }
  const refused = ['x'.repeat(33), '👍'.repeat(33), 'a b', '\t', '\n', '\u0000', '\u007f', '\u0085', '\u00a0', '\u2028', '\u202e+1', 'a\u3000'];
  for (const emoji of refused) {
    for (const method of ['PUT', 'DELETE', 'GET']) assertFieldError(await call(server, method, base + enc(emoji), { token: alice.token }), 'emoji', `${method} ${JSON.stringify(emoji)}`);
  }
  for (const raw of ['%FF', '%E2%82', '%ED%A0%80', '%zz']) {
    const res = await call(server, 'PUT', base + raw, { token: alice.token });
    assert.equal(res.status, 400, raw);
    assert.equal(res.body.code, 'ERR_BAD_PATH', raw);
    assert.deepEqual(res.body.errors.map((error: { field: string }) => error.field), ['emoji'], raw);
  }
  const reactions = (await call(server, 'GET', `/messages/${message.id}`, { token: alice.token })).body.data.reactions;
  assert.deepEqual(reactions.map((r: { emoji: string }) => r.emoji), accepted);
});

test('any member may react, nobody else; a message not in the chat is 404', async (t) => {
  const server = await withServer(t);
  const { alice, bob, carol } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'Members only', members: [bob.userId] });
  const other = await createChat(server, carol, { title: 'Carol\'s' });
  const message = await postMessage(server, alice, chat.id, { text: 'members only' });
  for (const path of [`/chats/${chat.id}/messages/${message.id}/reactions`, `/messages/${message.id}/reactions`]) {
    assert.equal((await call(server, 'PUT', `${path}/${enc(THUMBS)}`, { token: carol.token })).status, 404, path);
    assert.equal((await call(server, 'GET', path, { token: carol.token })).status, 404, path);
  }
  assert.equal((await call(server, 'PUT', `/chats/${other.id}/messages/${message.id}/reactions/${enc(THUMBS)}`, { token: carol.token })).status, 404);
  assert.equal((await call(server, 'PUT', `/chats/${chat.id}/messages/missing/reactions/${enc(THUMBS)}`, { token: bob.token })).status, 404);
  assert.equal((await call(server, 'PUT', `/messages/${message.id}/reactions/${enc(THUMBS)}`, { token: bob.token })).status, 201);
  // A deleted message takes its reactions with it.
  assert.equal((await call(server, 'DELETE', `/messages/${message.id}/reactions/${enc(THUMBS)}`, { token: bob.token })).status, 204);
  assert.equal((await call(server, 'PUT', `/messages/${message.id}/reactions/${enc(HEART)}`, { token: bob.token })).status, 201);
  assert.equal((await call(server, 'DELETE', `/chats/${chat.id}/messages/${message.id}`, { token: alice.token })).status, 204);
  assert.equal((await call(server, 'GET', `/messages/${message.id}/reactions`, { token: bob.token })).status, 404);
});

test('many users reacting at once to one message: every count exact, each user counted once', async (t) => {
  // 25 registrations from one address: over the default hourly limit, so it is off here.
  const server = await withServer(t, { registerRate: 0 });
  const owner = await registerAndLogIn(server);
  const users = [];
  for (let i = 0; i < 24; i += 1) users.push(await registerAndLogIn(server));
  const chat = await createChat(server, owner, { title: 'Crowd', members: users.map((user) => user.userId) });
  const message = await postMessage(server, owner, chat.id, { text: 'react, everyone' });
  const emojis = [THUMBS, HEART, '🎉'];
  const path = (emoji: string) => `/messages/${message.id}/reactions/${enc(emoji)}`;
  // Each user puts every emoji twice at the same time: one 201 and one 204 per (user, emoji).
  const answers = await Promise.all(users.flatMap((user) => emojis.flatMap((emoji) => [0, 1].map(async () => ({
    key: `${user.userId} ${emoji}`, status: (await call(server, 'PUT', path(emoji), { token: user.token })).status,
  })))));
  const byKey = new Map<string, number[]>();
  for (const { key, status } of answers) byKey.set(key, [...(byKey.get(key) ?? []), status].sort());
  for (const [key, statuses] of byKey) assert.deepEqual(statuses, [201, 204], key);
  let reactions = (await call(server, 'GET', `/messages/${message.id}`, { token: owner.token })).body.data.reactions;
  assert.deepEqual(reactions.map((r: { emoji: string; count: number }) => [r.emoji, r.count]).sort(), emojis.map((emoji) => [emoji, users.length]).sort());
  for (const reaction of reactions) assert.deepEqual([...reaction.userIds].sort(), users.map((user) => user.userId).sort());
  // Half take back the heart at once (each twice: one 204, one 404), while the other half add a new one.
  const half = users.slice(0, 12);
  const statuses = await Promise.all([
    ...half.flatMap((user) => [0, 1].map(async () => (await call(server, 'DELETE', path(HEART), { token: user.token })).status)),
    ...users.slice(12).map(async (user) => (await call(server, 'PUT', path('🚀'), { token: user.token })).status),
  ]);
  assert.equal(statuses.filter((status) => status === 404).length, 12);
  reactions = (await call(server, 'GET', `/messages/${message.id}`, { token: owner.token })).body.data.reactions;
  const counts = Object.fromEntries(reactions.map((r: { emoji: string; count: number; userIds: string[] }) => [r.emoji, [r.count, r.userIds.length]]));
  assert.deepEqual(counts, { [THUMBS]: [24, 24], [HEART]: [12, 12], '🎉': [24, 24], '🚀': [12, 12] });
  const total = (await call(server, 'GET', `/messages/${message.id}/reactions?limit=1`, { token: owner.token })).body.meta.total;
  assert.equal(total, 24 + 12 + 24 + 12);
});
