// Direct chats over HTTP (docs/protocol.md §14.1): one per pair, 201 new or 200 existing, two members that stay,
// either may leave; kind in every chat, filterable and sortable.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { call, TestClock, withServer, type LoggedIn } from './client.ts';
import { assertFieldError, createChat, threeUsers } from './chat-fixtures.ts';
import type { RunningServer } from '../../src/index.ts';

function openDirect(server: RunningServer, caller: LoggedIn, otherId: string) {
  return call(server, 'POST', '/chats', { token: caller.token, json: { data: { kind: 'direct', members: [otherId] } } });
}

test('POST /chats kind direct answers 201 with a new chat, then 200 with the same one for either person', async (t) => {
  const clock = new TestClock();
  const server = await withServer(t, { clock });
  const { alice, bob } = await threeUsers(server);
  const at = new Date(clock.time).toISOString();
  const created = await openDirect(server, alice, bob.userId);
  assert.equal(created.status, 201, created.text);
  const id = created.body.data.id;
  assert.equal(created.headers['location'], `/chats/${id}`);
  const chat = { id, kind: 'direct', title: null, ownerId: alice.userId, members: [alice.userId, bob.userId], createdAt: at, updatedAt: at };
  assert.deepEqual(created.body, { data: { ...chat, lastReadId: null, unreadCount: 0, mentionCount: 0 } });

  clock.advance(1000);
  const again = await openDirect(server, alice, bob.userId);
  assert.equal(again.status, 200);
  assert.equal(again.headers['location'], undefined);
  assert.deepEqual(again.body, created.body);
  const fromBob = await openDirect(server, bob, alice.userId);
  assert.equal(fromBob.status, 200);
  assert.deepEqual(fromBob.body, created.body);
  assert.equal((await call(server, 'GET', '/chats?kind=direct', { token: bob.token })).body.meta.total, 1);
});

test('a chat with oneself is a direct chat of one member; an unknown or malformed other person is a 400 naming data.members', async (t) => {
  const server = await withServer(t);
  const { alice } = await threeUsers(server);
  const self = await openDirect(server, alice, alice.userId);
  assert.equal(self.status, 201);
  assert.deepEqual([self.body.data.kind, self.body.data.title, self.body.data.members], ['direct', null, [alice.userId]]);
  assert.equal((await openDirect(server, alice, alice.userId)).status, 200);
  assertFieldError(await openDirect(server, alice, '01M8ZZZZZZZZZZZZZZZZZZZZZZ'), 'data.members');
  assertFieldError(await call(server, 'POST', '/chats', { token: alice.token, json: { data: { kind: 'direct', members: [] } } }), 'data.members');
  assertFieldError(await call(server, 'POST', '/chats', { token: alice.token, json: { data: { kind: 'direct', members: ['a', 'b'] } } }), 'data.members');
  assertFieldError(await call(server, 'POST', '/chats', { token: alice.token, json: { data: { kind: 'direct', title: 'Ours', members: [alice.userId] } } }), 'data.title');
  assertFieldError(await call(server, 'POST', '/chats', { token: alice.token, json: { data: { kind: 'dm', title: 'x' } } }), 'data.kind');
  assertFieldError(await call(server, 'PUT', '/chats/mine', { token: alice.token, json: { data: { kind: 'direct', title: 'x' } } }), 'data.kind');
});

test('a direct chat keeps its two members and no title: adding, removing, renaming, replacing or handing over is 409', async (t) => {
  const server = await withServer(t);
  const { alice, bob, carol } = await threeUsers(server);
  const chat = (await openDirect(server, alice, bob.userId)).body.data;
  const conflict = (detail: string) => ({
    type: 'https://chat-api.invalid/problems/direct-chat', title: 'A direct chat cannot change so', status: 409, code: 'ERR_DIRECT_CHAT', detail: `Chat ${chat.id} is a direct chat: ${detail}`,
  });
  const added = await call(server, 'PUT', `/chats/${chat.id}/members/${carol.userId}`, { token: alice.token });
  assert.equal(added.status, 409);
  assert.deepEqual(added.body, conflict('it keeps its two members'));
  const removed = await call(server, 'DELETE', `/chats/${chat.id}/members/${bob.userId}`, { token: alice.token });
  assert.equal(removed.status, 409);
  assert.equal(removed.body.detail, conflict('each person may only leave it').detail);
  for (const data of [{ title: 'Ours' }, { members: [alice.userId, bob.userId, carol.userId] }, { ownerId: bob.userId }]) {
    const patched = await call(server, 'PATCH', `/chats/${chat.id}`, { token: alice.token, json: { data } });
    assert.equal(patched.status, 409, JSON.stringify(data));
    assert.equal(patched.body.detail, conflict('its members, title and owner cannot change').detail);
  }
  const replaced = await call(server, 'PUT', `/chats/${chat.id}`, { token: alice.token, json: { data: { title: 'Ours' } } });
  assert.equal(replaced.status, 409);
  assert.equal(replaced.body.detail, conflict('its members and title cannot be replaced').detail);
  assertFieldError(await call(server, 'PATCH', `/chats/${chat.id}`, { token: alice.token, json: { data: { kind: 'group' } } }), 'data.kind');
  const after = await call(server, 'GET', `/chats/${chat.id}`, { token: bob.token });
  assert.deepEqual(after.body.data, { ...chat, lastReadId: null, unreadCount: 0, mentionCount: 0 });
});

test('either person may leave a direct chat; it stays for the other, and opening it again brings one back', async (t) => {
  const clock = new TestClock();
  const server = await withServer(t, { clock });
  const { alice, bob } = await threeUsers(server);
  const chat = (await openDirect(server, alice, bob.userId)).body.data;
  clock.advance(1000);
  // The owner leaves: the chat goes to the other person.
  assert.equal((await call(server, 'DELETE', `/chats/${chat.id}/members/${alice.userId}`, { token: alice.token })).status, 204);
  assert.equal((await call(server, 'GET', `/chats/${chat.id}`, { token: alice.token })).status, 404);
  const left = await call(server, 'GET', `/chats/${chat.id}`, { token: bob.token });
  const leftAt = new Date(clock.time).toISOString();
  assert.deepEqual(left.body.data, { ...chat, ownerId: bob.userId, members: [bob.userId], updatedAt: leftAt, lastReadId: null, unreadCount: 0, mentionCount: 0 });
  clock.advance(1000);
  const back = await openDirect(server, alice, bob.userId);
  assert.equal(back.status, 200);
  const backAt = new Date(clock.time).toISOString();
  assert.deepEqual(back.body.data, { ...chat, ownerId: bob.userId, members: [bob.userId, alice.userId], updatedAt: backAt, lastReadId: null, unreadCount: 0, mentionCount: 0 });
  // Bob leaves too (he owns it now: alice takes it); alice still has it.
  assert.equal((await call(server, 'DELETE', `/chats/${chat.id}/members/${bob.userId}`, { token: bob.token })).status, 204);
  assert.deepEqual((await call(server, 'GET', `/chats/${chat.id}`, { token: alice.token })).body.data.members, [alice.userId]);
});

test('GET /chats filters and sorts by kind; a group chat says kind group', async (t) => {
  const server = await withServer(t);
  const { alice, bob, carol } = await threeUsers(server);
  const group = await createChat(server, alice, { title: 'Team', members: [bob.userId] });
  const direct = (await openDirect(server, alice, carol.userId)).body.data;
  const ids = async (query: string): Promise<string[]> => (await call(server, 'GET', `/chats?${query}`, { token: alice.token })).body.data.map((chat: { id: string }) => chat.id);
  assert.deepEqual(await ids('kind=direct'), [direct.id]);
  assert.deepEqual(await ids('kind=group'), [group.id]);
  assert.deepEqual(await ids('sort=kind'), [direct.id, group.id]);
  assert.deepEqual(await ids('sort=-kind'), [group.id, direct.id]);
  // A direct chat has no title: a title filter never finds it, and it sorts first (null first, docs/protocol.md §6.5).
  assert.deepEqual(await ids('title=Team'), [group.id]);
  assert.deepEqual(await ids('sort=title'), [direct.id, group.id]);
  assert.equal(group.kind, 'group');
});

test('GET /chats/{id} as XML and HTML: a direct chat has title nil and is named by the other person', async (t) => {
  const server = await withServer(t);
  const { alice, bob } = await threeUsers(server);
  const chat = (await openDirect(server, alice, bob.userId)).body.data;
  const xml = await call(server, 'GET', `/chats/${chat.id}`, { token: alice.token, headers: { accept: 'application/xml' } });
  assert.equal(xml.status, 200);
  assert.match(xml.text, /<kind>direct<\/kind>\n  <title nil="true"\/>\n/);
  const html = await call(server, 'GET', `/chats/${chat.id}`, { token: alice.token, headers: { accept: 'text/html' } });
  assert.equal(html.status, 200);
  assert.match(html.text, new RegExp(`<h1 dir="auto">${bob.login}</h1>`));
  // Its members page offers no Add, Remove or Make owner: a direct chat keeps its two people.
  const members = await call(server, 'GET', `/chats/${chat.id}/members`, { token: alice.token, headers: { accept: 'text/html' } });
  assert.equal(members.status, 200);
  assert.doesNotMatch(members.text, /Add a member|>Remove<|>Make owner</);
  assert.match(members.text, new RegExp(`<h1 dir="auto">Members of ${bob.login}</h1>`));
});

test('opening a direct chat one is in already is two reads, no write; one to join again or to make still writes', async (t) => {
  const server = await withServer(t);
  const { alice, bob } = await threeUsers(server);
  const storage = server.app.services.storage;
  // Writes, alone (transaction) or in a shared commit (writeTogether, which on PostgreSQL calls transaction: counted once).
  let transactions = 0;
  let depth = 0;
  for (const name of ['transaction', 'writeTogether'] as const) {
    const original = storage[name].bind(storage);
    storage[name] = ((work: Parameters<typeof original>[0]) => {
      if (depth === 0) transactions += 1;
      depth += 1;
      try {
        return original(work);
      } finally {
        depth -= 1;
      }
    }) as typeof original;
  }
  const created = await openDirect(server, alice, bob.userId);
  assert.equal(created.status, 201);
  assert.equal(transactions, 1);
  const again = await openDirect(server, bob, alice.userId);
  assert.equal(again.status, 200);
  assert.deepEqual(again.body, created.body);
  assert.equal(transactions, 1, 'an open that changes nothing writes nothing');
  assert.equal((await call(server, 'DELETE', `/chats/${created.body.data.id}/members/${bob.userId}`, { token: bob.token })).status, 204);
  const before = transactions;
  const back = await openDirect(server, bob, alice.userId);
  assert.equal(back.status, 200, back.text);
  assert.deepEqual(back.body.data.members, [alice.userId, bob.userId]);
  assert.equal(transactions, before + 1, 'joining again is a write');
});
