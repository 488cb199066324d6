// The router over a real socket: 404, 405 with Allow, OPTIONS, HEAD, bad percent-encoding, base path, request ids.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { call, registerAndLogIn, withServer } from './client.ts';

test('an unknown path answers 404 as problem+json', async (t) => {
  const server = await withServer(t);
  const res = await call(server, 'GET', '/nothing-here');
  assert.equal(res.status, 404);
  assert.equal(res.headers['content-type'], 'application/problem+json');
  assert.deepEqual(Object.keys(res.body).sort(), ['code', 'detail', 'status', 'title', 'type']);
  assert.equal(res.body.status, 404);
  assert.equal(res.body.code, 'ERR_NOT_FOUND');
});

test('a method the path does not support answers 405 with Allow', async (t) => {
  const server = await withServer(t);
  const res = await call(server, 'DELETE', '/health');
  assert.equal(res.status, 405);
  assert.equal(res.headers['allow'], 'OPTIONS, GET, HEAD');
  assert.equal(res.body.code, 'ERR_METHOD_NOT_ALLOWED');
  const put = await call(server, 'PUT', '/session', { json: {} });
  assert.equal(put.status, 405);
  assert.equal(put.headers['allow'], 'OPTIONS, GET, HEAD, POST, PATCH, DELETE');
});

test('OPTIONS answers 204 with Allow on every path, without a token', async (t) => {
  const server = await withServer(t);
  const cases = [
    { path: '/health', allow: 'OPTIONS, GET, HEAD' },
    { path: '/users', allow: 'OPTIONS, GET, HEAD, POST, PATCH' },
    { path: '/users/abc', allow: 'OPTIONS, GET, HEAD, PATCH, DELETE' },
    { path: '/session', allow: 'OPTIONS, GET, HEAD, POST, PATCH, DELETE' },
  ];
  for (const { path, allow } of cases) {
    const res = await call(server, 'OPTIONS', path);
    assert.equal(res.status, 204, path);
    assert.equal(res.headers['allow'], allow, path);
    assert.equal(res.raw.length, 0, path);
  }
  const patchable = await call(server, 'OPTIONS', '/users');
  assert.equal(patchable.headers['accept-patch'], 'application/json, application/merge-patch+json');
  assert.equal((await call(server, 'OPTIONS', '/nowhere')).status, 404);
});

test('HEAD answers the headers of GET, Content-Length included, and no body', async (t) => {
  const server = await withServer(t);
  const user = await registerAndLogIn(server);
  for (const path of ['/health', `/users/${user.userId}`, '/users']) {
    const get = await call(server, 'GET', path, { token: user.token });
    const head = await call(server, 'HEAD', path, { token: user.token });
    assert.equal(head.status, get.status, path);
    assert.equal(head.raw.length, 0, path);
    assert.equal(head.headers['content-length'], String(get.raw.length), path);
    assert.equal(head.headers['content-type'], get.headers['content-type'], path);
    assert.equal(head.headers['etag'], get.headers['etag'], path);
  }
  const missing = await call(server, 'HEAD', '/users/nobody', { token: user.token });
  assert.equal(missing.status, 404);
  assert.equal(missing.raw.length, 0);
});

test('a bad percent-encoding in the path is a 400', async (t) => {
  const server = await withServer(t);
  const user = await registerAndLogIn(server);
  const res = await call(server, 'GET', '/users/%E0%A4%A', { token: user.token });
  assert.equal(res.status, 400);
  assert.equal(res.body.code, 'ERR_BAD_PATH');
});

test('a NUL in a path segment is a 400 naming the segment, on every backend (PostgreSQL text cannot hold one)', async (t) => {
  const server = await withServer(t);
  const user = await registerAndLogIn(server);
  for (const path of ['/users/%00', '/chats/%00/messages', '/chats/a%00b/members/x', `/users/${user.userId}/avatar/%00`]) {
    const res = await call(server, 'GET', path, { token: user.token });
    assert.equal(res.status, 400, `${path}: ${res.text}`);
    assert.equal(res.headers['content-type'], 'application/problem+json');
    assert.equal(res.body.code, 'ERR_BAD_PATH', path);
    assert.equal(res.body.errors.length, 1, path);
    assert.deepEqual(res.body.errors[0].message, 'must not contain NUL characters', path);
  }
});

test('--base-path mounts every route under the prefix, and the bare paths answer 404', async (t) => {
  const server = await withServer(t, { basePath: '/api' });
  assert.equal((await call(server, 'GET', '/api/health')).status, 200);
  assert.equal((await call(server, 'GET', '/health')).status, 404);
  assert.equal((await call(server, 'GET', '/apihealth')).status, 404);
  const user = await registerAndLogIn(server, 'prefixed');
  const me = await call(server, 'GET', `/api/users/${user.userId}`, { token: user.token });
  assert.equal(me.status, 200);
  const created = await call(server, 'POST', '/api/users', { json: { login: 'second', password: 'long enough pw' } });
  assert.equal(created.headers['location'], `/api/users/${created.body.id}`);
});

test('every answer carries an X-Request-Id, a fresh one each time', async (t) => {
  const server = await withServer(t);
  const ids = new Set<string>();
  for (const [method, path] of [['GET', '/health'], ['GET', '/nowhere'], ['OPTIONS', '/health'], ['POST', '/health']] as const) {
    const res = await call(server, method, path);
    const id = res.headers['x-request-id'];
    assert.match(String(id), /^[0-9a-f-]{36}$/);
    ids.add(String(id));
  }
  assert.equal(ids.size, 4);
});
