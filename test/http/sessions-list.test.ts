// A user's sessions (docs/protocol.md §3.5): listed for the user or an administrator, never with a secret; one
// ended, or every other; lastUsedAt written at most once a minute; the HTML page's forms.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RunningServer } from '../../src/index.ts';
import { call, registerAndLogIn, runSql, TestClock, withServer, type LoggedIn } from './client.ts';
import { openReady } from './event-stream.ts';

const FORM = 'application/x-www-form-urlencoded';
const UNCHECKED = 'an HTML form post (docs/protocol.md §7.3) is outside the OpenAPI document, which describes the JSON exchange';

/** A second session of the same user, made by another client. */
async function logInAgain(server: RunningServer, user: LoggedIn, headers: Record<string, string> = {}): Promise<{ token: string; id: string }> {
  const res = await call(server, 'POST', '/session', { json: { login: user.login, password: user.password }, headers });
  assert.equal(res.status, 201, res.text);
  const list = await call(server, 'GET', `/users/${user.userId}/sessions?sort=-createdAt&limit=1`, { token: res.body.token });
  return { token: res.body.token, id: list.body.data[0].id };
}

/** The admin (the first account), then two members. */
async function people(server: RunningServer): Promise<{ admin: LoggedIn; bob: LoggedIn; carol: LoggedIn }> {
  const admin = await registerAndLogIn(server);
  return { admin, bob: await registerAndLogIn(server), carol: await registerAndLogIn(server) };
}

test('GET /users/{id}/sessions lists the sessions with where they came from and which is this one, never a token', async (t) => {
  const clock = new TestClock();
  const server = await withServer(t, { clock, trustProxy: true });
  const { bob } = await people(server);
  const at = new Date(clock.time).toISOString();
  clock.advance(1000);
  const longAgent = `Mozilla/5.0 ${'x'.repeat(300)}`;
  const phone = await logInAgain(server, bob, { 'user-agent': longAgent, 'x-forwarded-for': '198.51.100.7' });
  const res = await call(server, 'GET', `/users/${bob.userId}/sessions`, { token: bob.token });
  assert.equal(res.status, 200);
  assert.ok(res.headers['etag']);
  const first = res.body.data[0];
  assert.deepEqual(Object.keys(first), ['id', 'createdAt', 'lastUsedAt', 'expiresAt', 'userAgent', 'address', 'current']);
  assert.deepEqual(res.body.data.map((session: Record<string, unknown>) => ({ ...session, id: undefined, expiresAt: undefined })), [
    { id: undefined, createdAt: at, lastUsedAt: at, expiresAt: undefined, userAgent: null, address: '127.0.0.1', current: true },
    {
      id: undefined, createdAt: new Date(clock.time).toISOString(), lastUsedAt: new Date(clock.time).toISOString(), expiresAt: undefined,
      userAgent: longAgent.slice(0, 256), address: '198.51.100.7', current: false,
    },
  ]);
  assert.equal(res.body.data[1].id, phone.id);
  assert.deepEqual(res.body.meta, { total: 2, limit: 20, offset: 0 });
  assert.ok(!res.text.includes(bob.token) && !res.text.includes(phone.token), 'no token in the list');
  assert.ok(!/tokenHash|token_hash/.test(res.text));
  // The query conventions, as on every collection.
  const filtered = await call(server, 'GET', `/users/${bob.userId}/sessions?address=198.51.100.7`, { token: phone.token });
  assert.deepEqual(filtered.body.data.map((session: { id: string; current: boolean }) => [session.id, session.current]), [[phone.id, true]]);
  const paged = await call(server, 'GET', `/users/${bob.userId}/sessions?limit=1&sort=-createdAt`, { token: bob.token });
  assert.equal(paged.headers['link'], `</users/${bob.userId}/sessions?sort=-createdAt&limit=1&offset=1>; rel="next"`);
  const wrong = await call(server, 'GET', `/users/${bob.userId}/sessions?tokenHash=x`, { token: bob.token });
  assert.equal(wrong.status, 400);
  assert.equal(wrong.body.code, 'ERR_BAD_QUERY');
});

test('only the user and an administrator see the sessions: another user is a 403, an unknown user a 404', async (t) => {
  const server = await withServer(t);
  const { admin, bob, carol } = await people(server);
  const refused = await call(server, 'GET', `/users/${bob.userId}/sessions`, { token: carol.token });
  assert.equal(refused.status, 403);
  assert.equal(refused.body.code, 'ERR_FORBIDDEN');
  assert.equal(refused.body.detail, 'Only the user themself or an administrator may list their sessions');
  assert.equal((await call(server, 'DELETE', `/users/${bob.userId}/sessions`, { token: carol.token })).status, 403);
  const byAdmin = await call(server, 'GET', `/users/${bob.userId}/sessions`, { token: admin.token });
  assert.equal(byAdmin.status, 200);
  assert.equal(byAdmin.body.data.length, 1);
  assert.equal(byAdmin.body.data[0].current, false, 'the admin\'s own session is not among them');
  const missing = await call(server, 'GET', '/users/nobody/sessions', { token: admin.token });
  assert.equal(missing.status, 404);
  assert.equal(missing.body.detail, 'No user nobody');
});

test('lastUsedAt and the user\'s lastSeenAt move with use, at most once a minute', async (t) => {
  const clock = new TestClock();
  const server = await withServer(t, { clock });
  const { bob } = await people(server);
  const created = clock.time;
  const lastUsed = async () => (await call(server, 'GET', `/users/${bob.userId}/sessions`, { token: bob.token })).body.data[0].lastUsedAt;
  const lastSeen = async () => Number((await runSql(server, `SELECT last_seen_at AS t FROM users WHERE id = '${bob.userId}'`))[0]!['t']);
  clock.advance(30_000);
  assert.equal(await lastUsed(), new Date(created).toISOString(), 'less than a minute: nothing written');
  clock.advance(31_000);
  const used = clock.time;
  assert.equal(await lastUsed(), new Date(used).toISOString());
  assert.equal(await lastSeen(), used);
  clock.advance(59_000);
  assert.equal(await lastUsed(), new Date(used).toISOString());
  assert.equal(await lastSeen(), used);
});

test('GET and DELETE of one session: its token answers 401 and its stream closes; another user\'s session is a 404', async (t) => {
  const server = await withServer(t);
  const { bob, carol } = await people(server);
  const other = await logInAgain(server, bob);
  const one = await call(server, 'GET', `/users/${bob.userId}/sessions/${other.id}`, { token: bob.token });
  assert.equal(one.status, 200);
  assert.equal(one.body.data.id, other.id);
  assert.equal(one.body.data.current, false);
  const carols = (await call(server, 'GET', `/users/${carol.userId}/sessions`, { token: carol.token })).body.data[0].id;
  const notHis = await call(server, 'GET', `/users/${bob.userId}/sessions/${carols}`, { token: bob.token });
  assert.equal(notHis.status, 404);
  assert.equal(notHis.body.detail, `No session ${carols} of user ${bob.userId}`);
  assert.equal((await call(server, 'DELETE', `/users/${bob.userId}/sessions/${carols}`, { token: bob.token })).status, 404);

  const stream = await openReady(server, { token: other.token });
  t.after(() => stream.close());
  const ended = await call(server, 'DELETE', `/users/${bob.userId}/sessions/${other.id}`, { token: bob.token });
  assert.equal(ended.status, 204);
  assert.equal(ended.raw.length, 0);
  assert.equal(ended.headers['set-cookie'], undefined);
  await stream.ended;
  assert.equal((await call(server, 'GET', '/session', { token: other.token })).status, 401);
  assert.equal((await call(server, 'GET', '/session', { token: bob.token })).status, 200);
  assert.equal((await call(server, 'GET', `/users/${bob.userId}/sessions/${other.id}`, { token: bob.token })).status, 404);
});

test('DELETE /users/{id}/sessions ends every other session of the user; an administrator ends them all, audited', async (t) => {
  const server = await withServer(t);
  const { admin, bob } = await people(server);
  const second = await logInAgain(server, bob);
  const third = await logInAgain(server, bob);
  const others = await call(server, 'DELETE', `/users/${bob.userId}/sessions`, { token: bob.token });
  assert.equal(others.status, 204);
  assert.equal((await call(server, 'GET', '/session', { token: second.token })).status, 401);
  assert.equal((await call(server, 'GET', '/session', { token: third.token })).status, 401);
  const left = await call(server, 'GET', `/users/${bob.userId}/sessions`, { token: bob.token });
  assert.deepEqual(left.body.data.map((session: { current: boolean }) => session.current), [true]);
  const sessionId = left.body.data[0].id;

  const stream = await openReady(server, { token: bob.token });
  t.after(() => stream.close());
  assert.equal((await call(server, 'DELETE', `/users/${bob.userId}/sessions`, { token: admin.token })).status, 204);
  await stream.ended;
  assert.equal((await call(server, 'GET', '/session', { token: bob.token })).status, 401);
  const audit = await call(server, 'GET', '/audit?action=session.end', { token: admin.token });
  assert.equal(audit.status, 200);
  assert.deepEqual(audit.body.data.map((row: Record<string, unknown>) => [row['actorId'], row['action'], row['targetType'], row['targetId'], row['detail']]),
    [[admin.userId, 'session.end', 'user', bob.userId, { sessionIds: [sessionId] }]]);
  const ownEnd = await call(server, 'GET', '/audit?action=session.end', { token: admin.token });
  assert.equal(ownEnd.body.meta.total, 1, 'bob ending his own sessions is not audited');
});

test('the sessions page: each session with End (Log out for this one), and End all other sessions, as forms', async (t) => {
  const server = await withServer(t);
  await people(server);
  const dana = await registerAndLogIn(server, 'dana', 'dana password');
  const login = await call(server, 'POST', '/session', {
    body: new URLSearchParams({ login: 'dana', password: 'dana password' }).toString(),
    headers: { 'content-type': FORM, origin: server.url, 'user-agent': 'Firefox <b>' },
  });
  const cookie = String(login.headers['set-cookie']).split(';')[0]!;
  const page = await call(server, 'GET', `/users/${dana.userId}/sessions`, { headers: { cookie, accept: 'text/html' } });
  assert.equal(page.status, 200);
  assert.match(page.text, /<h1[^>]*>Your sessions<\/h1>/);
  assert.ok(page.text.includes('Firefox &lt;b&gt;'), 'the user agent is escaped');
  assert.ok(page.text.includes('<span class="badge">this session</span>'));
  assert.ok(page.text.includes('>End all other sessions</button>'));
  assert.ok(page.text.includes('>Log out</button>') && page.text.includes('>End</button>'));

  const endOthers = await call(server, 'POST', `/users/${dana.userId}/sessions`, {
    body: new URLSearchParams({ _method: 'DELETE' }).toString(),
    headers: { 'content-type': FORM, origin: server.url, cookie, accept: 'text/html' },
    unchecked: UNCHECKED,
  });
  assert.equal(endOthers.status, 303);
  assert.equal(endOthers.headers['location'], `/users/${dana.userId}/sessions`);
  assert.equal((await call(server, 'GET', '/session', { token: dana.token })).status, 401, 'the API session was another one');
  const mine = (await call(server, 'GET', `/users/${dana.userId}/sessions`, { headers: { cookie, accept: 'application/json' } })).body.data[0].id;
  const logOut = await call(server, 'POST', `/users/${dana.userId}/sessions/${mine}`, {
    body: new URLSearchParams({ _method: 'DELETE' }).toString(),
    headers: { 'content-type': FORM, origin: server.url, cookie, accept: 'text/html' },
    unchecked: UNCHECKED,
  });
  assert.equal(logOut.status, 303);
  assert.equal(logOut.headers['location'], '/session');
  assert.match(String(logOut.headers['set-cookie']), /^session=; HttpOnly; SameSite=Strict; Path=\/; Max-Age=0/);
});
