// Control characters in titles and texts are refused naming the field (docs/protocol.md §1.7); bidi controls are isolated in HTML.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertFieldError, createChat } from './chat-fixtures.ts';
import { call, registerAndLogIn, withServer } from './client.ts';

const CONTROLS = [
  ['NUL', '\u0000'], ['BEL', '\u0007'], ['backspace', '\b'], ['vertical tab', '\u000b'], ['form feed', '\f'],
  ['carriage return', '\r'], ['escape', '\u001b'], ['DEL', '\u007f'], ['C1 NEL', '\u0085'], ['C1 CSI', '\u009b'],
] as const;

test('the finding: NUL and other control characters in a message text are 400 naming data.text; line feed and tab pass', async (t) => {
  const server = await withServer(t);
  const alice = await registerAndLogIn(server, 'alice');
  const chat = await createChat(server, alice, { title: 'Team' });
  const path = `/chats/${chat.id}/messages`;
  for (const [name, control] of CONTROLS) {
    const res = await call(server, 'POST', path, { token: alice.token, json: { data: { text: `a${control}b` } } });
    assertFieldError(res, 'data.text', name);
    assert.match(res.body.errors[0].message, /control characters other than line feed and tab/);
  }
  const kept = await call(server, 'POST', path, { token: alice.token, json: { data: { text: 'line 1\n\tline 2 \u202e' } } });
  assert.equal(kept.status, 201);
  assert.equal(kept.body.data.text, 'line 1\n\tline 2 \u202e');
  const edit = await call(server, 'PATCH', `${path}/${kept.body.data.id}`, { token: alice.token, json: { data: { text: 'x\u0000' } } });
  assertFieldError(edit, 'data.text', 'an edit');
  assert.equal((await call(server, 'GET', path, { token: alice.token })).body.meta.total, 1, 'nothing refused was stored');
});

test('a chat title holds no control characters at all, not even line feed or tab', async (t) => {
  const server = await withServer(t);
  const alice = await registerAndLogIn(server, 'alice');
  for (const [name, control] of [...CONTROLS, ['line feed', '\n'], ['tab', '\t']] as const) {
    assertFieldError(await call(server, 'POST', '/chats', { token: alice.token, json: { data: { title: `a${control}b` } } }), 'data.title', name);
  }
  const chat = await createChat(server, alice, { title: 'Team' });
  assertFieldError(await call(server, 'PUT', `/chats/${chat.id}`, { token: alice.token, json: { data: { title: 'x\u0000' } } }), 'data.title', 'PUT');
  assertFieldError(await call(server, 'PATCH', `/chats/${chat.id}`, { token: alice.token, json: { data: { title: 'x\u001b[31m' } } }), 'data.title', 'PATCH');
  assert.equal((await call(server, 'GET', '/chats', { token: alice.token })).body.meta.total, 1);
});

test('the finding: U+202E in a title or text is shown isolated in HTML (<bdi>, dir="auto"), not spilling into the page', async (t) => {
  const server = await withServer(t);
  const alice = await registerAndLogIn(server, 'alice');
  const chat = await createChat(server, alice, { title: 'evil\u202egnp.exe' });
  await call(server, 'POST', `/chats/${chat.id}/messages`, { token: alice.token, json: { data: { text: 'hi \u202eereht' } } });
  const page = await call(server, 'GET', `/chats/${chat.id}`, { token: alice.token, headers: { accept: 'text/html' } });
  assert.match(page.text, /<dd><bdi>evil\u202egnp\.exe<\/bdi><\/dd>/);
  const list = await call(server, 'GET', '/chats', { token: alice.token, headers: { accept: 'text/html' } });
  assert.match(list.text, /<td><bdi><a href="\/chats\/[^"]+">evil\u202egnp\.exe<\/a><\/bdi><\/td>/);
  const messages = await call(server, 'GET', `/chats/${chat.id}/messages`, { token: alice.token, headers: { accept: 'text/html' } });
  assert.match(messages.text, /<p class="text" dir="auto">hi \u202eereht<\/p>/);
});
