// DELETE /users/{id} (docs/protocol.md §3.7): the account erased for good, by the user with their password or by an
// administrator; their messages deleted (their events purged) unless kept as by "deleted user"; chats handed over.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RunningServer } from '../../src/index.ts';
import { createChat, postMessage } from './chat-fixtures.ts';
import { call, registerAndLogIn, runSql, TestClock, withServer, type LoggedIn, type TestResponse } from './client.ts';
import { openReady } from './event-stream.ts';

const FORM = 'application/x-www-form-urlencoded';
const UNCHECKED = 'an HTML form post (docs/protocol.md §7.3) is outside the OpenAPI document, which describes the JSON exchange';

/** DELETE /users/{id} by `by` (the user themself unless said), with their password unless `json` says otherwise (null: no body). */
function erase(server: RunningServer, user: LoggedIn, by: LoggedIn = user, json: unknown = { password: user.password }, query = ''): Promise<TestResponse> {
  return call(server, 'DELETE', `/users/${user.userId}${query}`, { token: by.token, ...(json === null ? {} : { json }) });
}

/** Every event a member may replay from the start (the long-poll, so nothing waits). */
async function replay(server: RunningServer, user: LoggedIn): Promise<{ type: string; data: Record<string, unknown> }[]> {
  const res = await call(server, 'GET', '/events?after=0&wait=0', { token: user.token });
  assert.equal(res.status, 200, res.text);
  return res.body.data;
}

test('erasing one\'s own account needs the password: missing is a 400 and wrong a 403, both naming it', async (t) => {
  const server = await withServer(t);
  await registerAndLogIn(server);
  const bob = await registerAndLogIn(server);
  const missing = await erase(server, bob, bob, null);
  assert.equal(missing.status, 400);
  assert.deepEqual(missing.body.errors, [{ field: 'password', message: 'is needed to delete your own account' }]);
  const wrong = await erase(server, bob, bob, { password: 'not it at all' });
  assert.equal(wrong.status, 403);
  assert.equal(wrong.body.code, 'ERR_WRONG_PASSWORD');
  assert.deepEqual(wrong.body.errors, [{ field: 'password', message: 'is wrong' }]);
  const unknown = await erase(server, bob, bob, { password: bob.password, reason: 'x' });
  assert.equal(unknown.status, 400);
  assert.equal((await erase(server, bob, bob, { password: bob.password }, '?keepMessages=maybe')).status, 400);
  assert.equal((await call(server, 'GET', `/users/${bob.userId}`, { token: bob.token })).status, 200, 'nothing happened');
});

test('the erased account is gone: its token, its user, its sessions; the login is free for a new account', async (t) => {
  const server = await withServer(t);
  await registerAndLogIn(server);
  const bob = await registerAndLogIn(server, 'bob');
  const carol = await registerAndLogIn(server);
  const stream = await openReady(server, { token: bob.token });
  t.after(() => stream.close());
  const res = await erase(server, bob);
  assert.equal(res.status, 204);
  assert.equal(res.raw.length, 0);
  await stream.ended;
  assert.equal((await call(server, 'GET', '/session', { token: bob.token })).status, 401);
  assert.equal((await call(server, 'GET', `/users/${bob.userId}`, { token: carol.token })).status, 404);
  assert.deepEqual(await runSql(server, `SELECT count(*) AS n FROM sessions WHERE user_id = '${bob.userId}'`), [{ n: 0 }]);
  const again = await registerAndLogIn(server, 'bob', 'another password');
  assert.notEqual(again.userId, bob.userId);
  assert.equal((await call(server, 'GET', '/users?login=bob', { token: carol.token })).body.data.length, 1);
});

test('messages are deleted with their events: a replay shows none of them; reactions go; members hear member.removed', async (t) => {
  const server = await withServer(t);
  const admin = await registerAndLogIn(server);
  const bob = await registerAndLogIn(server);
  const chat = await createChat(server, admin, { title: 'Crew', members: [bob.userId] });
  const question = await postMessage(server, admin, chat.id, { text: 'Lunch?' });
  const secret = await postMessage(server, bob, chat.id, { text: 'my secret text' });
  const edited = await call(server, 'PATCH', `/chats/${chat.id}/messages/${secret.id}`, { token: bob.token, json: { data: { text: 'my edited secret' } } });
  assert.equal(edited.status, 200);
  const reply = await postMessage(server, admin, chat.id, { text: 'Noted', replyTo: secret.id });
  assert.equal((await call(server, 'PUT', `/chats/${chat.id}/messages/${question.id}/reactions/ok`, { token: bob.token })).status, 201);
  const stream = await openReady(server, { token: admin.token });
  t.after(() => stream.close());

  assert.equal((await erase(server, bob)).status, 204);
  const history = await call(server, 'GET', `/chats/${chat.id}/messages`, { token: admin.token });
  assert.deepEqual(history.body.data.map((message: { id: string; replyTo: string | null; reactions: unknown[] }) => [message.id, message.replyTo, message.reactions]),
    [[question.id, null, []], [reply.id, null, []]]);
  const chatNow = await call(server, 'GET', `/chats/${chat.id}`, { token: admin.token });
  assert.deepEqual(chatNow.body.data.members, [admin.userId]);

  await stream.until((s) => s.logEvents.some((event) => event.type === 'chat.updated'), 'chat.updated');
  assert.deepEqual(stream.logEvents.map((event) => event.type), ['member.removed', 'chat.updated', 'reaction.removed', 'message.deleted', 'message.updated']);
  const events = await replay(server, admin);
  const text = JSON.stringify(events);
  assert.ok(!text.includes('secret'), 'no event of the erased messages keeps their text');
  assert.deepEqual(events.filter((event) => event.data['id'] === secret.id || event.data['messageId'] === secret.id).map((event) => event.type), ['message.deleted']);
  assert.ok(events.some((event) => event.type === 'member.removed' && event.data['userId'] === bob.userId));
});

test('an owned chat goes to its longest-standing member; a chat with no other member is deleted', async (t) => {
  const clock = new TestClock();
  const server = await withServer(t, { clock });
  const admin = await registerAndLogIn(server);
  const bob = await registerAndLogIn(server);
  const carol = await registerAndLogIn(server);
  const dave = await registerAndLogIn(server);
  const shared = await createChat(server, bob, { title: 'Shared', members: [dave.userId] });
  clock.advance(1000);
  // carol joins later than dave, though her id may sort first: time decides.
  assert.equal((await call(server, 'PUT', `/chats/${shared.id}/members/${carol.userId}`, { token: bob.token })).status, 204);
  const alone = await createChat(server, bob, { title: 'Alone' });
  await postMessage(server, bob, alone.id, { text: 'note to self' });
  const stream = await openReady(server, { token: carol.token });
  t.after(() => stream.close());

  assert.equal((await erase(server, bob, admin, null)).status, 204, 'an administrator needs no password');
  const after = await call(server, 'GET', `/chats/${shared.id}`, { token: carol.token });
  assert.equal(after.body.data.ownerId, dave.userId);
  assert.deepEqual(after.body.data.members, [dave.userId, carol.userId]);
  const updated = await stream.next('chat.updated');
  assert.equal(updated.json.data.ownerId, dave.userId);
  assert.deepEqual(await runSql(server, `SELECT count(*) AS n FROM chats WHERE id = '${alone.id}'`), [{ n: 0 }]);
  assert.deepEqual(await runSql(server, `SELECT count(*) AS n FROM events WHERE chat_id = '${alone.id}' AND type <> 'chat.deleted'`), [{ n: 0 }]);
  const audit = await call(server, 'GET', '/audit?action=user.erase', { token: admin.token });
  assert.deepEqual(audit.body.data.map((row: Record<string, unknown>) => [row['actorId'], row['targetId'], row['detail']]), [
    [admin.userId, bob.userId, { keepMessages: false, messagesDeleted: 0, chatsHandedOver: [shared.id], chatsDeleted: [alone.id] }],
  ]);
});

test('?keepMessages=true: the messages stay, shown as by "deleted user", and the login is free', async (t) => {
  const server = await withServer(t);
  const admin = await registerAndLogIn(server);
  const bob = await registerAndLogIn(server, 'bob');
  const chat = await createChat(server, admin, { title: 'Crew', members: [bob.userId] });
  const kept = await postMessage(server, bob, chat.id, { text: 'still here' });
  assert.equal((await call(server, 'POST', '/invites', { token: bob.token, json: { data: {} } })).status, 201);
  assert.equal((await erase(server, bob, bob, { password: bob.password }, '?keepMessages=true')).status, 204);
  assert.deepEqual(await runSql(server, `SELECT count(*) AS n FROM invites WHERE created_by = '${bob.userId}'`), [{ n: 0 }], 'their invites go too');
  const message = await call(server, 'GET', `/chats/${chat.id}/messages/${kept.id}`, { token: admin.token });
  assert.equal(message.status, 200);
  assert.deepEqual(message.body.data, kept);
  assert.equal((await call(server, 'GET', `/users/${bob.userId}`, { token: admin.token })).status, 404);
  assert.deepEqual((await call(server, 'GET', `/users?login=bob`, { token: admin.token })).body.data, []);
  const page = await call(server, 'GET', `/chats/${chat.id}/messages`, { token: admin.token, headers: { accept: 'text/html' } });
  assert.ok(page.text.includes('<span class="user erased">deleted user</span>'), 'the HTML names the author "deleted user"');
  assert.ok(!page.text.includes('>bob<'));
  const members = await call(server, 'PUT', `/chats/${chat.id}/members/${bob.userId}`, { token: admin.token });
  assert.equal(members.status, 400, 'an erased account cannot be added back');
  assert.equal((await registerAndLogIn(server, 'bob', 'a new password')).login, 'bob');
});

test('the last active administrator cannot erase themself; another user cannot erase anyone', async (t) => {
  const server = await withServer(t);
  const admin = await registerAndLogIn(server);
  const bob = await registerAndLogIn(server);
  const last = await erase(server, admin);
  assert.equal(last.status, 409);
  assert.equal(last.body.code, 'ERR_LAST_ADMIN');
  const refused = await erase(server, admin, bob, null);
  assert.equal(refused.status, 403);
  assert.equal(refused.body.detail, 'Only the user themself or an administrator may delete the account');
  // A second admin who erases themself, keeping their messages, leaves a row that counts as no admin.
  assert.equal((await call(server, 'PATCH', `/users/${bob.userId}`, { token: admin.token, json: { role: 'admin' } })).status, 200);
  assert.equal((await erase(server, bob, bob, { password: bob.password }, '?keepMessages=true')).status, 204);
  assert.equal((await erase(server, admin)).status, 409);
});

test('the "Delete my account" form on one\'s own page: the password beside its field when wrong, else 303 to the start', async (t) => {
  const server = await withServer(t);
  await registerAndLogIn(server);
  const erin = await registerAndLogIn(server, 'erin', 'erin password');
  const login = await call(server, 'POST', '/session', {
    body: new URLSearchParams({ login: 'erin', password: 'erin password' }).toString(), headers: { 'content-type': FORM, origin: server.url },
  });
  const cookie = String(login.headers['set-cookie']).split(';')[0]!;
  const page = await call(server, 'GET', `/users/${erin.userId}`, { headers: { cookie, accept: 'text/html' } });
  assert.ok(page.text.includes(`href="/users/${erin.userId}/sessions">Your sessions</a>`));
  assert.ok(page.text.includes(`href="/users/${erin.userId}/export">Download my data</a>`));
  assert.ok(page.text.includes('>Delete my account</button>'));
  const post = (password: string) => call(server, 'POST', `/users/${erin.userId}`, {
    body: new URLSearchParams({ _method: 'DELETE', password, _confirm: 'yes' }).toString(),
    headers: { 'content-type': FORM, origin: server.url, cookie, accept: 'text/html' },
    unchecked: UNCHECKED,
  });
  const wrong = await post('wrong password');
  assert.equal(wrong.status, 403);
  assert.ok(wrong.text.includes('Your password: is wrong'), wrong.text);
  const done = await post('erin password');
  assert.equal(done.status, 303);
  assert.equal(done.headers['location'], '/');
  assert.match(String(done.headers['set-cookie']), /^session=; HttpOnly; SameSite=Strict; Path=\/; Max-Age=0/);
  assert.equal((await call(server, 'GET', `/users/${erin.userId}`, { token: erin.token })).status, 401);
});
