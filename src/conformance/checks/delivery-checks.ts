// docs/protocol.md §9.4 to §9.7: who receives what, what a delete removes, a write that changes nothing, streams that end.
import { PATHS } from '../../paths.ts';
import { expectEqual, expectHeader, expectStatus, expectTrue } from '../expect.ts';
import type { KitContext, KitUser } from '../context.ts';
import type { KitStream } from '../event-stream.ts';
import { check } from './define.ts';
import { selectChatEvents, newestEventId } from './events-checks.ts';

/**
 * Proves that nothing more is coming without waiting on time: alice posts in a chat `user` shares with her, and once
 * that marker arrived, whatever was written before it and not received was never sent.
 */
async function passMarker(ctx: KitContext, user: KitUser, stream: KitStream): Promise<void> {
  const alice = await ctx.user('alice');
  const chat = await ctx.chat(alice, user.id === alice.id ? [] : [user]);
  const marker = await ctx.post(alice, chat.id, 'marker');
  await stream.waitFor((event) => event.type === 'message.created' && event.json?.data?.id === marker.id, 'the marker message');
}

export const DELIVERY_CHECKS = [
  check('events.scope.outsider', '§9.4', 'A user receives the events of a chat they are a member of only', async (ctx) => {
    const [alice, carol] = [await ctx.user('alice'), await ctx.user('carol')];
    const chat = await ctx.chat(alice);
    const stream = await ctx.readyStream(carol.token);
    await ctx.post(alice, chat.id, 'not for carol');
    await passMarker(ctx, carol, stream);
    expectEqual(selectChatEvents(stream, chat.id).map((event) => event.type), [], 'what carol received of a chat she is not in');
  }),
  check('events.scope.added', '§9.4', 'An added user receives member.added and the chat\'s events from then on, never earlier ones', async (ctx) => {
    const [alice, carol] = [await ctx.user('alice'), await ctx.user('carol')];
    const since = await newestEventId(ctx, carol);
    const chat = await ctx.chat(alice);
    const before = await ctx.post(alice, chat.id, 'before carol');
    const stream = await ctx.readyStream(carol.token);
    expectStatus(await ctx.call('PUT', ctx.at(PATHS.member, { chatId: chat.id, userId: carol.id }), { token: alice.token }), 204);
    const after = await ctx.post(alice, chat.id, 'after carol');
    await stream.waitFor((event) => event.json?.data?.id === after.id, 'the message after she joined');
    const types = selectChatEvents(stream, chat.id).map((event) => event.type);
    expectEqual(types.slice(0, 1), ['member.added'], 'the first event carol received of the chat');
    const replay = await ctx.readyStream(carol.token, { lastEventId: since });
    expectTrue(!selectChatEvents(replay, chat.id).some((event) => event.json?.data?.id === before.id), 'a replay holds no message from before she joined');
  }),
  check('events.scope.removed', '§9.4', 'A removed member receives that member.removed, then nothing more of the chat', async (ctx) => {
    const [alice, bob] = [await ctx.user('alice'), await ctx.user('bob')];
    const chat = await ctx.chat(alice, [bob]);
    const stream = await ctx.readyStream(bob.token);
    expectStatus(await ctx.call('DELETE', ctx.at(PATHS.member, { chatId: chat.id, userId: bob.id }), { token: alice.token }), 204);
    await ctx.post(alice, chat.id, 'after bob left');
    await passMarker(ctx, bob, stream);
    const events = selectChatEvents(stream, chat.id);
    expectEqual(events.map((event) => event.type), ['member.removed'], 'what bob received of the chat');
    expectEqual(events[0]!.json.data.userId, bob.id, 'the member removed');
  }),
  check('events.scope.read-updated', '§9.4', 'read.updated goes only to the user it is about', async (ctx) => {
    const [alice, bob] = [await ctx.user('alice'), await ctx.user('bob')];
    const chat = await ctx.chat(alice, [bob]);
    const message = await ctx.post(alice, chat.id, 'read me');
    const [aliceStream, bobStream] = [await ctx.readyStream(alice.token), await ctx.readyStream(bob.token)];
    expectStatus(await ctx.call('PUT', ctx.at(PATHS.read, { chatId: chat.id }), { token: bob.token, json: { data: { lastReadId: message.id } } }), 200);
    const event = await bobStream.waitFor((item) => item.type === 'read.updated' && item.json?.chatId === chat.id, 'bob\'s read.updated');
    expectEqual(event.json.data, { chatId: chat.id, lastReadId: message.id, unreadCount: 0, mentionCount: 0 }, 'the read marker in the event');
    await passMarker(ctx, alice, aliceStream);
    expectTrue(!aliceStream.events.some((item) => item.type === 'read.updated' && item.json?.chatId === chat.id), 'alice received bob\'s read.updated');
  }),
  check('events.scope.chat-deleted', '§9.4', 'Everyone who was a member receives chat.deleted', async (ctx) => {
    const [alice, bob] = [await ctx.user('alice'), await ctx.user('bob')];
    const chat = await ctx.chat(alice, [bob]);
    const stream = await ctx.readyStream(bob.token);
    expectStatus(await ctx.call('DELETE', ctx.at(PATHS.chat, { chatId: chat.id }), { token: alice.token }), 204);
    const event = await stream.waitFor((item) => item.type === 'chat.deleted' && item.json?.chatId === chat.id, 'chat.deleted');
    expectEqual(event.json.data, { id: chat.id }, 'the data of chat.deleted');
  }),
  check('events.event.member-added-chat-updated', '§9.1', 'member.added carries the member, followed by chat.updated without the per-reader fields', async (ctx) => {
    const [alice, carol] = [await ctx.user('alice'), await ctx.user('carol')];
    const chat = await ctx.chat(alice);
    const stream = await ctx.readyStream(alice.token);
    expectStatus(await ctx.call('PUT', ctx.at(PATHS.member, { chatId: chat.id, userId: carol.id }), { token: alice.token }), 204);
    await stream.waitFor((event) => event.type === 'chat.updated' && event.json?.chatId === chat.id, 'chat.updated');
    const events = selectChatEvents(stream, chat.id);
    expectEqual(events.map((event) => event.type), ['member.added', 'chat.updated'], 'the events');
    expectEqual([events[0]!.json.data.userId, events[0]!.json.data.login], [carol.id, carol.login], 'the member added');
    expectEqual(['lastReadId', 'unreadCount', 'mentionCount'].filter((key) => key in events[1]!.json.data), [], 'per-reader fields in chat.updated');
  }),
  check('events.event.no-change-no-event', '§9.1', 'A write that changes nothing sends no event', async (ctx) => {
    const alice = await ctx.user('alice');
    const chat = await ctx.chat(alice);
    const stream = await ctx.readyStream(alice.token);
    expectStatus(await ctx.call('PATCH', ctx.at(PATHS.chat, { chatId: chat.id }), { token: alice.token, json: { data: { title: chat.title } } }), 200);
    await passMarker(ctx, alice, stream);
    expectEqual(selectChatEvents(stream, chat.id).map((event) => event.type), [], 'events of setting the same title');
  }),
  check('events.delete.redacts', '§9.5', 'A delete removes from the log the earlier events of what it deleted; the deleting event stays', async (ctx) => {
    const alice = await ctx.user('alice');
    const chat = await ctx.chat(alice);
    const since = await newestEventId(ctx, alice);
    const message = await ctx.post(alice, chat.id, 'secret that will be deleted');
    expectStatus(await ctx.call('DELETE', ctx.at(PATHS.message, { chatId: chat.id, messageId: message.id }), { token: alice.token }), 204);
    const replay = await ctx.readyStream(alice.token, { lastEventId: since });
    const events = selectChatEvents(replay, chat.id, true);
    expectEqual(events.map((event) => [event.type, event.json.data.id]), [['message.deleted', message.id]], 'the replay of the chat');
    expectTrue(!replay.events.some((event) => event.data.includes('secret that will be deleted')), 'the deleted text left the server again');
  }),
  check('events.session.logout-ends-stream', '§9.7', 'Logout ends the session\'s streams: session.ended is the last thing such a stream receives', async (ctx) => {
    const alice = await ctx.user('alice');
    const second = await ctx.call('POST', PATHS.session, { json: { login: alice.login, password: alice.password } });
    expectStatus(second, 201);
    const stream = await ctx.readyStream(second.json.token);
    expectStatus(await ctx.call('DELETE', PATHS.session, { token: second.json.token }), 204);
    await stream.waitForEnd('the end of the stream');
    const last = stream.events.at(-1)!;
    expectEqual(last.type, 'session.ended', 'the last event');
    expectEqual([last.json.data.userId, last.json.chatId], [alice.id, null], 'userId and chatId of session.ended');
  }),
  check('hardening.streams.per-user-limit', '§9.7', 'At most 5 open streams per user: the next answers 429 ERR_TOO_MANY_STREAMS with Retry-After: 15', async (ctx) => {
    const frank = await ctx.user('frank');
    for (let index = 0; index < 5; index++) await ctx.readyStream(frank.token);
    const sixth = await ctx.stream(frank.token);
    expectEqual(sixth.status, 429, 'the status of the sixth stream');
    expectHeader(sixth, 'retry-after', '15');
    expectEqual(JSON.parse(sixth.body).code, 'ERR_TOO_MANY_STREAMS', 'the code');
  }),
];
