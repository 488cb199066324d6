// Login sessions over HTTP: login, bearer use, GET/PATCH/DELETE of the session, expiry by a moving clock.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { call, registerAndLogIn, TestClock, withServer } from './client.ts';

const DAY = 86_400_000;

test('POST /session answers 201 with token, userId, expiresAt, createdAt and sets the cookie', async (t) => {
  const clock = new TestClock();
  const server = await withServer(t, { clock });
  const user = await call(server, 'POST', '/users', { json: { login: 'dora', password: 'password1' } });
  const res = await call(server, 'POST', '/session', { json: { login: 'DORA', password: 'password1' } });
  assert.equal(res.status, 201);
  assert.deepEqual(Object.keys(res.body).sort(), ['createdAt', 'expiresAt', 'token', 'userId']);
  assert.match(res.body.token, /^[A-Za-z0-9_-]{43}$/, '32 random bytes, base64url');
  assert.equal(res.body.userId, user.body.id);
  assert.equal(res.body.createdAt, new Date(clock.time).toISOString());
  assert.equal(res.body.expiresAt, new Date(clock.time + DAY).toISOString());
  assert.equal(res.headers['set-cookie']?.[0], `session=${res.body.token}; HttpOnly; SameSite=Strict; Path=/; Max-Age=2592000`);
  assert.equal(res.headers['cache-control'], 'no-store');
  const again = await call(server, 'POST', '/session', { json: { login: 'dora', password: 'password1' } });
  assert.notEqual(again.body.token, res.body.token, 'a new token at every login');
});

test('a wrong login and a wrong password give the same 401', async (t) => {
  const server = await withServer(t);
  await call(server, 'POST', '/users', { json: { login: 'erin', password: 'password1' } });
  const wrongPassword = await call(server, 'POST', '/session', { json: { login: 'erin', password: 'password2' } });
  const wrongLogin = await call(server, 'POST', '/session', { json: { login: 'nobody', password: 'password1' } });
  assert.equal(wrongPassword.status, 401);
  assert.deepEqual(wrongPassword.body, wrongLogin.body);
  assert.equal(wrongPassword.headers['www-authenticate'], wrongLogin.headers['www-authenticate']);
  const missing = await call(server, 'POST', '/session', { json: { login: 'erin' } });
  assert.equal(missing.status, 400);
  assert.equal(missing.body.errors[0].field, 'password');
});

test('bearer authentication: missing, unknown and malformed tokens are 401 with WWW-Authenticate', async (t) => {
  const server = await withServer(t);
  const user = await registerAndLogIn(server);
  const none = await call(server, 'GET', '/session');
  assert.equal(none.status, 401);
  assert.equal(none.headers['www-authenticate'], 'Bearer realm="chat"');
  assert.equal(none.body.code, 'ERR_UNAUTHENTICATED');
  const unknown = await call(server, 'GET', '/session', { token: 'A'.repeat(43) });
  assert.equal(unknown.status, 401);
  assert.match(String(unknown.headers['www-authenticate']), /^Bearer realm="chat", error="invalid_token"/);
  const malformed = await call(server, 'GET', '/session', { headers: { authorization: 'Basic dXNlcjpwdw==' } });
  assert.equal(malformed.status, 401);
  assert.match(String(malformed.headers['www-authenticate']), /error="invalid_token"/);
  const lower = await call(server, 'GET', '/session', { headers: { authorization: `bearer ${user.token}` } });
  assert.equal(lower.status, 200, 'the scheme name is case-insensitive');
  const inQuery = await call(server, 'GET', `/session?access_token=${user.token}`);
  assert.equal(inQuery.status, 401, 'a token in the query string is never accepted');
});

test('GET /session describes the session; PATCH prolongs it; DELETE logs out and clears the cookie', async (t) => {
  const clock = new TestClock();
  const server = await withServer(t, { clock });
  const user = await registerAndLogIn(server);
  const loginTime = clock.time;
  const got = await call(server, 'GET', '/session', { token: user.token });
  assert.equal(got.status, 200);
  assert.deepEqual(got.body, { userId: user.userId, expiresAt: new Date(loginTime + DAY).toISOString(), createdAt: new Date(loginTime).toISOString() });
  clock.advance(3_600_000);
  const prolonged = await call(server, 'PATCH', '/session', { token: user.token });
  assert.equal(prolonged.status, 200);
  assert.equal(prolonged.body.expiresAt, new Date(clock.time + DAY).toISOString());
  const withBody = await call(server, 'PATCH', '/session', { token: user.token, json: {} });
  assert.equal(withBody.status, 200);
  const badBody = await call(server, 'PATCH', '/session', { token: user.token, json: { expiresAt: 'never' } });
  assert.equal(badBody.status, 400);
  assert.equal(badBody.body.errors[0].field, 'expiresAt');
  const out = await call(server, 'DELETE', '/session', { token: user.token });
  assert.equal(out.status, 204);
  assert.equal(out.raw.length, 0);
  assert.match(String(out.headers['set-cookie']), /^session=; HttpOnly; SameSite=Strict; Path=\/; Max-Age=0/);
  assert.equal((await call(server, 'GET', '/session', { token: user.token })).status, 401);
  assert.equal((await call(server, 'DELETE', '/session', { token: user.token })).status, 401);
});

test('idle expiry: a session unused for the TTL answers 401; use extends it', async (t) => {
  const clock = new TestClock();
  const server = await withServer(t, { clock, sessionTtl: 600, sessionMaxAge: 3600 });
  const idle = await registerAndLogIn(server);
  const busy = await registerAndLogIn(server);
  for (let minute = 0; minute < 15; minute++) {
    clock.advance(60_000);
    assert.equal((await call(server, 'GET', '/session', { token: busy.token })).status, 200, `minute ${minute}`);
  }
  assert.equal((await call(server, 'GET', '/session', { token: idle.token })).status, 401, 'idle for 15 min > 10 min TTL');
});

test('absolute expiry: neither use nor PATCH prolongs a session past its max age', async (t) => {
  const clock = new TestClock();
  const server = await withServer(t, { clock, sessionTtl: 600, sessionMaxAge: 1800 });
  const user = await registerAndLogIn(server);
  const loginTime = clock.time;
  let prolonged;
  for (let step = 0; step < 3; step++) {
    clock.advance(500_000);
    prolonged = await call(server, 'PATCH', '/session', { token: user.token });
    assert.equal(prolonged.status, 200);
  }
  assert.ok(prolonged);
  assert.equal(prolonged.body.expiresAt, new Date(loginTime + 1800_000).toISOString());
  clock.advance(299_000);
  assert.equal((await call(server, 'GET', '/session', { token: user.token })).status, 200);
  clock.advance(1000);
  const expired = await call(server, 'GET', '/session', { token: user.token });
  assert.equal(expired.status, 401);
  assert.match(String(expired.headers['www-authenticate']), /error="invalid_token"/);
});

test('PATCH and DELETE /session honour If-Match: a tag that does not hold is a 412 and changes nothing', async (t) => {
  const server = await withServer(t);
  const alice = await registerAndLogIn(server);
  const current = await call(server, 'GET', '/session', { token: alice.token });
  const etag = String(current.headers['etag']);
  const stale = { 'if-match': '"not-the-tag"' };
  const patched = await call(server, 'PATCH', '/session', { token: alice.token, headers: stale });
  assert.equal(patched.status, 412);
  assert.equal(patched.body.code, 'ERR_PRECONDITION_FAILED');
  const refused = await call(server, 'DELETE', '/session', { token: alice.token, headers: stale });
  assert.equal(refused.status, 412);
  assert.equal((await call(server, 'GET', '/session', { token: alice.token })).status, 200, 'still logged in');
  assert.equal((await call(server, 'PATCH', '/session', { token: alice.token, headers: { 'if-match': etag } })).status, 200);
  const fresh = String((await call(server, 'GET', '/session', { token: alice.token })).headers['etag']);
  assert.equal((await call(server, 'DELETE', '/session', { token: alice.token, headers: { 'if-match': fresh } })).status, 204);
  assert.equal((await call(server, 'GET', '/session', { token: alice.token })).status, 401);
});
