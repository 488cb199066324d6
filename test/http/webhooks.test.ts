// Webhooks (docs/protocol.md §16.3 to §16.6): incoming ones post as their bot; outgoing ones deliver each matching
// event, signed (checked by the standardwebhooks package), in order, durably; answers, deliveries, disabling, safety.
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import type { RunningServer, StartOptions } from '../../src/index.ts';
import { createChat, postMessage, type Chat } from './chat-fixtures.ts';
import { call, registerAndLogIn, runSql, TestClock, withServer, type LoggedIn } from './client.ts';
import { startReceiver } from './webhook-receiver.ts';

const FAST = { outbound: { pollMs: 20, retry: { firstDelayMs: 20, maxDelayMs: 100, windowMs: 24 * 3_600_000 } } };

async function setUp(t: TestContext, options: StartOptions = {}): Promise<{ server: RunningServer; alice: LoggedIn; bob: LoggedIn; chat: Chat }> {
  const server = await withServer(t, { webhookAllowPrivate: true, eventTimings: FAST, ...options });
  const alice = await registerAndLogIn(server, 'alice');
  const bob = await registerAndLogIn(server, 'bob');
  const chat = await createChat(server, alice, { title: 'Builds', members: [bob.userId] });
  return { server, alice, bob, chat };
}

function createHook(server: RunningServer, who: LoggedIn, chatId: string, data: Record<string, unknown>) {
  return call(server, 'POST', `/chats/${chatId}/webhooks`, { token: who.token, json: { data } });
}

async function until(condition: () => Promise<boolean> | boolean, what: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  assert.fail(`timed out waiting for ${what}`);
}

test('incoming: the owner makes one; its secret URL posts {"text"} or text= as its bot; the secret is shown once and hashed', async (t) => {
  const { server, alice, bob, chat } = await setUp(t);
  assert.equal((await createHook(server, bob, chat.id, { name: 'CI', direction: 'incoming' })).status, 403, 'a member who is not the owner');
  const made = await createHook(server, alice, chat.id, { name: 'CI', direction: 'incoming' });
  assert.equal(made.status, 201, made.text);
  const hook = made.body.data;
  assert.match(hook.url, new RegExp(`^${server.url}/hooks/[A-Za-z0-9_-]{43}$`));
  assert.deepEqual([hook.direction, hook.secret, hook.events, hook.trigger, hook.disabledAt], ['incoming', null, null, null, null]);
  const path = new URL(hook.url).pathname;
  const posted = await call(server, 'POST', path, { json: { text: 'Build 42 passed' } });
  assert.equal(posted.status, 201, posted.text);
  assert.deepEqual([posted.body.data.authorId, posted.body.data.text, posted.body.data.chatId], [hook.botId, 'Build 42 passed', chat.id]);
  const form = await call(server, 'POST', path, { body: 'text=Deploy+done+%E2%9C%85', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  assert.equal(form.status, 201, form.text);
  assert.equal(form.body.data.text, 'Deploy done ✅');
  const bot = await call(server, 'GET', `/users/${hook.botId}`, { token: bob.token });
  assert.deepEqual([bot.body.kind, bot.body.ownerId], ['bot', alice.userId]);
  const listed = await call(server, 'GET', `/chats/${chat.id}/webhooks`, { token: alice.token });
  assert.deepEqual(listed.body.data.map((item: { url: unknown }) => item.url), [null], 'never the secret again');
  assert.equal((await call(server, 'POST', path, { json: {} })).status, 400);
  assert.equal((await call(server, 'POST', path, { body: 'text', headers: { 'content-type': 'text/plain' } })).status, 415);
  assert.equal((await call(server, 'POST', '/hooks/not-the-secret', { json: { text: 'x' } })).status, 404);
  assert.equal((await call(server, 'DELETE', `/chats/${chat.id}/webhooks/${hook.id}`, { token: alice.token })).status, 204);
  assert.equal((await call(server, 'POST', path, { json: { text: 'gone' } })).status, 404, 'revoked');
});

test('incoming: rate-limited like any writer (the bot\'s writes per minute)', async (t) => {
  const { server, alice, chat } = await setUp(t, { writeRate: 2 });
  const path = new URL((await createHook(server, alice, chat.id, { name: 'CI', direction: 'incoming' })).body.data.url).pathname;
  assert.equal((await call(server, 'POST', path, { json: { text: '1' } })).status, 201);
  assert.equal((await call(server, 'POST', path, { json: { text: '2' } })).status, 201);
  const third = await call(server, 'POST', path, { json: { text: '3' } });
  assert.equal(third.status, 429);
  assert.ok(third.headers['retry-after']);
});

test('outgoing: each matching event, signed as Standard Webhooks says, in order, with the stream\'s event object as body', async (t) => {
  const { server, alice, bob, chat } = await setUp(t);
  const receiver = await startReceiver(t);
  const made = await createHook(server, alice, chat.id, { name: 'Echo', direction: 'outgoing', url: receiver.url, events: ['message.created', 'reaction.added'] });
  assert.equal(made.status, 201, made.text);
  const hook = made.body.data;
  assert.match(hook.secret, /^whsec_[A-Za-z0-9+/]{32}$/);
  assert.deepEqual([hook.url, hook.events, hook.trigger], [receiver.url, ['message.created', 'reaction.added'], 'all']);
  receiver.secret = hook.secret;
  const texts = ['one', 'two', 'three', 'four', 'five'];
  for (const text of texts) await postMessage(server, bob, chat.id, { text });
  await receiver.waitFor(texts.length);
  assert.deepEqual(receiver.failures, []);
  assert.deepEqual(receiver.received.map((got) => got.event.data.text), texts, 'in event order');
  const first = receiver.received[0]!;
  assert.deepEqual(Object.keys(first.event).sort(), ['chatId', 'createdAt', 'data', 'id', 'type']);
  assert.deepEqual([first.event.type, first.event.chatId, first.event.data.authorId], ['message.created', chat.id, bob.userId]);
  assert.equal(first.headers['content-type'], 'application/json');
  assert.equal(new Set(receiver.received.map((got) => got.id)).size, texts.length, 'one webhook-id per delivery');
  // The stream's event object, byte for byte.
  const polled = await call(server, 'GET', '/events?after=0', { token: bob.token });
  const streamed = polled.body.data.find((event: { id: string }) => event.id === first.event.id);
  assert.equal(first.body, JSON.stringify(streamed));
  // An outcome is recorded a moment after the reply (outcomes of 50 ms share a commit): wait until it is.
  await server.app.services.outbound.loop.idle();
  const deliveries = await call(server, 'GET', `/chats/${chat.id}/webhooks/${hook.id}/deliveries`, { token: alice.token });
  assert.equal(deliveries.status, 200, deliveries.text);
  assert.equal(deliveries.body.data.length, texts.length);
  const newest = deliveries.body.data[0];
  assert.deepEqual([newest.state, newest.attempts, newest.lastStatus, newest.lastError, newest.eventId], ['delivered', 1, 204, null, receiver.received[4]!.event.id]);
  assert.equal(newest.id, receiver.received[4]!.id);
});

test('outgoing: a 2xx {"text"} answers in the chat as the bot, which never triggers its own webhook', async (t) => {
  const { server, alice, bob, chat } = await setUp(t);
  const receiver = await startReceiver(t, (got) => ({ status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text: `echo: ${JSON.parse(got.body).data.text}` }) }));
  const hook = (await createHook(server, alice, chat.id, { name: 'Echo', direction: 'outgoing', url: receiver.url })).body.data;
  await postMessage(server, bob, chat.id, { text: 'ping' });
  await until(async () => (await call(server, 'GET', `/chats/${chat.id}/messages`, { token: bob.token })).body.data.some((m: { text: string }) => m.text === 'echo: ping'), 'the answer');
  const messages = (await call(server, 'GET', `/chats/${chat.id}/messages`, { token: bob.token })).body.data;
  assert.equal(messages.find((m: { text: string }) => m.text === 'echo: ping').authorId, hook.botId);
  await server.app.services.outbound.loop.idle();
  assert.equal(receiver.received.length, 1, 'the answer was not delivered back');
});

test('outgoing: trigger mentions delivers only messages whose mentions (docs/protocol.md §14.2) name its bot', async (t) => {
  const { server, alice, bob, chat } = await setUp(t);
  const receiver = await startReceiver(t);
  const hook = (await createHook(server, alice, chat.id, { name: 'Mentioned', direction: 'outgoing', url: receiver.url, trigger: 'mentions' })).body.data;
  const bot = (await call(server, 'GET', `/users/${hook.botId}`, { token: bob.token })).body;
  await postMessage(server, bob, chat.id, { text: 'nobody mentioned, not even @alice' });
  const mentioning = await postMessage(server, bob, chat.id, { text: `@${bot.login} deploy please` });
  assert.deepEqual(mentioning.mentions, [hook.botId]);
  // Deliveries to one webhook go in order: once the mention is heard, the message before it was never queued.
  await until(() => receiver.received.length > 0, 'the mention\'s delivery');
  await server.app.services.outbound.loop.idle();
  assert.deepEqual(receiver.received.map((got) => JSON.parse(got.body).data.text), [`@${bot.login} deploy please`]);
});

test('outgoing: a failing receiver is retried and shown in deliveries; failing 24 h disables the webhook and tells its maker', async (t) => {
  const clock = new TestClock(Date.now());
  const { server, alice, bob, chat } = await setUp(t, { clock });
  const receiver = await startReceiver(t, () => ({ status: 500, body: 'down' }));
  const hook = (await createHook(server, alice, chat.id, { name: 'Down', direction: 'outgoing', url: receiver.url })).body.data;
  await postMessage(server, bob, chat.id, { text: 'hello' });
  await receiver.waitFor(1);
  const path = `/chats/${chat.id}/webhooks/${hook.id}/deliveries`;
  await until(async () => (await call(server, 'GET', path, { token: alice.token })).body.data[0].attempts >= 1, 'the first attempt recorded');
  const first = (await call(server, 'GET', path, { token: alice.token })).body.data[0];
  assert.deepEqual([first.state, first.lastStatus, first.lastError], ['pending', 500, 'HTTP 500']);
  assert.ok(first.lastAttemptAt !== null && first.nextAttemptAt !== null && first.lastDurationMs >= 0);
  assert.deepEqual(first.attemptLog, [{ attempt: 1, at: first.lastAttemptAt, status: 500, durationMs: first.lastDurationMs, error: 'HTTP 500' }]);
  // Sessions expire in 25 h; tokens without expiresAt do not.
  const reader = (await call(server, 'POST', `/users/${alice.userId}/tokens`, { token: alice.token, json: { data: { name: 'r', scopes: ['read'] } } })).body.data.token;
  const bobReader = (await call(server, 'POST', `/users/${bob.userId}/tokens`, { token: bob.token, json: { data: { name: 'w' } } })).body.data.token;
  clock.advance(25 * 3_600_000);
  await until(async () => (await call(server, 'GET', path, { token: reader })).body.data[0].state === 'failed', 'giving up');
  await until(async () => (await call(server, 'GET', `/chats/${chat.id}/webhooks/${hook.id}`, { token: reader })).body.data.disabledAt !== null, 'disabled');
  const events = await call(server, 'GET', '/events?after=0', { token: reader });
  const told = events.body.data.filter((event: { type: string }) => event.type === 'webhook.disabled');
  assert.deepEqual(told.map((event: { chatId: unknown; data: { id: string } }) => [event.chatId, event.data.id]), [[null, hook.id]]);
  // Every attempt is shown: the first, and the one that gave up (docs/protocol.md §16.4).
  const given = (await call(server, 'GET', `${path}/${first.id}`, { token: reader })).body.data;
  assert.deepEqual(given.attemptLog.map((attempt: { attempt: number; status: number; error: string }) => [attempt.attempt, attempt.status, attempt.error]), [[1, 500, 'HTTP 500'], [2, 500, 'HTTP 500']]);
  assert.equal(given.attemptLog[1].at, given.lastAttemptAt);
  const xml = (await call(server, 'GET', `${path}/${first.id}`, { token: reader, headers: { accept: 'application/xml' } })).text;
  assert.match(xml, /<attemptLog>\s*<item>\s*<attempt>1<\/attempt>\s*<at>[^<]+<\/at>\s*<status>500<\/status>\s*<durationMs>\d+<\/durationMs>\s*<error>HTTP 500<\/error>\s*<\/item>\s*<item>\s*<attempt>2<\/attempt>/);
  // The HTML pages tell its maker too: the webhooks page says it was disabled, the deliveries page shows each attempt.
  const html = { accept: 'text/html' };
  assert.match((await call(server, 'GET', `/chats/${chat.id}/webhooks`, { token: reader, headers: html })).text, /<strong>Disabled <time[^>]*>[^<]*<\/time><\/strong> after 24 h of failing deliveries\./);
  const deliveriesPage = (await call(server, 'GET', path, { token: reader, headers: html })).text;
  assert.match(deliveriesPage, /Delivery \d+<\/a>: given up after 24 h of failing<\/h2>/);
  assert.equal(deliveriesPage.match(/<tr><td>\d<\/td><td><time[^>]*>[^<]*<\/time><\/td><td>500<\/td><td>\d+ ms<\/td><td><bdi>HTTP 500<\/bdi><\/td><\/tr>/g)?.length, 2);
  const bobs = await call(server, 'GET', '/events?after=0', { token: bobReader });
  assert.equal(bobs.body.data.some((event: { type: string }) => event.type === 'webhook.disabled'), false, 'only its maker hears');
  const before = receiver.received.length;
  await call(server, 'POST', `/chats/${chat.id}/messages`, { token: bobReader, json: { data: { text: 'after' } } });
  await new Promise((resolve) => setTimeout(resolve, 100));
  assert.equal(receiver.received.length, before, 'a disabled webhook gets nothing');
});

test('safety: without --webhook-allow-private, http:// and loopback targets are refused; a real loopback receiver never hears', async (t) => {
  const server = await withServer(t, { eventTimings: FAST });
  const alice = await registerAndLogIn(server, 'alice');
  const chat = await createChat(server, alice, { title: 'Safe' });
  const receiver = await startReceiver(t);
  const port = new URL(receiver.url).port;
  for (const [url, message] of [
    [receiver.url, 'must be an https:// URL'],
    [`https://127.0.0.1:${port}/hook`, `host 127.0.0.1 resolves to 127.0.0.1, which is not a public address`],
    [`https://localhost:${port}/hook`, 'which is not a public address'],
    [`https://[::ffff:127.0.0.1]:${port}/`, 'which is not a public address'],
    ['https://169.254.169.254/latest/meta-data', 'which is not a public address'],
  ]) {
    const res = await createHook(server, alice, chat.id, { name: 'x', direction: 'outgoing', url });
    assert.equal(res.status, 400, url);
    assert.equal(res.body.errors[0].field, 'data.url');
    assert.ok(res.body.errors[0].message.includes(message!), `${url}: ${res.body.errors[0].message}`);
  }
  assert.equal(receiver.received.length, 0);
});

test('a webhook whose disabling a crash cut short (its delivery given up, the webhook still on) is disabled when the loop starts', async (t) => {
  const clock = new TestClock(Date.now());
  const { server, alice, bob, chat } = await setUp(t, { clock });
  const receiver = await startReceiver(t, () => ({ status: 500, body: 'down' }));
  const hook = (await createHook(server, alice, chat.id, { name: 'Down', direction: 'outgoing', url: receiver.url })).body.data;
  await postMessage(server, bob, chat.id, { text: 'hello' });
  const path = `/chats/${chat.id}/webhooks/${hook.id}/deliveries`;
  await until(async () => (await call(server, 'GET', path, { token: alice.token })).body.data[0].attempts === 1, 'the first attempt recorded');
  const { outbound, storage } = server.app.services;
  outbound.loop.stop();
  await outbound.loop.idle();
  // What a process that died right after recording the giving up leaves behind.
  const [row] = await storage.outbound.leaseDueDeliveries('crashed', clock.now() + 3_600_000, clock.now() + 3_700_000, 10);
  assert.equal(await storage.outbound.recordAttempt(row!.id, 'crashed', { state: 'failed', nextAttemptAt: clock.now(), at: clock.now(), status: 500, error: 'HTTP 500', durationMs: 1 }), true);
  assert.equal((await call(server, 'GET', `/chats/${chat.id}/webhooks/${hook.id}`, { token: alice.token })).body.data.disabledAt, null);
  await outbound.kinds.find('webhook')!.resume!();
  await outbound.kinds.find('webhook')!.resume!();
  assert.notEqual((await call(server, 'GET', `/chats/${chat.id}/webhooks/${hook.id}`, { token: alice.token })).body.data.disabledAt, null);
  const told = (await call(server, 'GET', '/events?after=0', { token: alice.token })).body.data.filter((event: { type: string }) => event.type === 'webhook.disabled');
  assert.deepEqual(told.map((event: { data: { id: string } }) => event.data.id), [hook.id], 'told once');
});

test('finished deliveries leave --delivery-retention after they were queued (30 days unless set), their attempts with them; pending ones stay', async (t) => {
  const clock = new TestClock(Date.now());
  const { server, alice, bob, chat } = await setUp(t, { clock });
  const receiver = await startReceiver(t);
  const hook = (await createHook(server, alice, chat.id, { name: 'Kept', direction: 'outgoing', url: receiver.url })).body.data;
  await postMessage(server, bob, chat.id, { text: 'one' });
  await postMessage(server, bob, chat.id, { text: 'two' });
  await receiver.waitFor(2);
  const path = `/chats/${chat.id}/webhooks/${hook.id}/deliveries`;
  await until(async () => (await call(server, 'GET', path, { token: alice.token })).body.data.every((delivery: { state: string }) => delivery.state === 'delivered'), 'both delivered');
  // A delivery still waiting for its turn, queued long ago, is never removed, whatever its age.
  await runSql(server, `INSERT INTO outbound_deliveries (kind, target_id, event_id, payload, next_attempt_at, created_at) VALUES ('push', 'nobody', NULL, '{}', ${clock.now() + 86_400_000}, 0)`);
  const count = async (): Promise<number> => Number((await runSql(server, 'SELECT count(*) AS n FROM outbound_deliveries'))[0]!['n']);
  const attempts = async (): Promise<number> => Number((await runSql(server, 'SELECT count(*) AS n FROM outbound_attempts'))[0]!['n']);
  assert.deepEqual([await count(), await attempts()], [3, 2]);
  const reader = (await call(server, 'POST', `/users/${alice.userId}/tokens`, { token: alice.token, json: { data: { name: 'r', scopes: ['read'] } } })).body.data.token;
  clock.advance(30 * 86_400_000 - 60_000);
  assert.equal(await server.app.services.deliveryRetention.sweep(), 0);
  assert.equal((await call(server, 'GET', path, { token: reader })).body.data.length, 2, 'kept for 30 days');
  clock.advance(120_000);
  assert.equal(await server.app.services.deliveryRetention.sweep(), 2);
  assert.deepEqual((await call(server, 'GET', path, { token: reader })).body.data, []);
  assert.deepEqual([await count(), await attempts()], [1, 0], 'the pending one stays; the attempts went with their deliveries');
});
