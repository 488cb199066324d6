// The browser side of sessions: the urlencoded login form (303), cookie authentication, and its CSRF rule.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { call, withServer } from './client.ts';

async function formLogin(server: Awaited<ReturnType<typeof withServer>>, login: string, password: string) {
  return call(server, 'POST', '/session', {
    body: new URLSearchParams({ login, password }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url },
  });
}

test('the HTML login form posts urlencoded and is answered 303 to /chats with the cookie', async (t) => {
  const server = await withServer(t, { basePath: '/api' });
  await call(server, 'POST', '/api/users', { json: { login: 'frank', password: 'pass word 1' } });
  const res = await call(server, 'POST', '/api/session', {
    body: new URLSearchParams({ login: 'frank', password: 'pass word 1' }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url },
  });
  assert.equal(res.status, 303);
  assert.equal(res.headers['location'], '/api/chats');
  assert.match(String(res.headers['set-cookie']), /^session=[A-Za-z0-9_-]{43}; HttpOnly; SameSite=Strict; Path=\/; Max-Age=\d+$/);
  const page = await call(server, 'GET', '/api/session', { headers: { accept: 'text/html' } });
  assert.equal(page.status, 200);
  assert.match(page.text, /<form method="post" action="\/api\/session"/);
});

test('--secure-cookies adds Secure', async (t) => {
  const server = await withServer(t, { secureCookies: true });
  await call(server, 'POST', '/users', { json: { login: 'gina', password: 'password1' } });
  const res = await formLogin(server, 'gina', 'password1');
  assert.match(String(res.headers['set-cookie']), /; Secure$/);
});

test('the cookie authenticates reads; cookie writes need the server\'s own Origin, else 403', async (t) => {
  const server = await withServer(t);
  await call(server, 'POST', '/users', { json: { login: 'hank', password: 'password1' } });
  const login = await formLogin(server, 'hank', 'password1');
  const cookie = String(login.headers['set-cookie']).split(';')[0]!;
  const host = new URL(server.url).host;
  assert.equal((await call(server, 'GET', '/session', { headers: { cookie } })).status, 200);
  const noOrigin = await call(server, 'PATCH', '/session', { headers: { cookie } });
  assert.equal(noOrigin.status, 403);
  assert.equal(noOrigin.body.code, 'ERR_CSRF');
  const foreign = await call(server, 'PATCH', '/session', { headers: { cookie, origin: 'http://evil.example' } });
  assert.equal(foreign.status, 403);
  const same = await call(server, 'PATCH', '/session', { headers: { cookie, origin: `http://${host}` } });
  assert.equal(same.status, 200);
  const out = await call(server, 'DELETE', '/session', { headers: { cookie, origin: `http://${host}` } });
  assert.equal(out.status, 204);
  assert.equal((await call(server, 'GET', '/session', { headers: { cookie } })).status, 401);
});

test('a failed form login shows the form again with the error and the login as typed (401)', async (t) => {
  const server = await withServer(t);
  await call(server, 'POST', '/users', { json: { login: 'ines', password: 'password1' } });
  const res = await call(server, 'POST', '/session', {
    body: new URLSearchParams({ login: 'ines', password: 'wrong password' }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html', origin: server.url },
  });
  assert.equal(res.status, 401);
  assert.equal(res.headers['set-cookie'], undefined);
  assert.match(String(res.headers['content-type']), /^text\/html/);
  assert.match(res.text, /<form method="post" action="\/session"/);
  assert.match(res.text, /The login or the password is wrong/);
  assert.match(res.text, /value="ines"/);
  const json = await formLogin(server, 'ines', 'wrong password');
  assert.equal(json.status, 401);
  assert.equal(json.body.code, 'ERR_BAD_CREDENTIALS', 'a non-HTML client still gets the problem');
});
