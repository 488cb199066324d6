// Deactivation over HTTP (docs/protocol.md §13.4): an admin deactivates an account, its sessions end at once with
// their streams and long-polls, its login answers 403 only to the right password, and user.updated reaches exactly
// those who share a chat with the user, live and in every replay.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RunningServer } from '../../src/index.ts';
import { call, registerAndLogIn, TestClock, withServer, type LoggedIn } from './client.ts';
import { createChat, postMessage } from './chat-fixtures.ts';
import { openReady, type EventStream } from './event-stream.ts';

const BOB_DEACTIVATED = {
  type: 'https://chat-api.invalid/problems/account-deactivated', title: 'Account deactivated', status: 403,
  detail: 'This account has been deactivated by an admin', code: 'ERR_ACCOUNT_DEACTIVATED',
};

function setActive(server: RunningServer, admin: LoggedIn, user: LoggedIn, active: unknown) {
  return call(server, 'PATCH', `/users/${user.userId}`, { token: admin.token, json: { active } });
}

function logIn(server: RunningServer, user: LoggedIn, password = user.password) {
  return call(server, 'POST', '/session', { json: { login: user.login, password } });
}

/** Every event a user may read from 0, by long-poll, page after page: what a replay gives them. */
async function replayFromZero(server: RunningServer, user: LoggedIn): Promise<{ type: string; chatId: string | null; data: Record<string, unknown> }[]> {
  const seen = [];
  for (let after = '0'; ;) {
    const res = await call(server, 'GET', `/events?after=${after}&wait=0`, { token: user.token });
    assert.equal(res.status, 200, res.text);
    for (const event of res.body.data) seen.push({ type: event.type, chatId: event.chatId, data: event.data });
    if (res.body.data.length === 0) return seen;
    after = res.body.meta.lastEventId;
  }
}

async function auditActions(server: RunningServer, admin: LoggedIn): Promise<string[]> {
  const log = await call(server, 'GET', '/audit?sort=at', { token: admin.token });
  assert.equal(log.status, 200);
  return log.body.data.map((entry: { action: string; targetId: string; actorId: string }) => `${entry.action} ${entry.targetId} by ${entry.actorId}`);
}

test('an admin deactivates a user: 200, every token 401 at once, the streams and long-polls end, the messages stay', async (t) => {
  const clock = new TestClock();
  const server = await withServer(t, { clock });
  const admin = await registerAndLogIn(server, 'admin');
  const alice = await registerAndLogIn(server, 'alice');
  const bob = await registerAndLogIn(server, 'bob');
  const chat = await createChat(server, alice, { title: 'Team', members: [bob.userId] });
  const said = await postMessage(server, bob, chat.id, { text: 'before' });
  const second = (await logIn(server, bob)).body;
  const stream = await openReady(server, { token: bob.token });
  t.after(() => stream.close());
  const poll = call(server, 'GET', '/events?wait=25', { token: second.token });
  // The long-poll waits (it is attached) before the deactivation.
  await waitFor(() => server.app.services.events.streamCount(bob.userId) === 1 && pollsWaiting(server, bob.userId));

  clock.advance(1000);
  const res = await setActive(server, admin, bob, false);
  assert.equal(res.status, 200, res.text);
  assert.equal(res.headers['content-type'], 'application/json');
  const at = new Date(clock.time).toISOString();
  assert.deepEqual(res.body, { id: bob.userId, login: 'bob', avatar: null, role: 'member', active: false, kind: 'user', ownerId: null, presence: 'offline', createdAt: res.body.createdAt, updatedAt: at });

  for (const token of [bob.token, second.token]) {
    const refused = await call(server, 'GET', '/session', { token });
    assert.equal(refused.status, 401);
    assert.equal(refused.headers['www-authenticate'], 'Bearer realm="chat", error="invalid_token", error_description="The token is unknown, expired or revoked"');
  }
  // At once, not at the next session check (15 s): the hub ends it as it reads the session.ended.
  await endsWithin(stream, 2000);
  // The stream's last events: the user as they are now, then the end of both sessions.
  const last = stream.logEvents.map((event) => ({ type: event.type, chatId: event.json.chatId, data: event.json.data }));
  const ended = last.at(-1)!;
  // The event carries the user without presence, which is computed when answered (docs/protocol.md §14.6).
  const { presence: _presence, ...stored } = res.body;
  assert.deepEqual(last, [
    { type: 'user.updated', chatId: null, data: stored },
    { type: 'session.ended', chatId: null, data: { userId: bob.userId, ids: ended.data['ids'] } },
  ]);
  assert.equal((ended.data['ids'] as string[]).length, 2, 'both of his sessions');
  const polled = await poll;
  assert.equal(polled.status, 200);
  assert.deepEqual(polled.body.data.map((event: { type: string }) => event.type), ['user.updated', 'session.ended']);
  assert.equal((await openEventsStatus(server, bob)), 401, 'a new stream is refused');

  // Their messages stay, with their name, and they still count as the chat's member.
  const message = await call(server, 'GET', `/chats/${chat.id}/messages/${said.id}`, { token: alice.token });
  assert.deepEqual(message.body.data, said);
  const html = await call(server, 'GET', `/chats/${chat.id}/messages`, { token: alice.token, headers: { accept: 'text/html' } });
  assert.equal(html.status, 200);
  assert.match(html.text, /<bdi>bob<\/bdi><\/a> <span class="deactivated">\(deactivated\)<\/span>/);
  assert.deepEqual(await auditActions(server, admin), [`user.deactivate ${bob.userId} by ${admin.userId}`]);
});

test('a deactivated login answers 403 only to the right password; a wrong one gets the usual 401; reactivation restores it', async (t) => {
  const clock = new TestClock();
  const server = await withServer(t, { clock });
  const admin = await registerAndLogIn(server, 'admin');
  const bob = await registerAndLogIn(server, 'bob');
  assert.equal((await setActive(server, admin, bob, false)).status, 200);

  const wrong = await logIn(server, bob, 'not the password');
  assert.equal(wrong.status, 401);
  assert.equal(wrong.body.code, 'ERR_BAD_CREDENTIALS');
  const right = await logIn(server, bob);
  assert.equal(right.status, 403);
  assert.equal(right.headers['content-type'], 'application/problem+json');
  assert.equal(right.headers['set-cookie'], undefined);
  assert.deepEqual(right.body, BOB_DEACTIVATED);
  // The HTML login form says so too, with the login kept.
  const form = await call(server, 'POST', '/session', {
    body: `login=bob&password=${encodeURIComponent(bob.password)}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html', origin: server.url },
    unchecked: 'an HTML form post (docs/html.md) is outside the OpenAPI document, which describes the JSON exchange',
  });
  assert.equal(form.status, 403);
  assert.equal(form.headers['set-cookie'], undefined);
  assert.match(form.text, /This account has been deactivated by an admin/);
  assert.match(form.text, /value="bob"/);

  clock.advance(1000);
  const restored = await setActive(server, admin, bob, true);
  assert.equal(restored.status, 200);
  assert.equal(restored.body.active, true);
  assert.equal((await call(server, 'GET', '/session', { token: bob.token })).status, 401, 'the old sessions stay ended');
  const again = await logIn(server, bob);
  assert.equal(again.status, 201);
  assert.equal((await call(server, 'GET', '/session', { token: again.body.token })).status, 200);
  assert.deepEqual(await auditActions(server, admin), [`user.deactivate ${bob.userId} by ${admin.userId}`, `user.reactivate ${bob.userId} by ${admin.userId}`]);
});

test('only an admin deactivates; the last active admin cannot be deactivated; active is a boolean; the same value changes nothing', async (t) => {
  const server = await withServer(t);
  const admin = await registerAndLogIn(server, 'admin');
  const bob = await registerAndLogIn(server, 'bob');
  const carol = await registerAndLogIn(server, 'carol');
  const byMember = await setActive(server, bob, carol, false);
  assert.equal(byMember.status, 403);
  assert.equal(byMember.body.code, 'ERR_FORBIDDEN');
  assert.equal((await setActive(server, bob, bob, false)).status, 403, 'a member cannot deactivate themself either');

  const last = await setActive(server, admin, admin, false);
  assert.equal(last.status, 409);
  assert.deepEqual(last.body, {
    type: 'https://chat-api.invalid/problems/last-admin', title: 'The last active admin must stay', status: 409,
    detail: 'The last active admin cannot be deactivated: promote another user first', code: 'ERR_LAST_ADMIN',
    errors: [{ field: 'active', message: 'would leave no active admin' }],
  });
  assert.equal((await call(server, 'GET', '/session', { token: admin.token })).status, 200, 'nothing changed');

  const bad = await setActive(server, admin, bob, 'no');
  assert.equal(bad.status, 400);
  assert.deepEqual(bad.body.errors, [{ field: 'active', message: 'must be true or false' }]);

  const before = server.app.services.events.newestId;
  const same = await setActive(server, admin, bob, true);
  assert.equal(same.status, 200);
  assert.equal(same.body.active, true);
  assert.equal(server.app.services.events.newestId, before, 'no event for a change that changes nothing');
  assert.deepEqual(await auditActions(server, admin), []);

  // With a second admin, an admin may step away: their own sessions end with the answer.
  assert.equal((await call(server, 'PATCH', `/users/${bob.userId}`, { token: admin.token, json: { role: 'admin' } })).status, 200);
  const self = await setActive(server, admin, admin, false);
  assert.equal(self.status, 200);
  assert.equal(self.body.active, false);
  assert.equal((await call(server, 'GET', '/session', { token: admin.token })).status, 401);
  assert.equal((await setActive(server, bob, bob, false)).status, 409, 'bob is the last active admin now');
});

test('user.updated reaches the user and everyone sharing a chat, once each, and no one else: live and in replays', async (t) => {
  const server = await withServer(t);
  const admin = await registerAndLogIn(server, 'admin');
  const alice = await registerAndLogIn(server, 'alice');
  const bob = await registerAndLogIn(server, 'bob');
  const carol = await registerAndLogIn(server, 'carol');
  const dave = await registerAndLogIn(server, 'dave');
  // Alice shares two chats with bob; carol shares none; dave joins one of them only after the change.
  const first = await createChat(server, alice, { title: 'One', members: [bob.userId] });
  await createChat(server, bob, { title: 'Two', members: [alice.userId] });
  await createChat(server, carol, { title: 'Carol alone' });
  const streams: Record<string, EventStream> = {};
  for (const [name, user] of Object.entries({ admin, alice, bob, carol })) streams[name] = await openReady(server, { token: user.token });
  t.after(() => Object.values(streams).forEach((stream) => stream.close()));
  const mark = server.app.services.events.newestId;

  const promoted = await call(server, 'PATCH', `/users/${bob.userId}`, { token: admin.token, json: { role: 'admin' } });
  assert.equal(promoted.status, 200);
  const demoted = await call(server, 'PATCH', `/users/${bob.userId}`, { token: admin.token, json: { role: 'member' } });
  assert.equal(demoted.status, 200);
  assert.equal((await call(server, 'PUT', `/chats/${first.id}/members/${dave.userId}`, { token: alice.token })).status, 204);
  // Something every stream that follows a chat receives, after the user.updated: the end of what there is to wait for.
  for (const [name, user] of Object.entries({ admin, alice, bob, carol })) await createChat(server, user, { title: `After ${name}` });

  // An event carries the user without presence, which is computed when answered (docs/protocol.md §14.6).
  const stored = ({ presence: _presence, ...user }: Record<string, unknown>): Record<string, unknown> => user;
  const expected = [{ type: 'user.updated', data: stored(promoted.body) }, { type: 'user.updated', data: stored(demoted.body) }];
  const live: Record<string, unknown[]> = {};
  for (const [name, stream] of Object.entries(streams)) {
    await stream.until((s) => s.logEvents.some((event) => event.type === 'chat.created' && event.json.data.title === `After ${name}`), `${name}'s own chat`);
    live[name] = stream.logEvents.filter((event) => Number(event.id) > mark && event.type === 'user.updated')
      .map((event) => ({ type: event.type, data: event.json.data, chatId: event.json.chatId }));
  }
  const withChat = expected.map((event) => ({ ...event, chatId: null }));
  assert.deepEqual(live, { admin: [], alice: withChat, bob: withChat, carol: [] });

  // A replay from 0 gives each exactly what they could have received live; dave, added later, gets none of it.
  for (const [name, user, wanted] of [['alice', alice, withChat], ['bob', bob, withChat], ['carol', carol, []], ['admin', admin, []], ['dave', dave, []]] as const) {
    const replayed = (await replayFromZero(server, user)).filter((event) => event.type === 'user.updated');
    assert.deepEqual(replayed, wanted, name);
    const sse = await openReady(server, { token: user.token, lastEventId: '0' });
    sse.close();
    assert.deepEqual(sse.logEvents.filter((event) => event.type === 'user.updated').map((event) => ({ type: event.type, data: event.json.data, chatId: event.json.chatId })), wanted, `${name} (SSE)`);
  }
});

async function endsWithin(stream: EventStream, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`the stream was still open after ${ms} ms`)), ms); });
  try {
    await Promise.race([stream.ended, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The status a new event stream of the user gets. */
async function openEventsStatus(server: RunningServer, user: LoggedIn): Promise<number> {
  const res = await call(server, 'GET', '/events', { token: user.token, headers: { accept: 'text/event-stream' } });
  return res.status;
}

/** Whether a long-poll of the user is attached to the hub (it counts no stream, but keeps the user followed). */
function pollsWaiting(server: RunningServer, userId: string): boolean {
  return (server.app.services.events as unknown as { subscribers: { all(): { userId: string; kind: string }[] } }).subscribers.all()
    .some((subscriber) => subscriber.userId === userId && subscriber.kind === 'poll');
}

async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setImmediate(resolve));
  }
}
