// `_back` of a signed-in, same-origin form post (docs/html.md, forms rule 4): whatever it holds, the answer's
// Location is an ASCII path of this server or the form's usual page, and the server goes on answering.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { call, registerAndLogIn, withServer } from './client.ts';
import { createChat } from './chat-fixtures.ts';

const FORM = 'application/x-www-form-urlencoded';
const UNCHECKED = 'an HTML form post (docs/html.md) is outside the OpenAPI document, which describes the JSON exchange';

test('a _back above U+00FF (the crash of ERR_INVALID_CHAR): 303 to its percent-encoded path, the write made, /health still 200', async (t) => {
  const server = await withServer(t);
  const alice = await registerAndLogIn(server);
  const chat = await createChat(server, alice, { title: 'Marks' });
  // The request as a browser (or curl) sends it: the session cookie, this server's Origin, the body as typed.
  const res = await call(server, 'POST', `/chats/${chat.id}/read`, {
    body: '_method=PUT&lastReadId=&_back=/%E3%80%80',
    headers: { cookie: `session=${alice.token}`, origin: server.url, 'content-type': FORM },
    unchecked: UNCHECKED,
    // Without its fix the head was never written (writeHead threw): fail then, rather than wait forever.
    timeoutMs: 10_000,
  });
  assert.equal(res.status, 303);
  assert.match(String(res.headers['x-request-id']), /^[0-9a-f-]{36}$/);
  const { date, connection, 'keep-alive': keepAlive, 'x-request-id': requestId, ...headers } = res.headers;
  assert.deepEqual(headers, {
    'location': '/%E3%80%80',
    'vary': 'Accept',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'same-origin',
    'content-length': '0',
  });
  assert.equal(res.text, '');
  const marker = await call(server, 'GET', `/chats/${chat.id}/read`, { token: alice.token });
  assert.equal(marker.status, 200);
  assert.equal(marker.body.data.lastReadId, null);
  const health = await call(server, 'GET', '/health');
  assert.equal(health.status, 200);
  assert.deepEqual(health.body, { status: 'ok' });
});

test('every _back: kept percent-encoded when it is a path of this server, else the usual page; never a 5xx', async (t) => {
  const server = await withServer(t);
  const alice = await registerAndLogIn(server);
  const chat = await createChat(server, alice, { title: 'Backs' });
  const usual = `/chats/${chat.id}/messages`;
  // [what, _back as sent on the wire (form-urlencoded), the Location answered]
  const rows: [string, string, string][] = [
    ['a page of this server', `/chats/${chat.id}/messages?before=01J`, `/chats/${chat.id}/messages?before=01J`],
    ['non-Latin-1, percent-encoded as UTF-8', '/chats/%E2%98%83/%F0%9F%98%80', '/chats/%E2%98%83/%F0%9F%98%80'],
    ['Latin-1 and C1 controls, percent-encoded too', '/caf%C3%A9/%C2%85', '/caf%C3%A9/%C2%85'],
    ['a lone surrogate\'s bytes, decoded as U+FFFD', '/%ED%A0%80', '/%EF%BF%BD%EF%BF%BD%EF%BF%BD'],
    ['percent-escapes in the path kept, a stray % encoded', '/a%252Fb%25zz', '/a%2Fb%25zz'],
    ['characters a URI cannot hold', '/a%22%3C%3E%60%7B%7D', '/a%22%3C%3E%60%7B%7D'],
    ['another host', '//evil.example/x', usual],
    ['another host, by backslash', '/%5Cevil.example', usual],
    ['an absolute URL', 'https://evil.example/', usual],
    ['CR LF (a header injection)', '/x%0D%0ASet-Cookie:%20a=b', usual],
    ['NUL', '/x%00y', usual],
    ['a tab', '/%09/evil.example', usual],
    ['over 2048 characters once encoded', `/${'%E3%80%80'.repeat(300)}`, usual],
    ['8 KiB', `/${'x'.repeat(8192)}`, usual],
  ];
  for (const [what, back, location] of rows) {
    const res = await call(server, 'POST', `/chats/${chat.id}/read`, {
      body: `_method=PUT&lastReadId=&_back=${back}`,
      headers: { cookie: `session=${alice.token}`, origin: server.url, 'content-type': FORM },
      unchecked: UNCHECKED,
      timeoutMs: 10_000,
    });
    assert.equal(res.status, 303, `${what}: ${res.text}`);
    assert.equal(res.headers['location'], location, what);
  }
  assert.equal((await call(server, 'GET', '/health')).status, 200);
});

test('a broken rule whose _back is not valid percent-encoding: the error page with the rule\'s status, not a path error', async (t) => {
  const server = await withServer(t);
  const alice = await registerAndLogIn(server);
  const chat = await createChat(server, alice, { title: 'Pages' });
  const res = await call(server, 'POST', `/chats/${chat.id}/read`, {
    body: '_method=PUT&lastReadId=nope&_back=/chats/%25FF/messages',
    headers: { cookie: `session=${alice.token}`, origin: server.url, 'content-type': FORM, accept: 'text/html' },
    unchecked: UNCHECKED,
  });
  // The page named by _back cannot be routed (%FF is no UTF-8): the rule's own error is shown, on its error page.
  assert.equal(res.status, 400);
  assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
  assert.match(res.text, /<title>400 Validation failed · Chat<\/title>/);
  assert.match(res.text, /data\.lastReadId/);
  assert.doesNotMatch(res.text, /Malformed path/);
});
