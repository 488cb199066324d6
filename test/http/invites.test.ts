// Invites (docs/protocol.md §13.2, §13.5): made by administrators (and members), the code shown once and kept only as
// its SHA-256, listed and revoked; sign-up with a code in every registration mode, its uses counted without races.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import type { RunningServer, StartOptions } from '../../src/index.ts';
import { call, registerAndLogIn, runSql, startTestServer, TestClock, withServer, type LoggedIn, type TestResponse } from './client.ts';

const DAY = 24 * 60 * 60 * 1000;
const PASSWORD = 'correct horse battery';

/** A server in invite mode (the default) with its first account, the administrator. */
async function team(t: TestContext, options: StartOptions = {}): Promise<{ server: RunningServer; admin: LoggedIn }> {
  const server = await withServer(t, { registration: 'invite', ...options });
  return { server, admin: await registerAndLogIn(server, 'alice') };
}

function invite(server: RunningServer, who: LoggedIn, data: Record<string, unknown> = {}): Promise<TestResponse> {
  return call(server, 'POST', '/invites', { token: who.token, json: { data } });
}

function signUp(server: RunningServer, login: string, inviteCode?: string): Promise<TestResponse> {
  return call(server, 'POST', '/users', { json: inviteCode === undefined ? { login, password: PASSWORD } : { login, password: PASSWORD, inviteCode } });
}

/** Someone who signed up with a fresh invite of `by`'s and logged in. */
async function invited(server: RunningServer, by: LoggedIn, login: string, role = 'member'): Promise<LoggedIn> {
  const made = await invite(server, by, { role });
  assert.equal(made.status, 201, made.text);
  const created = await signUp(server, login, made.body.data.code);
  assert.equal(created.status, 201, created.text);
  const session = await call(server, 'POST', '/session', { json: { login, password: PASSWORD } });
  return { token: session.body.token, userId: created.body.id, login, password: PASSWORD };
}

function problemOf(res: TestResponse): unknown {
  return { status: res.status, code: res.body?.code, errors: res.body?.errors };
}

test('an administrator\'s invite: 201 with Location, the code and its join URL shown once, sensible defaults', async (t) => {
  const clock = new TestClock();
  const { server, admin } = await team(t, { clock });
  const res = await invite(server, admin);
  assert.equal(res.status, 201, res.text);
  assert.equal(res.headers['content-type'], 'application/json');
  const data = res.body.data;
  assert.equal(res.headers['location'], `/invites/${data.id}`);
  assert.match(data.code, /^[A-Za-z0-9_-]{32}$/, '24 random bytes in base64url: 192 bits');
  assert.deepEqual(data, {
    id: data.id, code: data.code, url: `${server.url}/join/${data.code}`, maxUses: 1, uses: 0,
    expiresAt: new Date(clock.time + 7 * DAY).toISOString(), role: 'member', createdBy: admin.userId,
    createdAt: new Date(clock.time).toISOString(), revokedAt: null,
  });
  const read = await call(server, 'GET', `/invites/${data.id}`, { token: admin.token });
  assert.equal(read.status, 200);
  assert.deepEqual(read.body.data, { ...data, code: null, url: null }, 'never shown again');
  const list = await call(server, 'GET', '/invites', { token: admin.token });
  assert.deepEqual(list.body, { data: [{ ...data, code: null, url: null }], meta: { total: 1, limit: 20, offset: 0 } });
  // Two invites never share a code.
  const other = await invite(server, admin, { maxUses: null, expiresAt: null, role: 'admin' });
  assert.notEqual(other.body.data.code, data.code);
  assert.deepEqual([other.body.data.maxUses, other.body.data.expiresAt, other.body.data.role], [null, null, 'admin']);
});

test('the join URL is the public URL and the base path, never the Host the client sent', async (t) => {
  const { server, admin } = await team(t, { basePath: '/api', publicUrl: 'https://chat.example' });
  const res = await call(server, 'POST', '/api/invites', { token: admin.token, json: { data: {} }, headers: { host: 'evil.example' } });
  assert.equal(res.status, 201, res.text);
  assert.equal(res.body.data.url, `https://chat.example/api/join/${res.body.data.code}`);
  assert.equal(res.headers['location'], `/api/invites/${res.body.data.id}`);
});

test('a new invite\'s fields are checked, each problem naming its field', async (t) => {
  const clock = new TestClock();
  const { server, admin } = await team(t, { clock });
  const cases: [unknown, string][] = [
    [{ data: { maxUses: 0 } }, 'data.maxUses'],
    [{ data: { maxUses: 1.5 } }, 'data.maxUses'],
    [{ data: { maxUses: '5' } }, 'data.maxUses'],
    [{ data: { maxUses: 10_001 } }, 'data.maxUses'],
    [{ data: { expiresAt: new Date(clock.time - 1).toISOString() } }, 'data.expiresAt'],
    [{ data: { expiresAt: new Date(clock.time).toISOString() } }, 'data.expiresAt'],
    [{ data: { expiresAt: 'tomorrow' } }, 'data.expiresAt'],
    [{ data: { expiresAt: 1_900_000_000_000 } }, 'data.expiresAt'],
    [{ data: { role: 'owner' } }, 'data.role'],
    [{ data: { code: 'mine' } }, 'data.code'],
    [{ maxUses: 2 }, 'data'],
  ];
  for (const [body, field] of cases) {
    const res = await call(server, 'POST', '/invites', { token: admin.token, json: body });
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.equal(res.body.code, 'ERR_VALIDATION');
    assert.equal(res.body.errors[0].field, field, JSON.stringify(body));
  }
  const later = await invite(server, admin, { maxUses: 10_000, expiresAt: new Date(clock.time + 1).toISOString() });
  assert.equal(later.status, 201);
  assert.equal((await call(server, 'GET', '/invites', { token: admin.token })).body.meta.total, 1, 'nothing else was made');
  assert.equal((await call(server, 'POST', '/invites', { json: { data: {} } })).status, 401);
});

test('members invite too, as members only and never someone else\'s invites; --members-invite off keeps it to admins', async (t) => {
  const { server, admin } = await team(t);
  const bob = await invited(server, admin, 'bob');
  const own = await invite(server, bob);
  assert.equal(own.status, 201, own.text);
  assert.equal(own.body.data.createdBy, bob.userId);
  const promoted = await invite(server, bob, { role: 'admin' });
  assert.deepEqual(problemOf(promoted), { status: 403, code: 'ERR_FORBIDDEN', errors: [{ field: 'data.role', message: 'may be "admin" only in an administrator\'s invite' }] });
  // bob sees his own invite only; alice sees both of hers and his.
  const bobs = await call(server, 'GET', '/invites', { token: bob.token });
  assert.deepEqual(bobs.body.data.map((item: { id: string }) => item.id), [own.body.data.id]);
  const alices = await call(server, 'GET', '/invites?sort=createdAt&order=asc', { token: admin.token });
  assert.equal(alices.body.meta.total, 2);
  const hers = alices.body.data[0].id;
  assert.equal((await call(server, 'GET', `/invites/${hers}`, { token: bob.token })).status, 404);
  assert.equal((await call(server, 'DELETE', `/invites/${hers}`, { token: bob.token })).status, 404);
  assert.equal((await call(server, 'GET', `/invites/${own.body.data.id}`, { token: admin.token })).status, 200);
  assert.equal((await call(server, 'DELETE', `/invites/${own.body.data.id}`, { token: admin.token })).status, 204, 'an admin revokes anyone\'s');
  // Filters and sorting as on every collection (docs/protocol.md §6).
  const byBob = await call(server, 'GET', `/invites?createdBy=${bob.userId}`, { token: admin.token });
  assert.equal(byBob.status, 200, byBob.text);
  assert.deepEqual(byBob.body.data.map((item: { id: string }) => item.id), [own.body.data.id]);
  assert.equal((await call(server, 'GET', '/invites?role=admin', { token: admin.token })).body.meta.total, 0);
  assert.equal((await call(server, 'GET', '/invites?nope=1', { token: admin.token })).status, 400);

  const closedShop = await withServer(t, { registration: 'invite', membersInvite: false });
  const boss = await registerAndLogIn(closedShop, 'boss');
  const worker = await invited(closedShop, boss, 'worker');
  assert.deepEqual(problemOf(await invite(closedShop, worker)), { status: 403, code: 'ERR_FORBIDDEN', errors: undefined });
  assert.equal((await invite(closedShop, boss)).status, 201);
  // The pages say so: a member's list of invites offers no form that would answer 403.
  const workerPage = await call(closedShop, 'GET', '/invites', { token: worker.token, headers: { accept: 'text/html' } });
  assert.match(workerPage.text, /Only administrators invite people on this server\./);
  assert.doesNotMatch(workerPage.text, />Create invite</);
  const bossPage = await call(closedShop, 'GET', '/invites', { token: boss.token, headers: { accept: 'text/html' } });
  assert.match(bossPage.text, />Create invite</);
});

test('DELETE revokes: 204 (again 204), the code stops working, the invite stays listed with revokedAt; both audited', async (t) => {
  const clock = new TestClock();
  const { server, admin } = await team(t, { clock });
  const made = (await invite(server, admin, { maxUses: 5 })).body.data;
  clock.advance(1000);
  const stale = await call(server, 'DELETE', `/invites/${made.id}`, { token: admin.token, headers: { 'if-match': '"not-the-tag"' } });
  assert.deepEqual([stale.status, stale.body.code], [412, 'ERR_PRECONDITION_FAILED']);
  const etag = String((await call(server, 'GET', `/invites/${made.id}`, { token: admin.token })).headers['etag']);
  const first = await call(server, 'DELETE', `/invites/${made.id}`, { token: admin.token, headers: { 'if-match': etag } });
  assert.deepEqual([first.status, first.text], [204, '']);
  clock.advance(1000);
  assert.equal((await call(server, 'DELETE', `/invites/${made.id}`, { token: admin.token })).status, 204);
  const read = await call(server, 'GET', `/invites/${made.id}`, { token: admin.token });
  assert.equal(read.body.data.revokedAt, new Date(clock.time - 1000).toISOString(), 'the first revocation counts');
  assert.deepEqual(problemOf(await signUp(server, 'bob', made.code)), { status: 403, code: 'ERR_INVITE_REVOKED', errors: [{ field: 'inviteCode', message: 'was revoked' }] });
  assert.equal((await call(server, 'DELETE', '/invites/01NOPE', { token: admin.token })).status, 404);
  const audit = await call(server, 'GET', '/audit?sort=at&order=asc', { token: admin.token });
  const actions = audit.body.data.map((entry: Record<string, unknown>) => [entry['action'], entry['actorId'], entry['targetType'], entry['targetId']]);
  assert.deepEqual(actions, [['invite.create', admin.userId, 'invite', made.id], ['invite.revoke', admin.userId, 'invite', made.id]]);
});

test('invite mode: a sign-up needs a usable code, and the refusal says which problem', async (t) => {
  const clock = new TestClock();
  const { server, admin } = await team(t, { clock });
  assert.deepEqual(problemOf(await signUp(server, 'bob')), { status: 403, code: 'ERR_INVITE_REQUIRED', errors: [{ field: 'inviteCode', message: 'is required' }] });
  assert.deepEqual(problemOf(await signUp(server, 'bob', 'not-a-code')), { status: 403, code: 'ERR_INVITE_INVALID', errors: [{ field: 'inviteCode', message: 'is not a known invite code' }] });
  const soon = (await invite(server, admin, { expiresAt: new Date(clock.time + 60_000).toISOString() })).body.data;
  const once = (await invite(server, admin, { maxUses: 1 })).body.data;
  assert.equal((await signUp(server, 'bob', once.code)).status, 201);
  assert.deepEqual(problemOf(await signUp(server, 'carol', once.code)), { status: 403, code: 'ERR_INVITE_USED_UP', errors: [{ field: 'inviteCode', message: 'has been used as many times as it allows' }] });
  clock.advance(60_000);
  assert.deepEqual(problemOf(await signUp(server, 'carol', soon.code)), { status: 403, code: 'ERR_INVITE_EXPIRED', errors: [{ field: 'inviteCode', message: 'has expired' }] });
  const bad = await signUp(server, 'x', once.code);
  assert.equal(bad.status, 400, 'the fields are checked first');
  assert.equal((await call(server, 'GET', '/users', { token: admin.token })).body.meta.total, 2);
});

test('the new account gets the invite\'s role; its use is counted and audited with the newcomer as actor', async (t) => {
  const { server, admin } = await team(t);
  const made = (await invite(server, admin, { maxUses: 3, role: 'admin' })).body.data;
  const bob = await signUp(server, 'bob', made.code);
  assert.equal(bob.status, 201, bob.text);
  assert.equal(bob.body.role, 'admin');
  const member = (await invite(server, admin)).body.data;
  const carol = await signUp(server, 'carol', member.code);
  assert.equal(carol.body.role, 'member');
  assert.equal((await call(server, 'GET', `/invites/${made.id}`, { token: admin.token })).body.data.uses, 1);
  // A sign-up refused after the code was checked (a taken login) gives its use back.
  assert.equal((await signUp(server, 'BOB', made.code)).status, 409);
  assert.equal((await call(server, 'GET', `/invites/${made.id}`, { token: admin.token })).body.data.uses, 1);
  const audit = await call(server, 'GET', '/audit?action=invite.use&sort=at&order=asc', { token: admin.token });
  assert.deepEqual(audit.body.data.map((entry: Record<string, unknown>) => [entry['actorId'], entry['targetId']]), [[bob.body.id, made.id], [carol.body.id, member.id]]);
});

test('the invites of a deactivated account stop working with it, and work again when it is reactivated', async (t) => {
  const { server, admin } = await team(t);
  const bob = await invited(server, admin, 'bob');
  const his = (await invite(server, bob, { maxUses: 5 })).body.data;
  assert.equal((await call(server, 'PATCH', `/users/${bob.userId}`, { token: admin.token, json: { active: false } })).status, 200);
  assert.deepEqual(problemOf(await signUp(server, 'carol', his.code)), { status: 403, code: 'ERR_INVITE_REVOKED', errors: [{ field: 'inviteCode', message: 'was revoked' }] });
  assert.equal((await call(server, 'GET', `/join/${his.code}`)).body.code, 'ERR_INVITE_REVOKED');
  assert.equal((await call(server, 'PATCH', `/users/${bob.userId}`, { token: admin.token, json: { active: true } })).status, 200);
  assert.equal((await signUp(server, 'carol', his.code)).status, 201);
});

test('two sign-ups racing for the last use: exactly one wins; six for three uses: exactly three', async (t) => {
  const { server, admin } = await team(t);
  const last = (await invite(server, admin, { maxUses: 1 })).body.data;
  const pair = await Promise.all([signUp(server, 'racer1', last.code), signUp(server, 'racer2', last.code)]);
  assert.deepEqual(pair.map((res) => res.status).sort(), [201, 403]);
  assert.equal(pair.find((res) => res.status === 403)!.body.code, 'ERR_INVITE_USED_UP');
  const three = (await invite(server, admin, { maxUses: 3 })).body.data;
  const six = await Promise.all(['r1', 'r2', 'r3', 'r4', 'r5', 'r6'].map((login) => signUp(server, `six-${login}`, three.code)));
  assert.equal(six.filter((res) => res.status === 201).length, 3);
  assert.ok(six.filter((res) => res.status !== 201).every((res) => res.body.code === 'ERR_INVITE_USED_UP'));
  const rows = await runSql(server, `SELECT uses FROM invites WHERE id IN ('${last.id}', '${three.id}') ORDER BY id`);
  assert.deepEqual(rows.map((row) => Number(row['uses'])), [1, 3]);
  assert.equal((await call(server, 'GET', '/users', { token: admin.token })).body.meta.total, 5);
});

test('open mode: no code needed, a code given still gives its role (and must be usable); closed mode: codes open nothing', async (t) => {
  const open = await withServer(t, { registration: 'open' });
  const admin = await registerAndLogIn(open, 'alice');
  assert.equal((await signUp(open, 'bob')).status, 201);
  const made = (await invite(open, admin, { role: 'admin' })).body.data;
  const carol = await signUp(open, 'carol', made.code);
  assert.deepEqual([carol.status, carol.body.role], [201, 'admin']);
  assert.equal((await signUp(open, 'dave', made.code)).body.code, 'ERR_INVITE_USED_UP');
  assert.equal((await signUp(open, 'dave', 'nonsense')).body.code, 'ERR_INVITE_INVALID');

  const closed = await withServer(t, { registration: 'closed' });
  const boss = await registerAndLogIn(closed, 'boss');
  const code = (await invite(closed, boss)).body.data.code;
  const refused = await signUp(closed, 'eve', code);
  assert.equal(refused.status, 403);
  assert.equal((await call(closed, 'GET', `/invites`, { token: boss.token })).body.data[0].uses, 0);
  const byAdmin = await call(closed, 'POST', '/users', { token: boss.token, json: { login: 'eve', password: PASSWORD } });
  assert.equal(byAdmin.status, 201);
});

test('the code is stored only as its SHA-256: neither the code nor its bytes are in the database files', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'chat-invites-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const server = await startTestServer({ db: join(dir, 'chat.db'), registration: 'invite' });
  const admin = await registerAndLogIn(server, 'alice');
  const codes: string[] = [];
  for (let i = 0; i < 3; i++) codes.push((await invite(server, admin, { maxUses: 2 })).body.data.code);
  assert.equal((await signUp(server, 'bob', codes[0])).status, 201);
  const stored = await runSql(server, 'SELECT hex(code_hash) AS h FROM invites ORDER BY id');
  assert.deepEqual(stored.map((row) => row['h']), codes.map((code) => createHash('sha256').update(code).digest('hex').toUpperCase()));
  await server.close();
  for (const bytes of readdirSync(dir).map((file) => readFileSync(join(dir, file)))) {
    for (const code of codes) {
      assert.equal(bytes.includes(Buffer.from(code)), false);
      assert.equal(bytes.includes(Buffer.from(code, 'base64url')), false, 'nor its raw bytes');
    }
  }
});
