// Message actions over HTTP (docs/protocol.md §4.5): every listed action succeeds, every unlisted one is refused.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RunningServer } from '../../src/index.ts';
import { call, withServer, type LoggedIn, type TestResponse } from './client.ts';
import { createChat, postMessage, threeUsers, type Message } from './chat-fixtures.ts';

interface Action {
  id: string;
  method: string;
  href: string;
}

/** How to take each known action on a message, whatever the list says: the test tries the unlisted ones too. */
const KNOWN_ACTIONS: Record<string, { method: string; href(message: Message): string; json(message: Message): unknown; success: number }> = {
  reply: { method: 'POST', href: (m) => `/chats/${m.chatId}/messages`, json: (m) => ({ data: { text: 'a reply', replyTo: m.id } }), success: 201 },
  edit: { method: 'PATCH', href: (m) => `/chats/${m.chatId}/messages/${m.id}`, json: () => ({ data: { text: 'edited' } }), success: 200 },
  delete: { method: 'DELETE', href: (m) => `/chats/${m.chatId}/messages/${m.id}`, json: () => undefined, success: 204 },
  // The href is a URI template: {emoji} is the client's to fill, percent-encoded.
  react: { method: 'PUT', href: (m) => `/chats/${m.chatId}/messages/${m.id}/reactions/{emoji}`, json: () => undefined, success: 201 },
};

function take(server: RunningServer, user: LoggedIn, id: string, message: Message, href?: string): Promise<TestResponse> {
  const action = KNOWN_ACTIONS[id]!;
  const target = (href ?? action.href(message)).replace('{emoji}', encodeURIComponent('👍'));
  return call(server, action.method, target, { token: user.token, json: action.json(message) });
}

test('the actions list what the caller may do; each listed one succeeds and each unlisted one is refused with 403', async (t) => {
  const server = await withServer(t);
  const { alice, bob, carol } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'Roles', members: [bob.userId, carol.userId] });
  const roles = [
    { who: 'the author', user: bob, expected: ['delete', 'edit', 'react', 'reply'] },
    { who: 'the chat\'s owner', user: alice, expected: ['delete', 'react', 'reply'] },
    { who: 'another member', user: carol, expected: ['react', 'reply'] },
  ];
  for (const { who, user, expected } of roles) {
    // A fresh message each time: the delete action removes it.
    const message = await postMessage(server, bob, chat.id, { text: `for ${who}` });
    const nested = await call(server, 'GET', `/chats/${chat.id}/messages/${message.id}/actions`, { token: user.token });
    const top = await call(server, 'GET', `/messages/${message.id}/actions`, { token: user.token });
    assert.equal(nested.status, 200, who);
    assert.deepEqual(top.body, nested.body, who);
    const actions = nested.body.data as Action[];
    assert.deepEqual(actions.map((action) => action.id), expected, who);
    assert.deepEqual(nested.body.meta, { total: expected.length, limit: 20, offset: 0 }, who);
    for (const action of actions) {
      assert.deepEqual(action, { id: action.id, method: KNOWN_ACTIONS[action.id]!.method, href: KNOWN_ACTIONS[action.id]!.href(message) }, who);
    }
    for (const id of Object.keys(KNOWN_ACTIONS).filter((known) => !expected.includes(known))) {
      const res = await take(server, user, id, message);
      assert.equal(res.status, 403, `${who} may not ${id}`);
      assert.equal(res.body.code, 'ERR_FORBIDDEN', `${who} may not ${id}`);
    }
    // In list order minus delete, then delete last, so the message is there for the others.
    const ordered = [...actions.filter((action) => action.id !== 'delete'), ...actions.filter((action) => action.id === 'delete')];
    for (const action of ordered) {
      const res = await take(server, user, action.id, message, action.href);
      assert.equal(res.status, KNOWN_ACTIONS[action.id]!.success, `${who} may ${action.id}: ${res.text}`);
    }
  }
});

test('actions follow the query conventions, and a message the caller cannot see has none (404)', async (t) => {
  const server = await withServer(t);
  const { alice, carol } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'Mine' });
  const message = await postMessage(server, alice, chat.id, { text: 'mine' });
  const writes = await call(server, 'GET', `/messages/${message.id}/actions?filter=method|in|PATCH,DELETE&sort=id`, { token: alice.token });
  assert.deepEqual(writes.body.data.map((action: Action) => action.id), ['delete', 'edit']);
  const first = await call(server, 'GET', `/messages/${message.id}/actions?limit=1`, { token: alice.token });
  assert.deepEqual(first.body.meta, { total: 4, limit: 1, offset: 0 });
  assert.equal(first.headers['link'], `</messages/${message.id}/actions?limit=1&offset=1>; rel="next"`);
  const unknown = await call(server, 'GET', `/messages/${message.id}/actions?owner=x`, { token: alice.token });
  assert.equal(unknown.status, 400);
  assert.equal(unknown.body.errors[0].field, 'owner');
  for (const path of [`/messages/${message.id}/actions`, `/chats/${chat.id}/messages/${message.id}/actions`]) {
    const res = await call(server, 'GET', path, { token: carol.token });
    assert.equal(res.status, 404, path);
  }
  assert.equal((await call(server, 'GET', `/chats/${chat.id}/messages/missing/actions`, { token: alice.token })).status, 404);
  const html = await call(server, 'GET', `/messages/${message.id}/actions`, { token: alice.token, headers: { accept: 'text/html' } });
  assert.match(html.text, new RegExp(`<a href="/chats/${chat.id}/messages/${message.id}">`));
});
