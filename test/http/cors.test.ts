// CORS over HTTP: allowed origins get the Access-Control-* answers (preflight from the route table), others
// get none; a cookie write from an allowed origin passes the Origin check, from any other it is still 403.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseConfig } from '../../src/config.ts';
import { call, registerAndLogIn, withServer } from './client.ts';
import { openReady } from './event-stream.ts';

const APP = 'http://app.example';
const OTHER = 'http://evil.example';

const accessControl = (headers: Record<string, unknown>) => Object.keys(headers).filter((name) => name.startsWith('access-control-')).sort();

test('a preflight from an allowed origin is the OPTIONS answer, with the route table\'s methods', async (t) => {
  const server = await withServer(t, { corsOrigins: [APP, 'https://other.example:8443'] });
  const res = await call(server, 'OPTIONS', '/chats/01ARZ3NDEKTSV4RRFFQ69G5FAV', {
    headers: { origin: APP, 'access-control-request-method': 'PATCH', 'access-control-request-headers': 'content-type, if-match' },
  });
  assert.equal(res.status, 204);
  assert.equal(res.headers['allow'], 'OPTIONS, GET, HEAD, PUT, PATCH, DELETE');
  assert.equal(res.headers['access-control-allow-methods'], res.headers['allow']);
  assert.equal(res.headers['access-control-allow-origin'], APP);
  assert.equal(res.headers['access-control-allow-credentials'], 'true');
  assert.equal(res.headers['access-control-allow-headers'], 'Accept, Authorization, Content-Type, If-Match, If-None-Match, Last-Event-ID');
  assert.equal(res.headers['access-control-max-age'], '600');
  assert.equal(res.headers['vary'], 'Origin');
  assert.equal(res.headers['accept-patch'], 'application/json, application/merge-patch+json');
  const collection = await call(server, 'OPTIONS', '/chats', { headers: { origin: 'https://other.example:8443', 'access-control-request-method': 'POST' } });
  assert.equal(collection.headers['access-control-allow-methods'], 'OPTIONS, GET, HEAD, POST');
  assert.equal(collection.headers['access-control-allow-origin'], 'https://other.example:8443');
});

test('answers to an allowed origin expose Location, ETag, Link, Retry-After and the RateLimit fields; errors too', async (t) => {
  const server = await withServer(t, { corsOrigins: [APP] });
  const alice = await registerAndLogIn(server, 'alice', 'alice password');
  const created = await call(server, 'POST', '/chats', { token: alice.token, headers: { origin: APP }, json: { data: { title: 'CORS' } } });
  assert.equal(created.status, 201);
  assert.equal(created.headers['access-control-allow-origin'], APP);
  assert.equal(created.headers['access-control-allow-credentials'], 'true');
  assert.equal(created.headers['access-control-expose-headers'], 'Location, ETag, Link, Retry-After, RateLimit, RateLimit-Policy, X-Request-Id');
  assert.equal(created.headers['vary'], 'Origin, Accept');
  assert.deepEqual(accessControl(created.headers), ['access-control-allow-credentials', 'access-control-allow-origin', 'access-control-expose-headers']);
  const missing = await call(server, 'GET', '/nowhere', { headers: { origin: APP } });
  assert.equal(missing.status, 404);
  assert.equal(missing.headers['access-control-allow-origin'], APP, 'a script can read the problem document');
});

test('any other origin, and a request without Origin, gets no Access-Control-* header but still Vary: Origin', async (t) => {
  const server = await withServer(t, { corsOrigins: [APP] });
  for (const headers of [{ origin: OTHER }, { origin: 'null' }, { origin: `${APP}:80` }, {}] as Record<string, string>[]) {
    const preflight = await call(server, 'OPTIONS', '/chats', { headers: { ...headers, 'access-control-request-method': 'POST' } });
    assert.equal(preflight.status, 204, 'OPTIONS still answers as always');
    assert.deepEqual(accessControl(preflight.headers), [], JSON.stringify(headers));
    assert.equal(preflight.headers['vary'], 'Origin');
    const health = await call(server, 'GET', '/health', { headers });
    assert.deepEqual(accessControl(health.headers), []);
    assert.equal(health.headers['vary'], 'Origin, Accept');
  }
});

test('without --cors-origins nothing changes: no Access-Control-* header, no Vary: Origin', async (t) => {
  const server = await withServer(t);
  const res = await call(server, 'OPTIONS', '/chats', { headers: { origin: APP, 'access-control-request-method': 'POST' } });
  assert.deepEqual(accessControl(res.headers), []);
  assert.equal(res.headers['vary'], undefined);
  assert.equal((await call(server, 'GET', '/health', { headers: { origin: APP } })).headers['vary'], 'Accept');
});

test('a cookie write from an allowed origin passes the Origin check; from another origin it is still 403', async (t) => {
  const server = await withServer(t, { corsOrigins: [APP] });
  await registerAndLogIn(server, 'alice', 'alice password');
  const login = await call(server, 'POST', '/session', { headers: { origin: APP }, json: { login: 'alice', password: 'alice password' } });
  const cookie = String(login.headers['set-cookie']).split(';')[0]!;
  const allowed = await call(server, 'POST', '/chats', { headers: { cookie, origin: APP }, json: { data: { title: 'From the app' } } });
  assert.equal(allowed.status, 201, allowed.text);
  const foreign = await call(server, 'POST', '/chats', { headers: { cookie, origin: OTHER }, json: { data: { title: 'Forged' } } });
  assert.equal(foreign.status, 403);
  assert.equal(foreign.body.code, 'ERR_CSRF');
  assert.deepEqual(accessControl(foreign.headers), []);
  const none = await call(server, 'POST', '/chats', { headers: { cookie }, json: { data: { title: 'No origin' } } });
  assert.equal(none.status, 403);
});

test('--cors-origins takes exact origins, comma-separated, and refuses anything else', () => {
  assert.deepEqual(parseConfig(['--cors-origins', 'https://a.example, http://127.0.0.1:5173']).corsOrigins, ['https://a.example', 'http://127.0.0.1:5173']);
  assert.deepEqual(parseConfig([], { CORS_ORIGINS: 'https://a.example' }).corsOrigins, ['https://a.example']);
  assert.deepEqual(parseConfig(['--cors-origins', '']).corsOrigins, []);
  for (const bad of ['*', 'a.example', 'https://a.example/', 'https://a.example/app', 'https://A.example', 'ftp://a.example', 'https://a.example:443']) {
    assert.throws(() => parseConfig(['--cors-origins', bad]), /--cors-origins: expected origins/, bad);
  }
});

test('an event stream opened from an allowed origin carries the CORS headers too', async (t) => {
  const server = await withServer(t, { corsOrigins: [APP] });
  const alice = await registerAndLogIn(server, 'alice', 'alice password');
  const stream = await openReady(server, { token: alice.token, headers: { origin: APP } });
  t.after(() => stream.close());
  assert.equal(stream.headers['access-control-allow-origin'], APP);
  assert.equal(stream.headers['access-control-allow-credentials'], 'true');
  assert.match(String(stream.headers['vary']), /Origin/);
});
