// Notification levels and the `notification` event (docs/protocol.md §14.3, §14.4): per member and chat, all in direct
// chats and mentions in groups by default; one event for the member it concerns, never for their own message or when
// muted, gone from replays with its message or once the member left.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RunningServer } from '../../src/index.ts';
import { call, TestClock, withServer, type LoggedIn } from './client.ts';
import { assertFieldError, createChat, postMessage, threeUsers } from './chat-fixtures.ts';
import { openReady, type EventStream } from './event-stream.ts';

function setLevel(server: RunningServer, user: LoggedIn, chatId: string, level: unknown) {
  return call(server, 'PUT', `/chats/${chatId}/notifications`, { token: user.token, json: { data: { level } } });
}

/** The notifications a stream received: [reason, message id]. */
function notificationsOf(stream: EventStream): [string, string][] {
  return stream.logEvents.filter((event) => event.type === 'notification').map((event) => [event.json.data.reason, event.json.data.message.id]);
}

/** Every notification a replay from 0 (long-poll) gives the user. */
async function replayedNotifications(server: RunningServer, user: LoggedIn): Promise<[string, string][]> {
  const res = await call(server, 'GET', '/events?after=0&wait=0', { token: user.token });
  assert.equal(res.status, 200, res.text);
  return res.body.data.filter((event: { type: string }) => event.type === 'notification').map((event: { data: { reason: string; message: { id: string } } }) => [event.data.reason, event.data.message.id]);
}

test('GET/PUT /chats/{id}/notifications: mentions in groups and all in direct chats until set; a bad level is a 400', async (t) => {
  const server = await withServer(t);
  const { alice, bob, carol } = await threeUsers(server);
  const group = await createChat(server, alice, { title: 'Crew', members: [bob.userId] });
  const direct = (await call(server, 'POST', '/chats', { token: alice.token, json: { data: { kind: 'direct', members: [bob.userId] } } })).body.data;
  const read = await call(server, 'GET', `/chats/${group.id}/notifications`, { token: bob.token });
  assert.equal(read.status, 200);
  assert.deepEqual(read.body, { data: { chatId: group.id, level: 'mentions' } });
  assert.deepEqual((await call(server, 'GET', `/chats/${direct.id}/notifications`, { token: bob.token })).body, { data: { chatId: direct.id, level: 'all' } });
  const set = await setLevel(server, bob, group.id, 'none');
  assert.equal(set.status, 200);
  assert.deepEqual(set.body, { data: { chatId: group.id, level: 'none' } });
  assert.deepEqual((await call(server, 'GET', `/chats/${group.id}/notifications`, { token: bob.token })).body.data.level, 'none');
  assert.deepEqual((await call(server, 'GET', `/chats/${group.id}/notifications`, { token: alice.token })).body.data.level, 'mentions', 'each member their own');
  assertFieldError(await setLevel(server, bob, group.id, 'loud'), 'data.level');
  assertFieldError(await call(server, 'PUT', `/chats/${group.id}/notifications`, { token: bob.token, json: { data: {} } }), 'data.level');
  assert.equal((await call(server, 'GET', `/chats/${group.id}/notifications`, { token: carol.token })).status, 404);
  assert.equal((await setLevel(server, carol, group.id, 'all')).status, 404);
  // A form of the chat's page sets it too, and comes back to that page.
  const html = await call(server, 'GET', `/chats/${group.id}`, { token: bob.token, headers: { accept: 'text/html' } });
  assert.match(html.text, /aria-pressed="true">Nothing \(muted\)<\/button>/);
});

test('a message notifies each member it concerns, on their stream alone, with the message and the reason', async (t) => {
  const clock = new TestClock();
  const server = await withServer(t, { clock });
  const { alice, bob, carol } = await threeUsers(server);
  const group = await createChat(server, alice, { title: 'Crew', members: [bob.userId, carol.userId] });
  const direct = (await call(server, 'POST', '/chats', { token: alice.token, json: { data: { kind: 'direct', members: [bob.userId] } } })).body.data;
  assert.equal((await setLevel(server, carol, group.id, 'all')).status, 200);
  const streams = { alice: await openReady(server, { token: alice.token }), bob: await openReady(server, { token: bob.token }), carol: await openReady(server, { token: carol.token }) };
  t.after(() => Object.values(streams).forEach((stream) => stream.close()));

  const quiet = await postMessage(server, alice, group.id, { text: 'morning' });
  const mention = await postMessage(server, alice, group.id, { text: `@${bob.login} ping` });
  const dm = await postMessage(server, alice, direct.id, { text: 'just us' });
  const own = await postMessage(server, bob, group.id, { text: `@${bob.login} note to self` });
  await streams.bob.until((stream) => stream.logEvents.filter((event) => event.type === 'message.created').length === 4, 'bob sees four messages');
  await streams.carol.until((stream) => stream.logEvents.filter((event) => event.type === 'message.created').length === 3, 'carol sees three');
  const at = new Date(clock.time).toISOString();
  const event = streams.bob.logEvents.find((found) => found.type === 'notification')!;
  assert.deepEqual(event.json, { id: event.id, type: 'notification', chatId: group.id, createdAt: at, data: { reason: 'mention', message: mention } });
  assert.deepEqual(notificationsOf(streams.bob), [['mention', mention.id], ['direct', dm.id]]);
  assert.deepEqual(notificationsOf(streams.carol), [['all', quiet.id], ['all', mention.id], ['all', own.id]]);
  assert.deepEqual(notificationsOf(streams.alice), [], 'never for one\'s own message');
  assert.deepEqual(await replayedNotifications(server, bob), notificationsOf(streams.bob));

  // Muted: nothing, not even a mention.
  assert.equal((await setLevel(server, bob, group.id, 'none')).status, 200);
  await postMessage(server, alice, group.id, { text: `@${bob.login} are you there?` });
  const later = await postMessage(server, alice, direct.id, { text: 'still here' });
  await streams.bob.until((stream) => stream.logEvents.filter((found) => found.type === 'message.created').length === 6, 'bob sees six');
  await streams.bob.until((stream) => notificationsOf(stream).length === 3, 'bob gets the direct one');
  assert.deepEqual(notificationsOf(streams.bob), [['mention', mention.id], ['direct', dm.id], ['direct', later.id]]);
});

test('an edit that mentions someone new notifies them once; nobody hears of the same message twice', async (t) => {
  const server = await withServer(t);
  const { alice, bob, carol } = await threeUsers(server);
  const group = await createChat(server, alice, { title: 'Crew', members: [bob.userId, carol.userId] });
  const message = await postMessage(server, alice, group.id, { text: `@${bob.login} hello` });
  for (const text of [`@${bob.login} hello @${carol.login}`, 'hello', `@${bob.login} @${carol.login} hello`]) {
    assert.equal((await call(server, 'PATCH', `/chats/${group.id}/messages/${message.id}`, { token: alice.token, json: { data: { text } } })).status, 200);
  }
  assert.deepEqual(await replayedNotifications(server, bob), [['mention', message.id], ['mention', message.id]]);
  assert.deepEqual(await replayedNotifications(server, carol), [['mention', message.id], ['mention', message.id]]);
});

test('a replay never leaks: a deleted message takes its notifications along, a member who left gets none of the chat', async (t) => {
  const server = await withServer(t);
  const { alice, bob, carol } = await threeUsers(server);
  const group = await createChat(server, alice, { title: 'Crew', members: [bob.userId, carol.userId] });
  const gone = await postMessage(server, alice, group.id, { text: `@${bob.login} secret words` });
  const kept = await postMessage(server, alice, group.id, { text: `@${bob.login} @${carol.login} fine words` });
  assert.equal((await call(server, 'DELETE', `/chats/${group.id}/messages/${gone.id}`, { token: alice.token })).status, 204);
  const replay = await call(server, 'GET', '/events?after=0&wait=0', { token: bob.token });
  assert.ok(!replay.text.includes('secret words'));
  assert.deepEqual(await replayedNotifications(server, bob), [['mention', kept.id]]);

  // Carol is removed: her replays hold none of the chat's notifications any more.
  assert.deepEqual(await replayedNotifications(server, carol), [['mention', kept.id]]);
  assert.equal((await call(server, 'DELETE', `/chats/${group.id}/members/${carol.userId}`, { token: alice.token })).status, 204);
  assert.deepEqual(await replayedNotifications(server, carol), []);
  await postMessage(server, alice, group.id, { text: `@all after carol` });
  assert.equal((await call(server, 'PUT', `/chats/${group.id}/members/${carol.userId}`, { token: alice.token })).status, 204);
  // Back in: the notifications of her membership again, none of the time she was out.
  const back = await postMessage(server, alice, group.id, { text: `@${carol.login} welcome back` });
  assert.deepEqual(await replayedNotifications(server, carol), [['mention', kept.id], ['mention', back.id]]);
});
