// --public-url over HTTP: cookie writes and the login form are checked against the configured origin, never Host.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RunningServer } from '../../src/index.ts';
import { call, withServer } from './client.ts';

function formLogin(server: RunningServer, headers: Record<string, string>) {
  return call(server, 'POST', '/session', {
    body: new URLSearchParams({ login: 'alice', password: 'pass word 1' }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  });
}

async function cookieOf(server: RunningServer, origin: string): Promise<string> {
  await call(server, 'POST', '/users', { json: { login: 'alice', password: 'pass word 1' } });
  const login = await formLogin(server, { origin });
  assert.equal(login.status, 303);
  return String(login.headers['set-cookie']).split(';')[0]!;
}

test('the finding: Host: evil.example with Origin: http://evil.example no longer passes the cookie write check', async (t) => {
  const server = await withServer(t);
  const cookie = await cookieOf(server, server.url);
  const forged = await call(server, 'PATCH', '/session', { headers: { cookie, host: 'evil.example', origin: 'http://evil.example' } });
  assert.equal(forged.status, 403);
  assert.equal(forged.body.code, 'ERR_CSRF');
  // By default the public origin is the listen address, whatever Host says.
  const own = await call(server, 'PATCH', '/session', { headers: { cookie, host: 'evil.example', origin: server.url } });
  assert.equal(own.status, 200);
});

test('the finding: the login form posted from a foreign Origin (login CSRF) is 403 and sets no cookie', async (t) => {
  const server = await withServer(t);
  await call(server, 'POST', '/users', { json: { login: 'alice', password: 'pass word 1' } });
  for (const headers of [{ origin: 'http://evil.example', host: 'evil.example' }, { origin: 'null' }, {}] as Record<string, string>[]) {
    const res = await formLogin(server, headers);
    assert.equal(res.status, 403, JSON.stringify(headers));
    assert.equal(res.body.code, 'ERR_CSRF');
    assert.equal(res.headers['set-cookie'], undefined);
  }
  // The JSON login is not a form a foreign page can send without CORS: it needs no Origin.
  assert.equal((await call(server, 'POST', '/session', { json: { login: 'alice', password: 'pass word 1' } })).status, 201);
});

test('with --public-url, only that origin passes, even when Host and the listen address agree with each other', async (t) => {
  const server = await withServer(t, { publicUrl: 'https://chat.example' });
  const cookie = await cookieOf(server, 'https://chat.example');
  const host = new URL(server.url).host;
  const listen = await call(server, 'PATCH', '/session', { headers: { cookie, host, origin: server.url } });
  assert.equal(listen.status, 403);
  assert.equal((await call(server, 'PATCH', '/session', { headers: { cookie, origin: 'https://chat.example' } })).status, 200);
  assert.equal((await formLogin(server, { origin: server.url })).status, 403);
  // Links and Location stay paths: nothing is built from Host.
  const created = await call(server, 'POST', '/users', { json: { login: 'bob', password: 'pass word 1' }, headers: { host: 'evil.example' } });
  assert.match(String(created.headers['location']), /^\/users\/[A-Za-z0-9_-]+$/);
});
