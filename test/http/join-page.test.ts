// The pages of invites (docs/html.md, Joining and Administration): /join/<code> signs up with the code, the login form
// then says the account exists; /admin lists people, invites and the audit log with their forms, for admins only.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RunningServer } from '../../src/index.ts';
import { call, registerAndLogIn, TestClock, withServer, type LoggedIn, type TestResponse } from './client.ts';

const FORM = 'application/x-www-form-urlencoded';
const HTML = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const UNCHECKED = 'an HTML form post (docs/protocol.md §7.3) is outside the OpenAPI document, which describes the JSON exchange';

function page(server: RunningServer, path: string, cookie?: string): Promise<TestResponse> {
  return call(server, 'GET', path, { headers: { accept: HTML, ...(cookie ? { cookie } : {}) } });
}

function post(server: RunningServer, path: string, fields: [string, string][], cookie?: string): Promise<TestResponse> {
  return call(server, 'POST', path, {
    body: new URLSearchParams(fields).toString(),
    headers: { 'content-type': FORM, origin: server.url, accept: HTML, ...(cookie ? { cookie } : {}) },
    unchecked: UNCHECKED,
  });
}

async function cookieOf(server: RunningServer, who: LoggedIn): Promise<string> {
  const res = await post(server, '/session', [['login', who.login], ['password', who.password]]);
  assert.equal(res.status, 303);
  return String(res.headers['set-cookie']).split(';')[0]!;
}

async function newCode(server: RunningServer, admin: LoggedIn, data: Record<string, unknown> = {}): Promise<{ id: string; code: string }> {
  const res = await call(server, 'POST', `${server.app.services.config.basePath}/invites`, { token: admin.token, json: { data } });
  assert.equal(res.status, 201, res.text);
  return res.body.data;
}

test('the join page: the sign-up form with the code hidden in it, posting the ordinary sign-up to /users', async (t) => {
  const clock = new TestClock();
  const server = await withServer(t, { registration: 'invite', basePath: '/api', clock });
  const admin = await registerAndLogIn(server, 'alice');
  const { code } = await newCode(server, admin, { role: 'admin' });
  const res = await page(server, `/api/join/${code}`);
  assert.equal(res.status, 200);
  assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
  assert.match(res.text, /<h1 dir="auto">Join the chat<\/h1>/);
  assert.match(res.text, /invited to join as an administrator/);
  assert.match(res.text, /<form method="post" action="\/api\/users" enctype="application\/x-www-form-urlencoded">\n<input type="hidden" name="inviteCode" value="([^"]+)">/);
  assert.ok(res.text.includes(`name="inviteCode" value="${code}"`));
  // The sign-up, as the browser sends it: signed in, 303 into the chats (docs/html.md, Sign-up from a page).
  const joined = await post(server, '/api/users', [['inviteCode', code], ['login', 'bob'], ['password', 'bob password']]);
  assert.deepEqual([joined.status, joined.headers['location']], [303, '/api/chats']);
  assert.match(String(joined.headers['set-cookie']), /^session=/);
  // The login form's notice stays for links made before (a sign-up no longer goes there).
  const login = await page(server, '/api/session?joined=1');
  assert.equal(login.status, 200);
  assert.match(login.text, /<p class="notice" role="status">Your account is ready: log in with the login and password you chose.<\/p>/);
  assert.doesNotMatch((await page(server, '/api/session')).text, /Your account is ready/);
  const bob = await call(server, 'POST', '/api/session', { json: { login: 'bob', password: 'bob password' } });
  assert.equal(bob.status, 201);
  assert.equal((await call(server, 'GET', `/api/users/${bob.body.userId}`, { token: bob.body.token })).body.role, 'admin');
});

test('a refused sign-up from the join page shows the join page again, with the code, the error and its status', async (t) => {
  const server = await withServer(t, { registration: 'invite' });
  const admin = await registerAndLogIn(server, 'alice');
  const { code } = await newCode(server, admin, { maxUses: 2 });
  const taken = await post(server, '/users', [['inviteCode', code], ['login', 'ALICE'], ['password', 'bob password']]);
  assert.equal(taken.status, 409);
  assert.match(taken.text, /<h1 dir="auto">Join the chat<\/h1>/);
  assert.ok(taken.text.includes(`name="inviteCode" value="${code}"`));
  assert.match(taken.text, /login is already taken/);
  assert.match(taken.text, /value="ALICE"/, 'the login as typed');
  const bogus = await post(server, '/users', [['inviteCode', 'forged'], ['login', 'mallory'], ['password', 'mallory password']]);
  assert.equal(bogus.status, 403, 'the sign-up\'s own status');
  assert.match(bogus.text, /No invite has this code/);
});

test('the landing page says how sign-up works in each mode; by invite it takes a pasted code, and says when it is missing', async (t) => {
  const server = await withServer(t, { registration: 'invite' });
  const admin = await registerAndLogIn(server, 'alice');
  const landing = await page(server, '/');
  assert.match(landing.text, /<h2 id="signup-heading">Join with an invite<\/h2>\n<p>Open the invite link you were sent, or paste its code below with the login and password you want.<\/p>/);
  assert.match(landing.text, /<input id="signup-inviteCode" name="inviteCode" type="text"/);
  const missing = await post(server, '/users', [['login', 'bob'], ['password', 'bob password'], ['inviteCode', '']]);
  assert.equal(missing.status, 403);
  assert.match(missing.text, /<input id="signup-inviteCode" name="inviteCode" type="text" [^>]*aria-invalid="true" aria-describedby="signup-inviteCode-error"><span class="error" id="signup-inviteCode-error" role="alert">inviteCode is required<\/span>/);
  const { code } = await newCode(server, admin);
  const joined = await post(server, '/users', [['login', 'bob'], ['password', 'bob password'], ['inviteCode', code]]);
  assert.deepEqual([joined.status, joined.headers['location']], [303, '/chats']);
  for (const [registration, note] of [['closed', /Sign-up is closed: an administrator creates accounts/], ['open', /<h2 id="signup-heading">New here\? Sign up<\/h2>\n<p>Choose a login and a password: you are signed in at once.<\/p>\n<form/]] as const) {
    const other = await withServer(t, { registration });
    const text = (await page(other, '/')).text;
    assert.match(text, note, registration);
    assert.doesNotMatch(text, /signup-inviteCode/, registration);
  }
});

test('an unusable code: the page says why, 404 for an unknown code, 403 for a revoked, expired or used-up one', async (t) => {
  const clock = new TestClock();
  const server = await withServer(t, { registration: 'invite', clock });
  const admin = await registerAndLogIn(server, 'alice');
  const unknown = await page(server, '/join/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
  assert.equal(unknown.status, 404);
  assert.match(unknown.text, /<h1 dir="auto">This invite cannot be used<\/h1>/);
  assert.match(unknown.text, /404 Not Found: No invite has this code/);
  assert.doesNotMatch(unknown.text, /name="inviteCode"/);
  const revoked = await newCode(server, admin);
  await call(server, 'DELETE', `/invites/${revoked.id}`, { token: admin.token });
  const used = await newCode(server, admin);
  await call(server, 'POST', '/users', { json: { login: 'bob', password: 'bob password', inviteCode: used.code } });
  const expiring = await newCode(server, admin, { expiresAt: new Date(clock.time + 1000).toISOString() });
  clock.advance(1000);
  for (const [code, reason] of [[revoked.code, '403 Invite revoked: The invite was revoked.'], [used.code, '403 Invite used up: The invite has been used as many times as it allows.'], [expiring.code, '403 Invite expired: The invite has expired.']] as const) {
    const res = await page(server, `/join/${code}`);
    assert.equal(res.status, 403, reason);
    assert.ok(res.text.includes(reason), reason);
  }
});

test('/join/<code> for a client: what the code gives (InviteStatus), or the problem', async (t) => {
  const server = await withServer(t, { registration: 'invite' });
  const admin = await registerAndLogIn(server, 'alice');
  const { id, code } = await newCode(server, admin, { maxUses: 3, expiresAt: null });
  const res = await call(server, 'GET', `/join/${code}`);
  assert.equal(res.status, 200);
  assert.deepEqual(res.body, { role: 'member', expiresAt: null, usesLeft: 3, signUp: '/users' });
  const xml = await call(server, 'GET', `/join/${code}`, { headers: { accept: 'application/xml' } });
  assert.equal(xml.status, 200);
  assert.match(xml.text, /<usesLeft>3<\/usesLeft>/);
  const unknown = await call(server, 'GET', '/join/nothing-like-it');
  assert.deepEqual([unknown.status, unknown.body.code], [404, 'ERR_NOT_FOUND']);
  await call(server, 'DELETE', `/invites/${id}`, { token: admin.token });
  const revoked = await call(server, 'GET', `/join/${code}`);
  assert.deepEqual([revoked.status, revoked.body.code, revoked.body.errors], [403, 'ERR_INVITE_REVOKED', [{ field: 'inviteCode', message: 'was revoked' }]]);
  const closed = await withServer(t, { registration: 'closed' });
  const boss = await registerAndLogIn(closed, 'boss');
  const closedCode = await newCode(closed, boss);
  assert.equal((await call(closed, 'GET', `/join/${closedCode.code}`)).status, 403, 'closed mode: invites open no sign-up');
});

test('the admin page: people, invites and the audit log for an admin, with an Admin link in the header; 403 for a member', async (t) => {
  const server = await withServer(t, { registration: 'invite' });
  const admin = await registerAndLogIn(server, 'alice');
  const { code } = await newCode(server, admin);
  await call(server, 'POST', '/users', { json: { login: 'bob', password: 'bob password', inviteCode: code } });
  const bob = { ...(await registerAndLogInAs(server, 'bob', 'bob password')) };
  const cookie = await cookieOf(server, admin);
  const res = await page(server, '/admin', cookie);
  assert.equal(res.status, 200);
  assert.match(res.text, /<h1 dir="auto">Administration<\/h1>/);
  assert.match(res.text, /<a href="\/admin">Admin<\/a>/);
  for (const heading of ['People', 'Invites', 'Audit log']) assert.match(res.text, new RegExp(`<h2 id="[a-z]+-heading">${heading}</h2>`));
  assert.match(res.text, new RegExp(`<form method="post" action="/users/${bob.userId}" [^>]*><input type="hidden" name="_method" value="PATCH"><input type="hidden" name="_back" value="/admin"><input type="hidden" name="role" value="admin">`));
  assert.match(res.text, /<input type="hidden" name="active" value="false">/);
  assert.match(res.text, /<form method="post" action="\/invites" enctype="application\/x-www-form-urlencoded">/);
  assert.match(res.text, /<code>invite.use<\/code>/);
  assert.match(res.text, /<a href="\/audit">The whole audit log<\/a>/);
  const json = await call(server, 'GET', '/admin', { token: admin.token });
  assert.deepEqual([json.status, json.body], [200, { users: '/users', invites: '/invites', audit: '/audit' }]);

  const bobCookie = await cookieOf(server, bob);
  const refused = await page(server, '/admin', bobCookie);
  assert.equal(refused.status, 403);
  assert.equal((await call(server, 'GET', '/admin', { token: bob.token })).status, 403);
  assert.doesNotMatch((await page(server, '/chats', bobCookie)).text, /href="\/admin"/, 'no Admin link for a member');
  assert.equal((await call(server, 'GET', '/admin')).status, 401);
});

test('the admin page\'s forms: a new invite is shown once with its link; revoke and promote go back to the page', async (t) => {
  const server = await withServer(t, { registration: 'invite' });
  const admin = await registerAndLogIn(server, 'alice');
  const cookie = await cookieOf(server, admin);
  const made = await post(server, '/invites', [['_back', '/admin'], ['maxUses', '2'], ['expiresAt', '2099-01-01T12:00'], ['role', 'admin']], cookie);
  assert.equal(made.status, 201, made.text);
  assert.match(String(made.headers['location']), /^\/invites\/[0-9A-Z]{26}$/);
  const url = /<input id="invite-url" type="text" readonly value="([^"]+)">/.exec(made.text)?.[1];
  assert.ok(url?.startsWith(`${server.url}/join/`), made.text);
  const listed = await call(server, 'GET', '/invites', { token: admin.token });
  assert.deepEqual(
    [listed.body.data[0].maxUses, listed.body.data[0].expiresAt, listed.body.data[0].role],
    [2, '2099-01-01T12:00:00.000Z', 'admin'],
  );
  const code = url!.slice(url!.lastIndexOf('/') + 1);
  assert.equal((await call(server, 'POST', '/users', { json: { login: 'bob', password: 'bob password', inviteCode: code } })).status, 201);
  const wrong = await post(server, '/invites', [['_back', '/admin'], ['maxUses', 'many']], cookie);
  assert.equal(wrong.status, 400);
  assert.match(wrong.text, /<h1 dir="auto">Administration<\/h1>/);
  assert.match(wrong.text, /Sign-ups it allows: must be a whole number/);
  const revoked = await post(server, `/invites/${listed.body.data[0].id}`, [['_method', 'DELETE'], ['_back', '/admin']], cookie);
  assert.deepEqual([revoked.status, revoked.headers['location']], [303, '/admin']);
  const bobId = (await call(server, 'GET', '/users?login=bob', { token: admin.token })).body.data[0].id;
  const demoted = await post(server, `/users/${bobId}`, [['_method', 'PATCH'], ['_back', '/admin'], ['role', 'member']], cookie);
  assert.deepEqual([demoted.status, demoted.headers['location']], [303, '/admin']);
  assert.equal((await call(server, 'GET', `/users/${bobId}`, { token: admin.token })).body.role, 'member');
  const deactivated = await post(server, `/users/${bobId}`, [['_method', 'PATCH'], ['_back', '/admin'], ['active', 'false']], cookie);
  assert.deepEqual([deactivated.status, deactivated.headers['location']], [303, '/admin']);
  assert.equal((await call(server, 'GET', `/users/${bobId}`, { token: admin.token })).body.active, false);
  assert.match((await page(server, '/admin', cookie)).text, /<input type="hidden" name="active" value="true"><button type="submit" aria-label="Reactivate: bob">Reactivate<\/button>/);
  // The last admin demoting herself: the page again, with the refusal.
  const last = await post(server, `/users/${(await call(server, 'GET', '/session', { token: admin.token })).body.userId}`, [['_method', 'PATCH'], ['_back', '/admin'], ['role', 'member']], cookie);
  assert.equal(last.status, 409);
  assert.match(last.text, /<h1 dir="auto">Administration<\/h1>/);
});

async function registerAndLogInAs(server: RunningServer, login: string, password: string): Promise<LoggedIn> {
  const session = await call(server, 'POST', '/session', { json: { login, password } });
  assert.equal(session.status, 201, session.text);
  return { token: session.body.token, userId: session.body.userId, login, password };
}
