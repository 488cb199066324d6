// HTML forms (docs/protocol.md §7.3): same-origin form posts with `_method`, 303 on success, the form page again with the
// error beside its field, and `_method` refused wherever the origin check did not pass or the body is not a form.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RunningServer } from '../../src/index.ts';
import { preferredLocale } from '../../src/resources/page-context.ts';
import { avatarForm, multipart, MULTIPART_TYPE, png } from './avatar-fixtures.ts';
import { call, registerAndLogIn, withServer, type TestResponse } from './client.ts';

const FORM = 'application/x-www-form-urlencoded';
// A form post stands for another method on the same URL: the OpenAPI document describes the JSON exchange only.
const UNCHECKED = 'an HTML form post (docs/protocol.md §7.3) is outside the OpenAPI document, which describes the JSON exchange';

interface Browser {
  cookie: string;
  userId: string;
  token: string;
}

/** Registers through the API, then logs in through the login form as a browser does, keeping its cookie. */
async function browserUser(server: RunningServer, login: string): Promise<Browser> {
  const user = await registerAndLogIn(server, login, `${login} password`);
  const res = await call(server, 'POST', '/session', {
    body: new URLSearchParams({ login, password: `${login} password` }).toString(),
    headers: { 'content-type': FORM, origin: server.url },
  });
  assert.equal(res.status, 303);
  return { cookie: String(res.headers['set-cookie']).split(';')[0]!, userId: user.userId, token: user.token };
}

/** A form post from this site's page: the cookie, the server's own Origin, a browser's Accept. */
function submit(server: RunningServer, who: Browser, path: string, fields: [string, string][], headers: Record<string, string> = {}): Promise<TestResponse> {
  return call(server, 'POST', path, {
    body: new URLSearchParams(fields).toString(),
    headers: { 'content-type': FORM, origin: server.url, cookie: who.cookie, accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', ...headers },
    unchecked: UNCHECKED,
  });
}

function json(server: RunningServer, who: Browser, path: string): Promise<TestResponse> {
  return call(server, 'GET', path, { token: who.token });
}

async function newChat(server: RunningServer, who: Browser, title: string): Promise<string> {
  const res = await submit(server, who, '/chats', [['title', title]]);
  assert.equal(res.status, 303, res.text);
  const match = /^\/chats\/([A-Za-z0-9_-]+)\/messages$/.exec(String(res.headers['location']));
  assert.ok(match, `Location ${res.headers['location']}`);
  return match[1]!;
}

test('every write of a chat as a form: 303 to the page to show next, and the change made', async (t) => {
  const server = await withServer(t);
  const alice = await browserUser(server, 'alice');
  const bob = await browserUser(server, 'bob');
  const chatId = await newChat(server, alice, 'Plans');
  assert.equal((await json(server, alice, `/chats/${chatId}`)).body.data.title, 'Plans');

  const rename = await submit(server, alice, `/chats/${chatId}`, [['_method', 'PATCH'], ['title', 'Weekend plans']]);
  assert.equal(rename.status, 303);
  assert.equal(rename.headers['location'], `/chats/${chatId}`);
  assert.equal(rename.headers['content-length'], '0');
  assert.equal((await json(server, alice, `/chats/${chatId}`)).body.data.title, 'Weekend plans');

  const add = await submit(server, alice, `/chats/${chatId}/members/${bob.userId}`, [['_method', 'put']]);
  assert.equal(add.status, 303);
  assert.equal(add.headers['location'], `/chats/${chatId}/members`);
  assert.deepEqual((await json(server, alice, `/chats/${chatId}`)).body.data.members, [alice.userId, bob.userId]);

  const post = await submit(server, bob, `/chats/${chatId}/messages`, [['text', 'Hiking?']]);
  assert.equal(post.status, 303);
  const posted = /^\/chats\/[^/]+\/messages#m-(.+)$/.exec(String(post.headers['location']));
  assert.ok(posted, String(post.headers['location']));
  const messageId = posted[1]!;
  const reply = await submit(server, alice, `/chats/${chatId}/messages`, [['text', 'Yes!'], ['replyTo', messageId], ['_back', `/chats/${chatId}/messages/${messageId}`]]);
  assert.equal(reply.status, 303);
  const history = (await json(server, alice, `/chats/${chatId}/messages`)).body.data;
  assert.deepEqual(history.map((m: { text: string; replyTo: string | null }) => [m.text, m.replyTo]), [['Hiking?', null], ['Yes!', messageId]]);

  const back = `/chats/${chatId}/messages/${messageId}`;
  const react = await submit(server, alice, `/chats/${chatId}/messages/${messageId}/reactions/${encodeURIComponent('👍')}`, [['_method', 'PUT'], ['_back', back]]);
  assert.equal(react.status, 303);
  assert.equal(react.headers['location'], back, '_back names the page to return to');
  assert.deepEqual((await json(server, bob, back)).body.data.reactions, [{ emoji: '👍', count: 1, userIds: [alice.userId] }]);

  const edit = await submit(server, bob, back, [['_method', 'PATCH'], ['text', 'Hiking on Saturday?']]);
  assert.equal(edit.status, 303);
  assert.equal(edit.headers['location'], back);
  assert.equal((await json(server, bob, back)).body.data.text, 'Hiking on Saturday?');

  // Mark unread: lastReadId empty stands for null (the whole chat unread); then read up to the newest.
  const unread = await submit(server, alice, `/chats/${chatId}/read`, [['_method', 'PUT'], ['lastReadId', '']]);
  assert.equal(unread.status, 303);
  assert.equal(unread.headers['location'], `/chats/${chatId}/messages`);
  assert.deepEqual((await json(server, alice, `/chats/${chatId}/read`)).body.data, { chatId, lastReadId: null, unreadCount: 1, mentionCount: 0 });

  const remove = await submit(server, alice, `/chats/${chatId}/messages/${messageId}`, [['_method', 'DELETE']]);
  assert.equal(remove.status, 303);
  assert.equal(remove.headers['location'], `/chats/${chatId}/messages`);
  assert.equal((await json(server, alice, back)).status, 404);

  const clear = await submit(server, alice, `/chats/${chatId}/messages`, [['_method', 'DELETE']]);
  assert.equal(clear.status, 303);
  assert.equal((await json(server, alice, `/chats/${chatId}/messages`)).body.meta.total, 0);

  const leave = await submit(server, bob, `/chats/${chatId}/members/${bob.userId}`, [['_method', 'DELETE']]);
  assert.equal(leave.status, 303);
  assert.equal(leave.headers['location'], '/chats', 'who leaves a chat goes back to their chats');

  // The page asks for a ticked box before it deletes (the browser checks `required`); the server ignores `_` fields.
  const settings = await call(server, 'GET', `/chats/${chatId}`, { headers: { cookie: alice.cookie, accept: 'text/html' } });
  assert.ok(settings.text.includes('<input id="delete-chat-_confirm" name="_confirm" type="checkbox" value="yes" required> <label for="delete-chat-_confirm">Yes, delete this chat and its messages</label>'));
  const drop = await submit(server, alice, `/chats/${chatId}`, [['_method', 'DELETE'], ['_confirm', 'yes']]);
  assert.equal(drop.status, 303);
  assert.equal(drop.headers['location'], '/chats');
  assert.equal((await json(server, alice, `/chats/${chatId}`)).status, 404);
});

test('a broken rule shows the form page again: the contract\'s status, the message beside the field, what was typed', async (t) => {
  const server = await withServer(t);
  const alice = await browserUser(server, 'alice');
  const bob = await browserUser(server, 'bob');
  const chatId = await newChat(server, alice, 'Plans');

  const empty = await submit(server, alice, `/chats/${chatId}/messages`, [['text', '']]);
  assert.equal(empty.status, 400);
  assert.equal(empty.headers['content-type'], 'text/html; charset=utf-8');
  assert.match(String(empty.headers['content-security-policy']), /default-src 'none'/);
  assert.match(empty.text, /<textarea id="compose-text" name="text"[^>]* aria-invalid="true" aria-describedby="compose-text-error"><\/textarea><span class="error" id="compose-text-error">Message: is required<\/span>/);

  const long = 'x'.repeat(201);
  const title = await submit(server, alice, '/chats', [['title', long]]);
  assert.equal(title.status, 400);
  assert.match(title.text, new RegExp(`<input id="new-chat-title" name="title" type="text" value="${long}" [^>]*aria-invalid="true"`), 'the title as typed');
  assert.match(title.text, /<span class="error" id="new-chat-title-error">Title: must be 1 to 200 characters<\/span>/);

  // 409: a taken login, beside the login field of the account form.
  const taken = await submit(server, alice, `/users/${alice.userId}`, [['_method', 'PATCH'], ['login', 'BOB']]);
  assert.equal(taken.status, 409);
  assert.match(taken.text, /id="account-login-error">Login: is already taken</);
  assert.ok(taken.text.includes('value="BOB"'));
  // 403: a wrong current password, beside that field; nothing changes.
  const wrong = await submit(server, alice, `/users/${alice.userId}`, [['_method', 'PATCH'], ['currentPassword', 'not it at all'], ['password', 'a new password']]);
  assert.equal(wrong.status, 403);
  assert.match(wrong.text, /id="account-currentPassword-error">Current password \(to change the password\): is wrong</);
  assert.doesNotMatch(wrong.text, /not it at all/, 'a password is never shown again');

  // 403 without a field: a member who is not the owner renames; the chat page says why, above the form.
  await submit(server, alice, `/chats/${chatId}/members/${bob.userId}`, [['_method', 'PUT']]);
  const forbidden = await submit(server, bob, `/chats/${chatId}`, [['_method', 'PATCH'], ['title', 'Mine now']]);
  assert.equal(forbidden.status, 403);
  assert.match(forbidden.text, /<div class="error" role="alert"><p>Not done \(403 Forbidden\): Only the chat&#39;s owner may change it<\/p><\/div>/);
  assert.equal((await json(server, alice, `/chats/${chatId}`)).body.data.title, 'Plans');

  // A JSON client asking for JSON still gets the problem document.
  const problem = await submit(server, alice, '/chats', [['title', '']], { accept: 'application/json' });
  assert.equal(problem.status, 400);
  assert.equal(problem.headers['content-type'], 'application/problem+json');
  assert.deepEqual(problem.body.errors, [{ field: 'data.title', message: 'is required' }]);
});

test('_method is refused without the origin check and on bodies that are not forms; JSON clients see no change', async (t) => {
  const server = await withServer(t);
  const alice = await browserUser(server, 'alice');
  const chatId = await newChat(server, alice, 'Keep me');
  const form = new URLSearchParams({ _method: 'DELETE' }).toString();
  const still = async () => assert.equal((await json(server, alice, `/chats/${chatId}`)).status, 200, 'the chat is still there');

  // Without the server's own Origin a form post stays the POST it is: /chats/{id} takes none (405); where POST
  // exists, the cookie's origin check refuses it (403) before anything is read.
  for (const origin of [undefined, 'http://evil.example']) {
    const headers: Record<string, string> = { 'content-type': FORM, cookie: alice.cookie, ...(origin ? { origin } : {}) };
    const chat = await call(server, 'POST', `/chats/${chatId}`, { body: form, headers, unchecked: UNCHECKED });
    assert.equal(chat.status, 405);
    assert.equal(chat.headers['allow'], 'OPTIONS, GET, HEAD, PUT, PATCH, DELETE');
    const messages = await call(server, 'POST', `/chats/${chatId}/messages`, { body: form, headers, unchecked: UNCHECKED });
    assert.equal(messages.status, 403);
    assert.equal(messages.body.code, 'ERR_CSRF');
  }
  // A bearer token is a client, not a form: POST stays POST, which /chats/{id} does not allow.
  const bearer = await call(server, 'POST', `/chats/${chatId}`, { body: form, token: alice.token, headers: { 'content-type': FORM, origin: server.url }, unchecked: UNCHECKED });
  assert.equal(bearer.status, 405);
  assert.equal(bearer.headers['allow'], 'OPTIONS, GET, HEAD, PUT, PATCH, DELETE');
  // Not a form body: a JSON field, a query parameter, a header: none of them is an override.
  const inJson = await call(server, 'POST', `/chats/${chatId}/messages`, { json: { _method: 'DELETE', data: { text: 'hi' } }, headers: { cookie: alice.cookie, origin: server.url }, unchecked: UNCHECKED });
  assert.equal(inJson.status, 400);
  assert.deepEqual(inJson.body.errors, [{ field: '_method', message: 'is not a known field' }]);
  const inQuery = await call(server, 'POST', `/chats/${chatId}?_method=DELETE`, { json: {}, headers: { cookie: alice.cookie, origin: server.url }, unchecked: UNCHECKED });
  assert.equal(inQuery.status, 405);
  const inHeader = await call(server, 'POST', `/chats/${chatId}`, { json: {}, headers: { cookie: alice.cookie, origin: server.url, 'x-http-method-override': 'DELETE' }, unchecked: UNCHECKED });
  assert.equal(inHeader.status, 405);
  await still();

  // Only PUT, PATCH and DELETE, once.
  for (const bad of [[['_method', 'GET']], [['_method', 'DELETE'], ['_method', 'DELETE']]] as [string, string][][]) {
    const res = await submit(server, alice, `/chats/${chatId}`, bad, { accept: 'application/json' });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body.errors, [{ field: '_method', message: 'must be given once, as PUT, PATCH or DELETE' }]);
  }
  // A resource that takes no form (PUT of a chat is for clients that choose ids): 415, naming JSON.
  const put = await submit(server, alice, `/chats/${chatId}`, [['_method', 'PUT'], ['title', 'x']], { accept: 'application/json' });
  assert.equal(put.status, 415);
  assert.equal(put.headers['accept-post'], 'application/json');
  // A `_back` that leaves this server is ignored: the rule's own page instead.
  const away = await submit(server, alice, `/chats/${chatId}/read`, [['_method', 'PUT'], ['lastReadId', ''], ['_back', '//evil.example/x']]);
  assert.equal(away.status, 303);
  assert.equal(away.headers['location'], `/chats/${chatId}/messages`);
  await still();

  // JSON with the cookie and Origin, as a script of the page would send it: unchanged, 201 and the chat.
  const plain = await call(server, 'POST', '/chats', { json: { data: { title: 'Script' } }, headers: { cookie: alice.cookie, origin: server.url } });
  assert.equal(plain.status, 201);
  assert.equal(plain.body.data.title, 'Script');
});

test('log out, change password and upload an avatar as forms; the avatar zone comes back when it is outside the image', async (t) => {
  const server = await withServer(t);
  const alice = await browserUser(server, 'alice');
  const upload = (zone: { x: number; y: number; width: number; height: number }) => call(server, 'POST', `/users/${alice.userId}/avatar`, {
    body: multipart(avatarForm(png(40, 30), zone)),
    headers: { 'content-type': MULTIPART_TYPE, origin: server.url, cookie: alice.cookie, accept: 'text/html' },
    unchecked: UNCHECKED,
  });
  const uploaded = await upload({ x: 5, y: 0, width: 30, height: 30 });
  assert.equal(uploaded.status, 303);
  assert.equal(uploaded.headers['location'], `/users/${alice.userId}/avatar`);
  const [avatar] = (await json(server, alice, `/users/${alice.userId}/avatar`)).body.data;
  assert.deepEqual([avatar.x, avatar.width], [5, 30]);
  const outside = await upload({ x: 20, y: 0, width: 30, height: 30 });
  assert.equal(outside.status, 400);
  assert.match(outside.text, /<span class="error" id="upload-width-error">Zone width: /);

  const use = await submit(server, alice, `/users/${alice.userId}`, [['_method', 'PATCH'], ['avatar', avatar.id], ['_back', `/users/${alice.userId}/avatar`]]);
  assert.equal(use.status, 303);
  assert.equal(use.headers['location'], `/users/${alice.userId}/avatar`);
  assert.equal((await json(server, alice, `/users/${alice.userId}`)).body.avatar, avatar.id);

  const changed = await submit(server, alice, `/users/${alice.userId}`, [['_method', 'PATCH'], ['login', 'alice'], ['currentPassword', 'alice password'], ['password', 'a brand new password'], ['_back', '']]);
  assert.equal(changed.status, 303);
  assert.equal(changed.headers['location'], `/users/${alice.userId}`);
  const relogin = await call(server, 'POST', '/session', { json: { login: 'alice', password: 'a brand new password' } });
  assert.equal(relogin.status, 201);

  const out = await submit(server, alice, '/session', [['_method', 'DELETE']]);
  assert.equal(out.status, 303);
  assert.equal(out.headers['location'], '/');
  assert.match(String(out.headers['set-cookie']), /^session=; HttpOnly; SameSite=Strict; Path=\/; Max-Age=0$/);
  assert.equal((await call(server, 'GET', '/session', { headers: { cookie: alice.cookie } })).status, 401);
});

test('the HTML history opens on the newest messages with a keyset link to older ones; JSON stays oldest first', async (t) => {
  const server = await withServer(t);
  const alice = await browserUser(server, 'alice');
  const chatId = await newChat(server, alice, 'Long');
  const ids: string[] = [];
  for (let i = 1; i <= 25; i++) {
    const res = await call(server, 'POST', `/chats/${chatId}/messages`, { token: alice.token, json: { data: { text: `message ${i}` } } });
    ids.push(res.body.data.id);
  }
  const page = await call(server, 'GET', `/chats/${chatId}/messages`, { headers: { cookie: alice.cookie, accept: 'text/html' } });
  assert.equal(page.status, 200);
  assert.equal(page.headers['referrer-policy'], 'same-origin');
  assert.equal(page.headers['x-content-type-options'], 'nosniff');
  const shown = [...page.text.matchAll(/<p class="text" dir="auto">message (\d+)<\/p>/g)].map((match) => Number(match[1]));
  assert.deepEqual(shown, Array.from({ length: 20 }, (_, i) => i + 6));
  assert.ok(page.text.includes(`<a rel="prev" href="/chats/${chatId}/messages?before=${ids[5]}">Older messages</a>`));
  assert.ok(page.text.includes('data-live-chat='), 'the newest page follows the event stream');
  const older = await call(server, 'GET', `/chats/${chatId}/messages?before=${ids[5]}`, { headers: { cookie: alice.cookie, accept: 'text/html' } });
  assert.deepEqual([...older.text.matchAll(/<p class="text" dir="auto">message (\d+)<\/p>/g)].map((match) => Number(match[1])), [1, 2, 3, 4, 5]);
  const first = await call(server, 'GET', `/chats/${chatId}/messages`, { token: alice.token });
  assert.equal(first.body.data[0].text, 'message 1');
});

test('times are written in the reader\'s language (Accept-Language) at UTC, the exact value in datetime', async (t) => {
  const server = await withServer(t);
  const alice = await browserUser(server, 'alice');
  const chatId = await newChat(server, alice, 'Zeit');
  await submit(server, alice, `/chats/${chatId}/messages`, [['text', 'Hallo']]);
  const page = (language?: string) => call(server, 'GET', `/chats/${chatId}/messages`, { headers: { cookie: alice.cookie, accept: 'text/html', ...(language ? { 'accept-language': language } : {}) } });
  assert.match((await page('de-DE,de;q=0.9,en;q=0.8')).text, /<time datetime="\d{4}-\d{2}-\d{2}T[^"]+Z">\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2} UTC<\/time>/);
  assert.match((await page()).text, /<time datetime="\d{4}-\d{2}-\d{2}T[^"]+Z">\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC<\/time>/);
  const rows: [string | undefined, string | undefined][] = [
    ['de-DE,de;q=0.9', 'de-DE'], ['*, fr;q=0.5', 'fr'], ['en-GB;q=0, ja', 'ja'], ['!!, x-@@', undefined], ['', undefined], [undefined, undefined],
  ];
  for (const [header, expected] of rows) assert.equal(preferredLocale(header), expected, String(header));
});

test('a page\'s ETag covers what the page shows beyond the resource: a renamed member is no 304', async (t) => {
  const server = await withServer(t);
  const alice = await browserUser(server, 'alice');
  const bob = await browserUser(server, 'bob');
  const chatId = await newChat(server, alice, 'Names');
  await submit(server, alice, `/chats/${chatId}/members/${bob.userId}`, [['_method', 'PUT']]);
  const page = (headers: Record<string, string> = {}) => call(server, 'GET', `/chats/${chatId}`, { headers: { cookie: alice.cookie, accept: 'text/html', ...headers } });
  const before = await page();
  const etag = String(before.headers['etag']);
  assert.equal((await page({ 'if-none-match': etag })).status, 304);
  assert.notEqual(String((await page({ 'accept-language': 'de' })).headers['etag']), etag, 'another language, another page');
  const renamed = await call(server, 'PATCH', '/users', { token: bob.token, json: { login: 'robert' } });
  assert.equal(renamed.status, 200);
  const after = await page({ 'if-none-match': etag });
  assert.equal(after.status, 200);
  assert.match(after.text, /<bdi>robert<\/bdi>/);
  assert.equal((await page({ 'if-none-match': String(after.headers['etag']) })).status, 304);
});
