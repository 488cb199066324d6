// Users over HTTP: registration rules, the public representation, reading and updating (docs/protocol.md §2.1, §3.1).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { call, registerAndLogIn, TestClock, withServer } from './client.ts';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

test('registration answers 201, Location and the user without any secret; it does not log in', async (t) => {
  const clock = new TestClock();
  const server = await withServer(t, { clock });
  const res = await call(server, 'POST', '/users', { json: { login: 'Alice.B-1_', password: 'correct horse' } });
  assert.equal(res.status, 201);
  assert.equal(res.headers['location'], `/users/${res.body.id}`);
  assert.equal(res.headers['set-cookie'], undefined);
  assert.match(res.body.id, /^[0-9A-Z]{26}$/);
  const at = new Date(clock.time).toISOString();
  assert.deepEqual(res.body, { id: res.body.id, login: 'Alice.B-1_', avatar: null, role: 'admin', active: true, kind: 'user', ownerId: null, presence: 'offline', createdAt: at, updatedAt: at });
  assert.match(res.body.createdAt, ISO);
});

test('a taken login answers 409 in any letter case', async (t) => {
  const server = await withServer(t);
  assert.equal((await call(server, 'POST', '/users', { json: { login: 'carol', password: 'password1' } })).status, 201);
  for (const login of ['carol', 'CAROL', 'Carol']) {
    const res = await call(server, 'POST', '/users', { json: { login, password: 'password2' } });
    assert.equal(res.status, 409, login);
    assert.equal(res.body.code, 'ERR_LOGIN_TAKEN');
    assert.deepEqual(res.body.errors, [{ field: 'login', message: 'is already taken' }]);
  }
});

test('every broken registration rule is a 400 naming the field', async (t) => {
  const server = await withServer(t);
  const rows = [
    { what: 'login missing', json: { password: 'password1' }, field: 'login' },
    { what: 'password missing', json: { login: 'abc' }, field: 'password' },
    { what: 'login too short', json: { login: 'ab', password: 'password1' }, field: 'login' },
    { what: 'login too long', json: { login: 'a'.repeat(33), password: 'password1' }, field: 'login' },
    { what: 'login bad chars', json: { login: 'a b c', password: 'password1' }, field: 'login' },
    { what: 'login non-ascii', json: { login: 'jürgen', password: 'password1' }, field: 'login' },
    { what: 'login not a string', json: { login: 123, password: 'password1' }, field: 'login' },
    { what: 'password too short', json: { login: 'abc', password: '1234567' }, field: 'password' },
    { what: 'password too long', json: { login: 'abc', password: 'x'.repeat(1025) }, field: 'password' },
    { what: 'unknown field', json: { login: 'abc', password: 'password1', admin: true }, field: 'admin' },
    { what: 'avatar at registration', json: { login: 'abc', password: 'password1', avatar: null }, field: 'avatar' },
  ];
  for (const { what, json, field } of rows) {
    const res = await call(server, 'POST', '/users', { json });
    assert.equal(res.status, 400, what);
    assert.equal(res.headers['content-type'], 'application/problem+json', what);
    assert.equal(res.body.code, 'ERR_VALIDATION', what);
    assert.equal(res.body.errors[0].field, field, what);
    assert.match(res.body.detail, new RegExp(`^${field}`), what);
  }
  const boundary = await call(server, 'POST', '/users', { json: { login: 'a'.repeat(32), password: '😀'.repeat(8) } });
  assert.equal(boundary.status, 201, 'lengths count characters, not bytes');
});

test('users are readable by any logged-in user, never without a session', async (t) => {
  const server = await withServer(t);
  const alice = await registerAndLogIn(server, 'alice');
  const bob = await registerAndLogIn(server, 'bob');
  const one = await call(server, 'GET', `/users/${alice.userId}`, { token: bob.token });
  assert.equal(one.status, 200);
  assert.equal(one.body.login, 'alice');
  assert.match(String(one.headers['etag']), /^"[A-Za-z0-9_-]{27}"$/);
  const list = await call(server, 'GET', '/users', { token: bob.token });
  assert.equal(list.status, 200);
  assert.deepEqual(list.body.data.map((u: { login: string }) => u.login), ['alice', 'bob']);
  assert.deepEqual(list.body.meta, { total: 2, limit: 20, offset: 0 });
  assert.equal((await call(server, 'GET', '/users')).status, 401);
  assert.equal((await call(server, 'GET', `/users/${alice.userId}`)).status, 401);
  assert.equal((await call(server, 'GET', '/users/nobody', { token: bob.token })).status, 404);
});

test('PATCH /users and PATCH /users/{id} update the caller; another user is 403', async (t) => {
  const clock = new TestClock();
  const server = await withServer(t, { clock });
  const alice = await registerAndLogIn(server, 'alice');
  const bob = await registerAndLogIn(server, 'bob');
  clock.advance(1000);
  const renamed = await call(server, 'PATCH', '/users', { token: alice.token, json: { login: 'alicia' } });
  assert.equal(renamed.status, 200);
  assert.equal(renamed.body.login, 'alicia');
  assert.notEqual(renamed.body.updatedAt, renamed.body.createdAt);
  const viaId = await call(server, 'PATCH', `/users/${alice.userId}`, { token: alice.token, json: { login: 'alice2' }, headers: { 'content-type': 'application/merge-patch+json' } });
  assert.equal(viaId.status, 200);
  assert.equal(viaId.body.login, 'alice2');
  const other = await call(server, 'PATCH', `/users/${alice.userId}`, { token: bob.token, json: { login: 'hijack' } });
  assert.equal(other.status, 403);
  assert.equal(other.body.code, 'ERR_FORBIDDEN');
  const taken = await call(server, 'PATCH', '/users', { token: bob.token, json: { login: 'ALICE2' } });
  assert.equal(taken.status, 409);
  const badId = await call(server, 'PATCH', '/users', { token: bob.token, json: { id: alice.userId } });
  assert.equal(badId.status, 400);
  assert.equal(badId.body.errors[0].field, 'id');
  const unknown = await call(server, 'PATCH', '/users', { token: bob.token, json: { nickname: 'b' } });
  assert.equal(unknown.body.errors[0].field, 'nickname');
  // A member cannot make themself an admin (docs/protocol.md §3.4).
  assert.equal((await call(server, 'PATCH', '/users', { token: bob.token, json: { role: 'admin' } })).status, 403);
  const foreignAvatar = await call(server, 'PATCH', '/users', { token: bob.token, json: { avatar: 'NOSUCHAVATAR' } });
  assert.equal(foreignAvatar.status, 400);
  assert.equal(foreignAvatar.body.errors[0].field, 'avatar');
  const stale = await call(server, 'PATCH', '/users', { token: bob.token, json: { login: 'bobby' }, headers: { 'if-match': '"stale"' } });
  assert.equal(stale.status, 412);
  assert.equal((await call(server, 'GET', `/users/${bob.userId}`, { token: bob.token })).body.login, 'bob');
});

test('a password change needs currentPassword and ends every other session of the user', async (t) => {
  const server = await withServer(t);
  const alice = await registerAndLogIn(server, 'alice', 'first password');
  const second = await call(server, 'POST', '/session', { json: { login: 'alice', password: 'first password' } });
  const missing = await call(server, 'PATCH', '/users', { token: alice.token, json: { password: 'second password' } });
  assert.equal(missing.status, 400);
  assert.equal(missing.body.errors[0].field, 'currentPassword');
  const wrong = await call(server, 'PATCH', '/users', { token: alice.token, json: { password: 'second password', currentPassword: 'nope nope' } });
  assert.equal(wrong.status, 403);
  assert.equal(wrong.body.code, 'ERR_WRONG_PASSWORD');
  assert.equal((await call(server, 'GET', '/session', { token: second.body.token })).status, 200, 'a refused change ends nothing');
  const changed = await call(server, 'PATCH', '/users', { token: alice.token, json: { password: 'second password', currentPassword: 'first password' } });
  assert.equal(changed.status, 200);
  assert.equal((await call(server, 'GET', '/session', { token: alice.token })).status, 200, 'the session that changed it stays');
  assert.equal((await call(server, 'GET', '/session', { token: second.body.token })).status, 401, 'every other session ends');
  assert.equal((await call(server, 'POST', '/session', { json: { login: 'alice', password: 'first password' } })).status, 401);
  assert.equal((await call(server, 'POST', '/session', { json: { login: 'alice', password: 'second password' } })).status, 201);
});
