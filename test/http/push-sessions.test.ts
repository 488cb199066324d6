// Web Push and the session (docs/protocol.md §17.2, §17.3): a session's end removes its subscriptions, an open page
// holds pushes back until it says it is hidden; the service worker and the pages' controls (docs/html.md).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { postMessage } from './chat-fixtures.ts';
import { call, registerAndLogIn } from './client.ts';
import { setUp, subscribe, until } from './push-fixtures.ts';

test('a session\'s end removes its subscriptions: logout, a password change, deactivation, erasure', { timeout: 30_000 }, async (t) => {
  const { server, push } = await setUp(t);
  const admin = await registerAndLogIn(server, 'admin');
  const bob = await registerAndLogIn(server, 'bob');
  const other = (await call(server, 'POST', '/session', { json: { login: 'bob', password: bob.password } })).body.token as string;
  const list = async (token: string) => (await call(server, 'GET', '/push-subscriptions', { token })).body.data.length;
  await subscribe(server, push, bob, 'bob-1');
  assert.equal(await list(other), 1, 'listed from another session of the same person');
  assert.equal((await call(server, 'DELETE', '/session', { token: bob.token })).status, 204);
  assert.equal(await list(other), 0, 'logout');
  await subscribe(server, push, { ...bob, token: other }, 'bob-2');
  const third = (await call(server, 'POST', '/session', { json: { login: 'bob', password: bob.password } })).body.token as string;
  assert.equal((await call(server, 'PATCH', `/users/${bob.userId}`, { token: third, json: { password: 'another good password', currentPassword: bob.password } })).status, 200);
  assert.equal(await list(third), 0, 'a password change ends the other sessions');
  await subscribe(server, push, { ...bob, token: third }, 'bob-3');
  assert.equal((await call(server, 'PATCH', `/users/${bob.userId}`, { token: admin.token, json: { active: false } })).status, 200);
  const rows = await server.app.services.storage.push.listPushSubscriptionsOfUser(bob.userId);
  assert.deepEqual(rows, [], 'deactivation');
  const carol = await registerAndLogIn(server, 'carol');
  await subscribe(server, push, carol);
  assert.equal((await call(server, 'DELETE', `/users/${carol.userId}`, { token: carol.token, json: { password: carol.password } })).status, 204);
  assert.deepEqual(await server.app.services.storage.push.listPushSubscriptionsOfUser(carol.userId), [], 'erasure');
});

test('an open stream of the session holds its pushes back, unless the page said it is hidden', { timeout: 30_000 }, async (t) => {
  const { server, push } = await setUp(t);
  const alice = await registerAndLogIn(server, 'alice');
  const bob = await registerAndLogIn(server, 'bob');
  await subscribe(server, push, bob);
  const direct = (await call(server, 'POST', '/chats', { token: alice.token, json: { data: { kind: 'direct', members: [bob.userId] } } })).body.data;
  const controller = new AbortController();
  t.after(() => controller.abort());
  const stream = await fetch(`${server.url}/events`, { headers: { authorization: `Bearer ${bob.token}`, accept: 'text/event-stream' }, signal: controller.signal });
  assert.equal(stream.status, 200);
  await until(() => server.app.services.events.streamCount(bob.userId) === 1, 'the stream');
  await postMessage(server, alice, direct.id, { text: 'seen on the page' });
  await server.app.services.outbound.loop.idle();
  await new Promise((resolve) => setImmediate(resolve));
  await server.app.services.outbound.loop.idle();
  assert.equal(push.received.length, 0, 'the open page shows it');
  assert.equal((await call(server, 'POST', '/push/visibility', { token: bob.token, json: { hidden: true } })).status, 204);
  await postMessage(server, alice, direct.id, { text: 'the page is hidden' });
  await push.waitFor(1);
  assert.equal(push.received[0]!.notice.text, 'the page is hidden');
  controller.abort();
});

test('GET /sw.js: the service worker as JavaScript, scope /; your page offers Notify me (scripted) and a test form (not)', { timeout: 30_000 }, async (t) => {
  const { server } = await setUp(t);
  const sw = await call(server, 'GET', '/sw.js');
  assert.equal(sw.status, 200);
  assert.equal(sw.headers['content-type'], 'text/javascript; charset=utf-8');
  assert.equal(sw.headers['service-worker-allowed'], '/');
  assert.equal(sw.headers['content-security-policy'], "default-src 'none'");
  assert.match(sw.text, /addEventListener\('push'/);
  assert.match(sw.text, /addEventListener\('notificationclick'/);
  const alice = await registerAndLogIn(server, 'alice');
  const page = await call(server, 'GET', `/users/${alice.userId}`, { token: alice.token, headers: { accept: 'text/html' } });
  assert.match(String(page.headers['content-security-policy']), /worker-src 'self'/);
  assert.match(page.text, /<button type="button" data-push-enable hidden>Notify me<\/button>/);
  assert.match(page.text, /<form method="post" action="\/push\/test"/);
  const form = await call(server, 'POST', '/push/test', { token: alice.token, body: `_back=${encodeURIComponent(`/users/${alice.userId}`)}`, headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' } });
  assert.equal(form.status, 409, 'no subscription yet: the page again, with why');
  assert.match(form.text, /Notify me first/);
});
