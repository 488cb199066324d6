// Roles, sign-up modes and the audit log over HTTP (docs/protocol.md §3.4): the first account is an admin, only an
// admin changes a role, the last active admin stays, and every role change is audited.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { call, registerAndLogIn, TestClock, withServer, type LoggedIn } from './client.ts';
import type { RunningServer } from '../../src/index.ts';

const PASSWORD = 'correct horse battery';

function signUp(server: RunningServer, login: string, extra: Record<string, unknown> = {}, token?: string) {
  return call(server, 'POST', '/users', { json: { login, password: PASSWORD, ...extra }, ...(token ? { token } : {}) });
}

async function logIn(server: RunningServer, login: string): Promise<string> {
  const res = await call(server, 'POST', '/session', { json: { login, password: PASSWORD } });
  assert.equal(res.status, 201, res.text);
  return res.body.token;
}

test('the first account is an admin, every later one a member', async (t) => {
  const server = await withServer(t);
  const alice = await signUp(server, 'alice');
  const bob = await signUp(server, 'bob');
  assert.equal(alice.status, 201);
  assert.equal(alice.body.role, 'admin');
  assert.equal(alice.body.active, true);
  assert.equal(bob.body.role, 'member');
  const listed = await call(server, 'GET', '/users?sort=login', { token: await logIn(server, 'bob') });
  assert.deepEqual(listed.body.data.map((user: { login: string; role: string }) => [user.login, user.role]), [['alice', 'admin'], ['bob', 'member']]);
  const admins = await call(server, 'GET', '/users?role=admin', { token: await logIn(server, 'bob') });
  assert.deepEqual(admins.body.data.map((user: { login: string }) => user.login), ['alice']);
});

test('sign-ups racing on an empty database make exactly one admin, and by invite only one gets in', async (t) => {
  for (const registration of ['open', 'invite'] as const) {
    const server = await withServer(t, { registration });
    const answers = await Promise.all(['racer1', 'racer2', 'racer3', 'racer4'].map((login) => signUp(server, login)));
    const created = answers.filter((res) => res.status === 201);
    assert.equal(created.filter((res) => res.body.role === 'admin').length, 1, registration);
    if (registration === 'open') {
      assert.equal(created.length, 4);
    } else {
      assert.equal(created.length, 1);
      for (const res of answers.filter((answer) => answer.status !== 201)) {
        assert.equal(res.status, 403);
        assert.equal(res.body.code, 'ERR_INVITE_REQUIRED');
      }
    }
  }
});

test('by invite, a sign-up without a code is 403 naming inviteCode; the first account needs none', async (t) => {
  const server = await withServer(t, { registration: 'invite' });
  assert.equal((await signUp(server, 'alice')).status, 201);
  const res = await signUp(server, 'bob');
  assert.equal(res.status, 403);
  assert.equal(res.headers['content-type'], 'application/problem+json');
  assert.deepEqual(res.body, {
    type: 'https://chat-api.invalid/problems/invite-required', title: 'Sign-up needs an invite', status: 403,
    detail: 'Sign-up on this server needs an invite: ask a member for an invite link', code: 'ERR_INVITE_REQUIRED',
    errors: [{ field: 'inviteCode', message: 'is required' }],
  });
  const listed = await call(server, 'GET', '/users', { token: await logIn(server, 'alice') });
  assert.deepEqual(listed.body.data.map((user: { login: string }) => user.login), ['alice']);
});

test('closed: only an admin creates accounts', async (t) => {
  const server = await withServer(t, { registration: 'closed' });
  assert.equal((await signUp(server, 'alice')).status, 201);
  const alice = await logIn(server, 'alice');
  const anonymous = await signUp(server, 'bob');
  assert.equal(anonymous.status, 403);
  assert.equal(anonymous.body.code, 'ERR_REGISTRATION_CLOSED');
  const byAdmin = await signUp(server, 'bob', {}, alice);
  assert.equal(byAdmin.status, 201);
  assert.equal(byAdmin.body.role, 'member');
  const byMember = await signUp(server, 'carol', {}, await logIn(server, 'bob'));
  assert.equal(byMember.status, 403);
  assert.equal(byMember.body.code, 'ERR_REGISTRATION_CLOSED');
  const badToken = await signUp(server, 'carol', {}, 'not-a-token');
  assert.equal(badToken.status, 401);
});

test('an admin changes roles; a member may not; the last active admin cannot be demoted', async (t) => {
  const clock = new TestClock();
  const server = await withServer(t, { clock });
  const alice = await registerAndLogIn(server, 'alice');
  const bob = await registerAndLogIn(server, 'bob');
  const byMember = await call(server, 'PATCH', `/users/${alice.userId}`, { token: bob.token, json: { role: 'member' } });
  assert.equal(byMember.status, 403);
  assert.equal(byMember.body.code, 'ERR_FORBIDDEN');
  const selfPromotion = await call(server, 'PATCH', `/users/${bob.userId}`, { token: bob.token, json: { role: 'admin' } });
  assert.equal(selfPromotion.status, 403);

  const last = await call(server, 'PATCH', `/users/${alice.userId}`, { token: alice.token, json: { role: 'member' } });
  assert.equal(last.status, 409);
  assert.equal(last.body.code, 'ERR_LAST_ADMIN');
  assert.deepEqual(last.body.errors, [{ field: 'role', message: 'would leave no active admin' }]);

  clock.advance(1000);
  const promoted = await call(server, 'PATCH', `/users/${bob.userId}`, { token: alice.token, json: { role: 'admin' } });
  assert.equal(promoted.status, 200);
  assert.deepEqual(promoted.body, { ...promoted.body, id: bob.userId, login: 'bob', role: 'admin', active: true, updatedAt: new Date(clock.time).toISOString() });
  const bad = await call(server, 'PATCH', `/users/${bob.userId}`, { token: alice.token, json: { role: 'owner' } });
  assert.equal(bad.status, 400);
  assert.deepEqual(bad.body.errors, [{ field: 'role', message: 'must be "admin" or "member"' }]);
  // An admin changes another user's role, never their login, password or avatar.
  const login = await call(server, 'PATCH', `/users/${bob.userId}`, { token: alice.token, json: { login: 'robert' } });
  assert.equal(login.status, 403);
  const both = await call(server, 'PATCH', `/users/${bob.userId}`, { token: alice.token, json: { role: 'member', login: 'robert' } });
  assert.equal(both.status, 403);

  // Two admins now: alice may step down, and then bob is the last.
  assert.equal((await call(server, 'PATCH', `/users/${alice.userId}`, { token: alice.token, json: { role: 'member' } })).status, 200);
  assert.equal((await call(server, 'PATCH', `/users/${bob.userId}`, { token: bob.token, json: { role: 'member' } })).status, 409);
  // A former admin has no admin rights left.
  assert.equal((await call(server, 'GET', '/audit', { token: alice.token })).status, 403);
});

test('two admins demoting each other at once leave one admin', async (t) => {
  const server = await withServer(t);
  const alice = await registerAndLogIn(server, 'alice');
  const bob = await registerAndLogIn(server, 'bob');
  assert.equal((await call(server, 'PATCH', `/users/${bob.userId}`, { token: alice.token, json: { role: 'admin' } })).status, 200);
  const answers = await Promise.all([
    call(server, 'PATCH', `/users/${alice.userId}`, { token: bob.token, json: { role: 'member' } }),
    call(server, 'PATCH', `/users/${bob.userId}`, { token: alice.token, json: { role: 'member' } }),
  ]);
  const statuses = answers.map((res) => res.status).sort();
  // Whichever commits first wins; the other finds either the last admin (409) or a caller who is no admin any more (403).
  assert.equal(statuses[0], 200);
  assert.ok(statuses[1] === 403 || statuses[1] === 409, String(statuses));
  const admins = await call(server, 'GET', '/users?role=admin', { token: alice.token });
  assert.equal(admins.body.meta.total, 1);
});

test('GET /audit: admins only, newest first, queryable; role changes are audited with who, what and when', async (t) => {
  const clock = new TestClock();
  const server = await withServer(t, { clock });
  const alice = await registerAndLogIn(server, 'alice');
  const bob = await registerAndLogIn(server, 'bob');
  const carol: LoggedIn = await registerAndLogIn(server, 'carol');
  assert.equal((await call(server, 'GET', '/audit', { token: bob.token })).status, 403);
  const empty = await call(server, 'GET', '/audit', { token: alice.token });
  assert.equal(empty.status, 200);
  assert.deepEqual(empty.body, { data: [], meta: { total: 0, limit: 20, offset: 0 } });

  clock.advance(1000);
  await call(server, 'PATCH', `/users/${bob.userId}`, { token: alice.token, json: { role: 'admin' } });
  clock.advance(1000);
  await call(server, 'PATCH', `/users/${carol.userId}`, { token: bob.token, json: { role: 'admin' } });
  clock.advance(1000);
  await call(server, 'PATCH', `/users/${carol.userId}`, { token: alice.token, json: { role: 'member' } });

  const log = await call(server, 'GET', '/audit', { token: alice.token });
  assert.equal(log.status, 200);
  const at = (seconds: number) => new Date(clock.time - seconds * 1000).toISOString();
  assert.deepEqual(log.body.data.map(({ id: _id, ...entry }: { id: string }) => entry), [
    { at: at(0), actorId: alice.userId, action: 'user.demote', targetType: 'user', targetId: carol.userId, detail: { role: 'member' } },
    { at: at(1), actorId: bob.userId, action: 'user.promote', targetType: 'user', targetId: carol.userId, detail: { role: 'admin' } },
    { at: at(2), actorId: alice.userId, action: 'user.promote', targetType: 'user', targetId: bob.userId, detail: { role: 'admin' } },
  ]);
  const oldestFirst = await call(server, 'GET', '/audit?sort=at&action=user.promote', { token: alice.token });
  assert.deepEqual(oldestFirst.body.data.map((entry: { targetId: string }) => entry.targetId), [bob.userId, carol.userId]);
  const byActor = await call(server, 'GET', `/audit?actorId=${bob.userId}`, { token: alice.token });
  assert.equal(byActor.body.meta.total, 1);
  const xml = await call(server, 'GET', '/audit?limit=1', { token: alice.token, headers: { accept: 'application/xml' } });
  assert.equal(xml.status, 200);
  assert.match(xml.text, /<action>user\.demote<\/action>/);
});
