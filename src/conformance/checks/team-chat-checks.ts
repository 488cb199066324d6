// docs/protocol.md §14 as a client sees it: direct chats, mentions, notification levels and events, typing, presence.
import { PATHS } from '../../paths.ts';
import { expectEqual, expectHeader, expectProblem, expectStatus, expectTrue, ISO_MS } from '../expect.ts';
import type { KitContext, KitUser } from '../context.ts';
import type { KitStream } from '../event-stream.ts';
import { check } from './define.ts';

/** Opens the direct chat of `caller` and `other` (answers the reply); kept for the cleanup. */
async function openDirect(ctx: KitContext, caller: KitUser, other: KitUser): Promise<any> {
  const reply = await ctx.call('POST', PATHS.chats, { token: caller.token, json: { data: { kind: 'direct', members: [other.id] } } });
  if (reply.status === 201 || reply.status === 200) ctx.remember(reply.json.data.id, caller, other);
  return reply;
}

/** A group chat of alice's with bob and carol, and bob's and carol's event streams, ready. */
async function openGroupWithStreams(ctx: KitContext): Promise<{ alice: KitUser; bob: KitUser; carol: KitUser; chat: any; bobStream: KitStream; carolStream: KitStream }> {
  const [alice, bob, carol] = [await ctx.user('alice'), await ctx.user('bob'), await ctx.user('carol')];
  const chat = await ctx.chat(alice, [bob, carol]);
  return { alice, bob, carol, chat, bobStream: await ctx.readyStream(bob.token), carolStream: await ctx.readyStream(carol.token) };
}

export const TEAM_CHAT_CHECKS = [
  check('features.direct.open-201-then-200', '§14.1', 'POST /chats {"data": {"kind": "direct", "members": [otherUserId]}}: 201 with Location when new, 200 with the existing one otherwise, for whichever of the two asks', async (ctx) => {
    const [dave, erin] = [await ctx.user('dave'), await ctx.user('erin')];
    const made = await openDirect(ctx, dave, erin);
    expectStatus(made, 201);
    expectHeader(made, 'location', ctx.prefixed(ctx.at(PATHS.chat, { chatId: made.json.data.id })));
    expectEqual([made.json.data.kind, made.json.data.title], ['direct', null], 'kind and title');
    for (const [caller, other] of [[dave, erin], [erin, dave]]) {
      const again = await openDirect(ctx, caller!, other!);
      expectStatus(again, 200);
      expectEqual(again.json.data.id, made.json.data.id, 'the same direct chat');
    }
  }),
  check('features.direct.bad-body-400', '§14.1', 'members MUST hold exactly one user id (400 naming data.members); title MUST be absent or null (400 naming data.title)', async (ctx) => {
    const [alice, bob, carol] = [await ctx.user('alice'), await ctx.user('bob'), await ctx.user('carol')];
    expectProblem(await ctx.call('POST', PATHS.chats, { token: alice.token, json: { data: { kind: 'direct', members: [bob.id, carol.id] } } }), 400, undefined, 'data.members');
    expectProblem(await ctx.call('POST', PATHS.chats, { token: alice.token, json: { data: { kind: 'direct', members: [bob.id], title: 'No' } } }), 400, undefined, 'data.title');
  }),
  check('features.direct.keeps-two-409', '§14.1', 'A direct chat keeps exactly its two people: adding a member or changing its title is 409 ERR_DIRECT_CHAT, nothing changed', async (ctx) => {
    const [dave, erin, carol] = [await ctx.user('dave'), await ctx.user('erin'), await ctx.user('carol')];
    const chatId = (await openDirect(ctx, dave, erin)).json.data.id;
    expectProblem(await ctx.call('PUT', ctx.at(PATHS.member, { chatId, userId: carol.id }), { token: dave.token }), 409, 'ERR_DIRECT_CHAT');
    expectProblem(await ctx.call('PATCH', ctx.at(PATHS.chat, { chatId }), { token: dave.token, json: { data: { title: 'Renamed' } } }), 409, 'ERR_DIRECT_CHAT');
    const chat = await ctx.call('GET', ctx.at(PATHS.chat, { chatId }), { token: dave.token });
    expectEqual([chat.json.data.title, chat.json.data.kind], [null, 'direct'], 'title and kind after the refusals');
  }),
  check('features.mentions.fills-mentions', '§14.2', 'Every message carries mentions: the ids of the members mentioned by @login as a whole word, each once (@bobby or mail@bob do not mention bob)', async (ctx) => {
    const [alice, bob, carol] = [await ctx.user('alice'), await ctx.user('bob'), await ctx.user('carol')];
    const chat = await ctx.chat(alice, [bob, carol]);
    const message = await ctx.post(alice, chat.id, `@${bob.login}. and @${carol.login}, again @${bob.login}`);
    expectEqual(message.mentions, [bob.id, carol.id], 'mentions');
    expectEqual((await ctx.post(alice, chat.id, `mail@${bob.login} @${bob.login}by`)).mentions, [], 'mentions of no whole word');
    expectProblem(await ctx.call('POST', ctx.at(PATHS.messages, { chatId: chat.id }), { token: alice.token, json: { data: { text: 'x', mentions: [bob.id] } } }), 400, undefined, 'data.mentions');
  }),
  check('features.mentions.count-and-list', '§14.2', 'Each chat carries the caller\'s mentionCount; GET /mentions lists the messages that mention the caller, newest first', async (ctx) => {
    const [alice, bob] = [await ctx.user('alice'), await ctx.user('bob')];
    const chat = await ctx.chat(alice, [bob]);
    const message = await ctx.post(alice, chat.id, `hello @${bob.login}`);
    const seen = await ctx.call('GET', ctx.at(PATHS.chat, { chatId: chat.id }), { token: bob.token });
    expectEqual([seen.json.data.unreadCount, seen.json.data.mentionCount], [1, 1], 'bob\'s unreadCount and mentionCount');
    expectEqual((await ctx.call('GET', ctx.at(PATHS.chat, { chatId: chat.id }), { token: alice.token })).json.data.mentionCount, 0, 'alice\'s mentionCount');
    const listed = await ctx.call('GET', `${PATHS.mentions}?limit=1`, { token: bob.token });
    expectStatus(listed, 200);
    expectEqual(listed.json.data.map((each: { id: string }) => each.id), [message.id], 'the newest mention of bob');
  }),
  check('features.mentions.all-owner-only', '§14.2', '@all: only the chat\'s owner and admins may write it; anyone else gets 403 ERR_FORBIDDEN naming data.text', async (ctx) => {
    const [alice, bob, carol] = [await ctx.user('alice'), await ctx.user('bob'), await ctx.user('carol')];
    if (bob.role !== 'member') ctx.skip('bob is not a member on this server');
    const chat = await ctx.chat(alice, [bob, carol]);
    expectProblem(await ctx.call('POST', ctx.at(PATHS.messages, { chatId: chat.id }), { token: bob.token, json: { data: { text: 'hey @all' } } }), 403, 'ERR_FORBIDDEN', 'data.text');
    expectEqual((await ctx.post(alice, chat.id, 'hey @all')).mentions, [alice.id, bob.id, carol.id], 'mentions of @all');
  }),
  check('features.notifications.levels', '§14.3', 'GET /chats/{id}/notifications: {"data": {"chatId", "level"}}, mentions by default in a group; PUT sets it; any other level is a 400 naming data.level', async (ctx) => {
    const [alice, bob, carol] = [await ctx.user('alice'), await ctx.user('bob'), await ctx.user('carol')];
    const chat = await ctx.chat(alice, [bob]);
    const path = ctx.at(PATHS.notifications, { chatId: chat.id });
    const first = await ctx.call('GET', path, { token: bob.token });
    expectStatus(first, 200);
    expectEqual(first.json, { data: { chatId: chat.id, level: 'mentions' } }, 'the default level of a group');
    expectProblem(await ctx.call('PUT', path, { token: bob.token, json: { data: { level: 'loud' } } }), 400, undefined, 'data.level');
    const set = await ctx.call('PUT', path, { token: bob.token, json: { data: { level: 'none' } } });
    expectStatus(set, 200);
    expectEqual(set.json, { data: { chatId: chat.id, level: 'none' } }, 'the level set');
    expectEqual((await ctx.call('GET', path, { token: alice.token })).json.data.level, 'mentions', 'alice\'s level, untouched');
    expectProblem(await ctx.call('GET', path, { token: carol.token }), 404);
  }),
  check('features.notifications.only-the-mentioned', '§14.4', 'Each notified member gets a notification event {"reason", "message"} on their own streams only; under mentions, a member not mentioned gets none', async (ctx) => {
    const { alice, bob, carol, chat, bobStream, carolStream } = await openGroupWithStreams(ctx);
    const first = await ctx.post(alice, chat.id, `for @${bob.login}`);
    const second = await ctx.post(alice, chat.id, `for @${carol.login}`);
    const bobs = await bobStream.waitFor((event) => event.type === 'notification' && event.json?.chatId === chat.id, 'bob\'s notification');
    expectEqual([bobs.json.data.reason, bobs.json.data.message.id], ['mention', first.id], 'bob\'s notification');
    await carolStream.waitFor((event) => event.type === 'notification' && event.json?.data?.message?.id === second.id, 'carol\'s notification');
    const carols = carolStream.events.filter((event) => event.type === 'notification' && event.json?.chatId === chat.id);
    expectEqual(carols.map((event) => event.json.data.message.id), [second.id], 'the notifications carol got');
  }),
  check('features.typing.ephemeral', '§14.5', 'POST /chats/{id}/typing answers 204; the other members get a typing event {"chatId", "userId", "until"} without an id: field', async (ctx) => {
    const { alice, chat, bobStream } = await openGroupWithStreams(ctx);
    const reply = await ctx.call('POST', ctx.at(PATHS.typing, { chatId: chat.id }), { token: alice.token });
    expectStatus(reply, 204);
    const typing = await bobStream.waitFor((event) => event.type === 'typing' && event.json?.chatId === chat.id, 'the typing event');
    expectEqual(typing.id, undefined, 'the id: field of a typing event');
    expectEqual(Object.keys(typing.json.data).sort(), ['chatId', 'until', 'userId'], 'the keys of its data');
    expectEqual(typing.json.data.userId, alice.id, 'the typist');
    expectTrue(ISO_MS.test(typing.json.data.until) && typing.json.data.until > typing.json.createdAt, 'until is after createdAt');
    const stranger = await ctx.user('dave');
    expectProblem(await ctx.call('POST', ctx.at(PATHS.typing, { chatId: chat.id }), { token: stranger.token }), 404);
  }),
  check('features.presence.field', '§14.6', 'Every answer about users carries presence: "online", "away" or "offline"; a user holding an open event stream is online', async (ctx) => {
    const [alice, bob] = [await ctx.user('alice'), await ctx.user('bob')];
    await ctx.readyStream(alice.token);
    const self = await ctx.call('GET', ctx.at(PATHS.user, { userId: alice.id }), { token: alice.token });
    expectEqual(self.json.presence, 'online', 'the presence of a user with an open stream');
    const other = await ctx.call('GET', ctx.at(PATHS.user, { userId: bob.id }), { token: alice.token });
    expectTrue(['online', 'away', 'offline'].includes(other.json.presence), `presence is ${JSON.stringify(other.json.presence)}`);
    const list = await ctx.call('GET', `${PATHS.users}?limit=5`, { token: alice.token });
    expectTrue(list.json.data.every((user: { presence: string }) => ['online', 'away', 'offline'].includes(user.presence)), 'presence in GET /users');
  }),
];
