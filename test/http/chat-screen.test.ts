// The chat screen over HTTP (docs/html.md, "The chat screen"): POST …/reactions with any emoji (JSON and form), the
// sidebar in last-activity order, and the screen's own parameters `reply` and `edit` (HTML only).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RunningServer } from '../../src/index.ts';
import { call, registerAndLogIn, withServer, type LoggedIn, type TestResponse } from './client.ts';

const FORM = 'application/x-www-form-urlencoded';
const HTML = 'text/html';
const UNCHECKED = 'an HTML form post (docs/protocol.md §7.3) is outside the OpenAPI document, which describes the JSON exchange';

async function cookieOf(server: RunningServer, login: string): Promise<string> {
  const res = await call(server, 'POST', '/session', { body: new URLSearchParams({ login, password: `${login} password` }).toString(), headers: { 'content-type': FORM, origin: server.url } });
  assert.equal(res.status, 303);
  return String(res.headers['set-cookie']).split(';')[0]!;
}

function page(server: RunningServer, cookie: string, path: string): Promise<TestResponse> {
  return call(server, 'GET', path, { headers: { cookie, accept: HTML } });
}

async function post(server: RunningServer, who: LoggedIn, chatId: string, text: string): Promise<{ id: string }> {
  return (await call(server, 'POST', `/chats/${chatId}/messages`, { token: who.token, json: { data: { text } } })).body.data;
}

test('POST …/reactions {"emoji"} reacts as PUT …/reactions/{emoji} does: 201 then 204; bad input is a 400 naming emoji', async (t) => {
  const server = await withServer(t);
  const alice = await registerAndLogIn(server, 'alice', 'alice password');
  const chat = (await call(server, 'POST', '/chats', { token: alice.token, json: { data: { title: 'Reactions' } } })).body.data;
  const message = await post(server, alice, chat.id, 'React to me');
  const path = `/chats/${chat.id}/messages/${message.id}/reactions`;
  const added = await call(server, 'POST', path, { token: alice.token, json: { emoji: '🦄' } });
  assert.equal(added.status, 201);
  assert.equal(added.headers['location'], `${path}/${encodeURIComponent('🦄')}`);
  assert.deepEqual({ emoji: added.body.data.emoji, userId: added.body.data.userId }, { emoji: '🦄', userId: alice.userId });
  assert.equal((await call(server, 'POST', path, { token: alice.token, json: { emoji: '🦄' } })).status, 204);
  assert.equal((await call(server, 'POST', `/messages/${message.id}/reactions`, { token: alice.token, json: { emoji: 'ok' } })).status, 201);
  const reactions = (await call(server, 'GET', `/messages/${message.id}`, { token: alice.token })).body.data.reactions;
  assert.deepEqual(reactions.map((reaction: { emoji: string; count: number }) => [reaction.emoji, reaction.count]), [['🦄', 1], ['ok', 1]]);
  for (const [body, why] of [[{}, 'is required'], [{ emoji: '' }, 'must be 1 to 32'], [{ emoji: 'a b' }, 'whitespace'], [{ emoji: 7 }, 'is required'], [{ emoji: 'x', other: 1 }, '']] as const) {
    const refused = await call(server, 'POST', path, { token: alice.token, json: body });
    assert.equal(refused.status, 400, JSON.stringify(body));
    const fields = refused.body.errors.map((error: { field: string }) => error.field);
    assert.ok(fields.includes('emoji') || fields.includes('other'), `${JSON.stringify(body)} names its field: ${fields}`);
    assert.match(JSON.stringify(refused.body.errors), new RegExp(why));
  }
  // A form: the field `emoji`, back to the chat at the message (303).
  const cookie = await cookieOf(server, 'alice');
  const back = `/chats/${chat.id}/messages#m-${message.id}`;
  const form = await call(server, 'POST', path, {
    body: new URLSearchParams([['emoji', '🙌'], ['_back', back]]).toString(),
    headers: { 'content-type': FORM, origin: server.url, cookie, accept: HTML }, unchecked: UNCHECKED,
  });
  assert.equal(form.status, 303);
  assert.equal(form.headers['location'], back);
  const again = await call(server, 'POST', path, {
    body: new URLSearchParams([['emoji', ''], ['_back', back]]).toString(),
    headers: { 'content-type': FORM, origin: server.url, cookie, accept: HTML }, unchecked: UNCHECKED,
  });
  assert.equal(again.status, 400);
  assert.match(again.text, /aria-invalid="true"/);
});

test('the sidebar lists the reader\'s chats by last activity with badges; ?reply= and ?edit= show the reply\'s quote and the edit form (HTML only)', async (t) => {
  const server = await withServer(t);
  const alice = await registerAndLogIn(server, 'alice', 'alice password');
  const bob = await registerAndLogIn(server, 'bob', 'bob password');
  const first = (await call(server, 'POST', '/chats', { token: alice.token, json: { data: { title: 'First', members: [bob.userId] } } })).body.data;
  const second = (await call(server, 'POST', '/chats', { token: alice.token, json: { data: { title: 'Second', members: [bob.userId] } } })).body.data;
  const direct = (await call(server, 'POST', '/chats', { token: bob.token, json: { data: { kind: 'direct', members: [alice.userId] } } })).body.data;
  const mine = await post(server, alice, first.id, 'Mine');
  const theirs = await post(server, bob, first.id, 'Theirs, @alice');
  const cookie = await cookieOf(server, 'alice');
  const ids = (html: string) => [...html.matchAll(/data-chat-id="([^"]+)"/g)].map((match) => match[1]);

  const chats = await page(server, cookie, '/chats');
  assert.equal(chats.status, 200);
  assert.match(chats.text, /<nav class="sidebar" aria-label="Your chats" data-live-sidebar="\/chats">/);
  // The first chat has the newest message; the others are ordered by their creation, newest first; DMs apart.
  assert.deepEqual(ids(chats.text), [first.id, second.id, direct.id]);
  assert.match(chats.text, new RegExp(`data-chat-id="${first.id}" class="has-unread">.*?<span class="badge">1 unread</span> <span class="badge mention">1 mention</span>`));
  await post(server, bob, second.id, 'Now the second');
  assert.deepEqual(ids((await page(server, cookie, `/chats/${first.id}/messages`)).text), [second.id, first.id, direct.id]);

  // The chat: each message id="m-<id>" with data-message-id, the list live, the current chat marked in the sidebar.
  const screen = (await page(server, cookie, `/chats/${first.id}/messages`)).text;
  assert.match(screen, new RegExp(`<li id="m-${theirs.id}" data-message-id="${theirs.id}" class="message first unread">`));
  assert.match(screen, /<ol class="messages" data-live data-live-chat=/);
  assert.match(screen, /<li class="new-line" id="new-messages">/);
  assert.match(screen, new RegExp(`data-chat-id="${first.id}"[^>]*><a class="title" href="/chats/${first.id}/messages" aria-current="page"`));

  const replying = await page(server, cookie, `/chats/${first.id}/messages?reply=${theirs.id}`);
  assert.equal(replying.status, 200);
  assert.match(replying.text, new RegExp(`<input type="hidden" name="replyTo" value="${theirs.id}">`));
  assert.match(replying.text, /<div class="replying"><p class="quote">Replying to .*bob/);
  assert.match(replying.text, /data-live-chat=/, 'still the newest page, live');
  const editing = await page(server, cookie, `/chats/${first.id}/messages?edit=${mine.id}`);
  assert.match(editing.text, new RegExp(`<li id="m-${mine.id}" data-message-id="${mine.id}" class="message editing-now `));
  assert.match(editing.text, /<textarea id="edit-text" name="text" required maxlength="4000" rows="3" autofocus>Mine<\/textarea>/);
  assert.doesNotMatch((await page(server, cookie, `/chats/${first.id}/messages?edit=${theirs.id}`)).text, /id="edit-text"/, 'only one\'s own messages');
  // JSON clients see no such parameters: unknown, a 400 naming it.
  const json = await call(server, 'GET', `/chats/${first.id}/messages?reply=${theirs.id}`, { token: alice.token });
  assert.equal(json.status, 400);
  assert.equal(json.body.errors[0].field, 'reply');
});
