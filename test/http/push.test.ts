// Web Push (docs/protocol.md §17): the VAPID key, subscriptions, and pushes as a push service sees them
// (test/http/push-service.ts verifies the JWT and decrypts each payload with http_ece): who is pushed follows the
// notification decision (§14.4); 404/410 remove a subscription; 429/5xx wait for Retry-After; a restart loses nothing.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { createChat, postMessage } from './chat-fixtures.ts';
import { call, registerAndLogIn, startTestServer, withServer } from './client.ts';
import { FAST, setUp, subscribe, SUBJECT, until } from './push-fixtures.ts';
import { startPushService } from './push-service.ts';

test('GET /push/key: one P-256 key, kept in the database, the same after a restart; sending only with --push-subject', { timeout: 30_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'push-key-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const db = join(dir, 'chat.db');
  const first = await startTestServer({ db, pushSubject: SUBJECT });
  const key = await call(first, 'GET', '/push/key');
  assert.equal(key.status, 200);
  assert.deepEqual(Object.keys(key.body).sort(), ['publicKey', 'sending']);
  assert.equal(key.body.sending, true);
  const point = Buffer.from(key.body.publicKey, 'base64url');
  assert.deepEqual([point.length, point[0]], [65, 4]);
  await first.close();
  const second = await startTestServer({ db });
  t.after(() => second.close());
  const again = await call(second, 'GET', '/push/key');
  assert.deepEqual(again.body, { publicKey: key.body.publicKey, sending: false });
});

test('POST /push-subscriptions: the PushSubscription JSON; GET lists one\'s own; DELETE; another\'s answers 404', { timeout: 30_000 }, async (t) => {
  const { server, push } = await setUp(t);
  const alice = await registerAndLogIn(server, 'alice');
  const bob = await registerAndLogIn(server, 'bob');
  const json = push.subscribe('alice');
  const made = await call(server, 'POST', '/push-subscriptions', { token: alice.token, json: { ...json, expirationTime: null } });
  assert.equal(made.status, 201, made.text);
  assert.equal(made.headers.location, `/push-subscriptions/${made.body.data.id}`);
  assert.deepEqual(Object.keys(made.body.data).sort(), ['createdAt', 'endpoint', 'id']);
  assert.equal(made.body.data.endpoint, json.endpoint);
  const listed = await call(server, 'GET', '/push-subscriptions', { token: alice.token });
  assert.deepEqual(listed.body.data.map((item: { id: string }) => item.id), [made.body.data.id]);
  const exported = await call(server, 'GET', `/users/${alice.userId}/export`, { token: alice.token });
  assert.deepEqual(exported.body.pushSubscriptions, [made.body.data], 'in the export, without keys');
  assert.deepEqual((await call(server, 'GET', '/push-subscriptions', { token: bob.token })).body.data, []);
  assert.equal((await call(server, 'GET', `/push-subscriptions/${made.body.data.id}`, { token: bob.token })).status, 404);
  assert.equal((await call(server, 'DELETE', `/push-subscriptions/${made.body.data.id}`, { token: bob.token })).status, 404);
  // The same endpoint again replaces the one kept for it.
  const again = await call(server, 'POST', '/push-subscriptions', { token: alice.token, json });
  assert.equal(again.status, 201);
  assert.deepEqual((await call(server, 'GET', '/push-subscriptions', { token: alice.token })).body.data.map((item: { id: string }) => item.id), [again.body.data.id]);
  assert.equal((await call(server, 'DELETE', `/push-subscriptions/${again.body.data.id}`, { token: alice.token })).status, 204);
  assert.deepEqual((await call(server, 'GET', '/push-subscriptions', { token: alice.token })).body.data, []);
  assert.equal((await call(server, 'GET', '/push-subscriptions')).status, 401);
});

test('POST /push-subscriptions refuses bad keys, naming the field', { timeout: 30_000 }, async (t) => {
  const { server, push } = await setUp(t);
  const alice = await registerAndLogIn(server, 'alice');
  const good = push.subscribe('alice');
  const cases: [string, unknown, string][] = [
    ['no keys', { endpoint: good.endpoint }, 'keys'],
    ['a short p256dh', { ...good, keys: { ...good.keys, p256dh: 'BAAA' } }, 'keys.p256dh'],
    ['a compressed point', { ...good, keys: { ...good.keys, p256dh: Buffer.alloc(65, 2).toString('base64url') } }, 'keys.p256dh'],
    ['a long auth', { ...good, keys: { ...good.keys, auth: Buffer.alloc(17).toString('base64url') } }, 'keys.auth'],
    ['no endpoint', { keys: good.keys }, 'endpoint'],
    ['an unknown field', { ...good, extra: 1 }, 'extra'],
  ];
  for (const [what, json, field] of cases) {
    const res = await call(server, 'POST', '/push-subscriptions', { token: alice.token, json });
    assert.equal(res.status, 400, what);
    assert.ok(res.body.errors.some((error: { field: string }) => error.field === field), `${what}: ${res.text}`);
  }
});

test('endpoints must be https:// on a public address: every private range is refused without --push-allow-insecure', { timeout: 30_000 }, async (t) => {
  const server = await withServer(t, { pushSubject: SUBJECT });
  const alice = await registerAndLogIn(server, 'alice');
  const keys = { p256dh: Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 7)]).toString('base64url'), auth: Buffer.alloc(16, 1).toString('base64url') };
  const refused = [
    'http://push.example.com/x', 'https://127.0.0.1/x', 'https://127.1.2.3/x', 'https://10.0.0.1/x', 'https://172.16.0.1/x', 'https://172.31.255.255/x',
    'https://192.168.1.1/x', 'https://169.254.169.254/latest', 'https://100.64.0.1/x', 'https://0.0.0.0/x', 'https://224.0.0.1/x', 'https://255.255.255.255/x',
    'https://198.18.0.1/x', 'https://[::1]/x', 'https://[::]/x', 'https://[fc00::1]/x', 'https://[fd12:3456::1]/x', 'https://[fe80::1]/x',
    'https://[::ffff:10.0.0.1]/x', 'https://[::ffff:127.0.0.1]/x', 'https://[ff02::1]/x', 'https://localhost/x', 'https://user:pw@push.example.com/x', 'not a url',
  ];
  for (const endpoint of refused) {
    const res = await call(server, 'POST', '/push-subscriptions', { token: alice.token, json: { endpoint, keys } });
    assert.equal(res.status, 400, `${endpoint}: ${res.text}`);
    assert.equal(res.body.errors[0].field, 'endpoint', endpoint);
  }
  assert.deepEqual((await call(server, 'GET', '/push-subscriptions', { token: alice.token })).body.data, []);
});

test('a mention, a direct message and a member under "all" are pushed, encrypted, signed; a muted chat and one\'s own message are not', { timeout: 30_000 }, async (t) => {
  const { server, push } = await setUp(t);
  const alice = await registerAndLogIn(server, 'alice');
  const bob = await registerAndLogIn(server, 'bob');
  const carol = await registerAndLogIn(server, 'carol');
  for (const who of [alice, bob, carol]) await subscribe(server, push, who);
  const group = await createChat(server, alice, { title: 'Lunch', members: [bob.userId, carol.userId] });
  await postMessage(server, alice, group.id, { text: 'no mention: nobody under the default level is pushed' });
  await postMessage(server, alice, group.id, { text: `@bob ${'a long one '.repeat(20)}` });
  await push.waitFor(1);
  const [mention] = push.received;
  assert.equal(mention!.name, 'bob');
  assert.equal(mention!.notice.type, 'message');
  assert.equal(mention!.notice.who, 'alice');
  assert.equal(mention!.notice.chat, group.id);
  assert.equal(mention!.notice.title, 'alice in Lunch');
  assert.equal([...mention!.notice.text].length, 100);
  assert.ok(mention!.notice.text.startsWith('@bob a long one'));
  assert.equal(mention!.notice.url, `${server.url}/chats/${group.id}/messages`);
  assert.deepEqual([mention!.headers.topic, mention!.headers.urgency, mention!.headers.ttl], [group.id, 'high', '86400']);
  assert.equal(mention!.claims.sub, SUBJECT);

  // carol mutes the group; bob takes every message; alice (the owner) says @all.
  assert.equal((await call(server, 'PUT', `/chats/${group.id}/notifications`, { token: carol.token, json: { data: { level: 'none' } } })).status, 200);
  assert.equal((await call(server, 'PUT', `/chats/${group.id}/notifications`, { token: bob.token, json: { data: { level: 'all' } } })).status, 200);
  await postMessage(server, alice, group.id, { text: '@all lunch is served' });
  await push.waitFor(2);
  await postMessage(server, carol, group.id, { text: 'carol writes: bob (all) and alice? alice is under mentions' });
  await push.waitFor(3);
  const direct = (await call(server, 'POST', '/chats', { token: bob.token, json: { data: { kind: 'direct', members: [alice.userId] } } })).body.data;
  await postMessage(server, bob, direct.id, { text: 'psst' });
  await push.waitFor(4);
  await server.app.services.outbound.loop.idle();
  assert.deepEqual(push.failures, []);
  assert.deepEqual(push.received.map((got) => [got.name, got.notice.text, got.headers.urgency]), [
    ['bob', mention!.notice.text, 'high'],
    ['bob', '@all lunch is served', 'high'],
    ['bob', 'carol writes: bob (all) and alice? alice is under mentions', 'normal'],
    ['alice', 'psst', 'high'],
  ], 'muted carol never; the author never');
  assert.deepEqual([push.received[3]!.notice.title, push.received[3]!.notice.chat, push.received[3]!.headers.topic], ['bob', direct.id, direct.id]);
});

test('--push-no-content: who and which chat, never the text', { timeout: 30_000 }, async (t) => {
  const { server, push } = await setUp(t, { pushNoContent: true });
  const alice = await registerAndLogIn(server, 'alice');
  const bob = await registerAndLogIn(server, 'bob');
  await subscribe(server, push, bob);
  const group = await createChat(server, alice, { title: 'Secrets', members: [bob.userId] });
  await postMessage(server, alice, group.id, { text: '@bob the code is 1234' });
  await push.waitFor(1);
  assert.deepEqual(push.failures, []);
  assert.deepEqual(Object.keys(push.received[0]!.notice).sort(), ['chat', 'title', 'type', 'url', 'who']);
});

test('a 410 removes the subscription; a 429 waits for Retry-After and the push goes again', { timeout: 30_000 }, async (t) => {
  const { server, push } = await setUp(t);
  const alice = await registerAndLogIn(server, 'alice');
  const bob = await registerAndLogIn(server, 'bob');
  const id = await subscribe(server, push, bob);
  const direct = (await call(server, 'POST', '/chats', { token: alice.token, json: { data: { kind: 'direct', members: [bob.userId] } } })).body.data;
  push.replies.push({ status: 429, headers: { 'retry-after': '1' } });
  const started = Date.now();
  await postMessage(server, alice, direct.id, { text: 'one' });
  await push.waitFor(2);
  assert.ok(Date.now() - started >= 1000, 'not before Retry-After');
  assert.deepEqual(push.received.map((got) => got.notice.text), ['one', 'one']);
  push.replies.push({ status: 410 });
  await postMessage(server, alice, direct.id, { text: 'two' });
  await push.waitFor(3);
  await until(async () => (await call(server, 'GET', '/push-subscriptions', { token: bob.token })).body.data.length === 0, 'the subscription to go');
  assert.equal((await call(server, 'GET', `/push-subscriptions/${id}`, { token: bob.token })).status, 404);
  await postMessage(server, alice, direct.id, { text: 'three' });
  await server.app.services.outbound.loop.idle();
  assert.equal(push.received.length, 3, 'nothing more goes to it');
  assert.deepEqual(push.failures, []);
});

test('POST /push/test queues a test push to each of the caller\'s subscriptions; 409 with none', { timeout: 30_000 }, async (t) => {
  const { server, push } = await setUp(t);
  const alice = await registerAndLogIn(server, 'alice');
  const none = await call(server, 'POST', '/push/test', { token: alice.token });
  assert.deepEqual([none.status, none.body.code], [409, 'ERR_NO_PUSH_SUBSCRIPTION']);
  await subscribe(server, push, alice, 'phone');
  await subscribe(server, push, alice, 'laptop');
  assert.equal((await call(server, 'POST', '/push/test', { token: alice.token })).status, 204);
  await push.waitFor(2);
  assert.deepEqual(push.failures, []);
  assert.deepEqual(push.received.map((got) => got.name).sort(), ['laptop', 'phone']);
  assert.equal(push.received[0]!.notice.type, 'test');
  assert.equal(push.received[0]!.headers.topic, undefined);
});

test('a restart between the message and its delivery loses nothing', { timeout: 30_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'push-restart-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const db = join(dir, 'chat.db');
  const push = await startPushService(t);
  const options = { db, pushSubject: SUBJECT, pushAllowInsecure: true, eventTimings: FAST };
  const first = await startTestServer(options);
  push.expect = { publicKey: (await call(first, 'GET', '/push/key')).body.publicKey, subject: SUBJECT };
  const alice = await registerAndLogIn(first, 'alice');
  const bob = await registerAndLogIn(first, 'bob');
  await subscribe(first, push, bob);
  const direct = (await call(first, 'POST', '/chats', { token: alice.token, json: { data: { kind: 'direct', members: [bob.userId] } } })).body.data;
  // The push service is down for the first attempt (503); the server stops before it tries again.
  push.replies.push({ status: 503, headers: { 'retry-after': '1' } });
  await postMessage(first, alice, direct.id, { text: 'across a restart' });
  await push.waitFor(1);
  // Its attempt recorded (else its lease, 30 s, would hold the row from the next server).
  await first.app.services.outbound.loop.idle();
  await first.close();
  const second = await startTestServer(options);
  t.after(() => second.close());
  await push.waitFor(2);
  await second.app.services.outbound.loop.idle();
  assert.deepEqual(push.failures, []);
  assert.deepEqual(push.received.map((got) => got.notice.text), ['across a restart', 'across a restart']);
});
