// docs/protocol.md §10: read markers, reactions and edit history, and where they answer.
import { PATHS } from '../../paths.ts';
import { expectEqual, expectHeader, expectMatch, expectProblem, expectStatus, expectTrue, readHeader, ISO_MS } from '../expect.ts';
import type { KitContext } from '../context.ts';
import { check } from './define.ts';

async function readMarker(ctx: KitContext, token: string, chatId: string): Promise<any> {
  return (await ctx.call('GET', ctx.at(PATHS.read, { chatId }), { token })).json?.data;
}

export const FEATURES_CHECKS = [
  check('features.read.shape', '§10.1', 'GET /chats/{id}/read answers {"data": {"chatId", "lastReadId", "unreadCount"}}, and the read marker carries mentionCount too (§14.2)', async (ctx) => {
    const alice = await ctx.user('alice');
    const chat = await ctx.chat(alice);
    const reply = await ctx.call('GET', ctx.at(PATHS.read, { chatId: chat.id }), { token: alice.token });
    expectStatus(reply, 200);
    expectEqual(reply.json, { data: { chatId: chat.id, lastReadId: null, unreadCount: 0, mentionCount: 0 } }, 'the read marker of a new chat');
  }),
  check('features.read.counts', '§10.1', 'unreadCount counts the messages after the marker that others wrote; posting moves its author\'s marker to it', async (ctx) => {
    const [alice, bob] = [await ctx.user('alice'), await ctx.user('bob')];
    const chat = await ctx.chat(alice, [bob]);
    await ctx.post(alice, chat.id, 'one');
    const two = await ctx.post(alice, chat.id, 'two');
    expectEqual(await readMarker(ctx, alice.token, chat.id), { chatId: chat.id, lastReadId: two.id, unreadCount: 0, mentionCount: 0 }, 'alice\'s marker');
    expectEqual((await readMarker(ctx, bob.token, chat.id)).unreadCount, 2, 'bob\'s unread count');
  }),
  check('features.read.move', '§10.1', 'PUT /chats/{id}/read moves it, forward or back; null marks the whole chat unread', async (ctx) => {
    const [alice, bob] = [await ctx.user('alice'), await ctx.user('bob')];
    const chat = await ctx.chat(alice, [bob]);
    const one = await ctx.post(alice, chat.id, 'one');
    const two = await ctx.post(alice, chat.id, 'two');
    const path = ctx.at(PATHS.read, { chatId: chat.id });
    const forward = await ctx.call('PUT', path, { token: bob.token, json: { data: { lastReadId: two.id } } });
    expectStatus(forward, 200);
    expectEqual(forward.json.data, { chatId: chat.id, lastReadId: two.id, unreadCount: 0, mentionCount: 0 }, 'after reading all');
    expectEqual((await ctx.call('PUT', path, { token: bob.token, json: { data: { lastReadId: one.id } } })).json.data.unreadCount, 1, 'unread after moving back');
    expectEqual((await ctx.call('PUT', path, { token: bob.token, json: { data: { lastReadId: null } } })).json.data, { chatId: chat.id, lastReadId: null, unreadCount: 2, mentionCount: 0 }, 'after null');
  }),
  check('features.read.bad-id-400', '§10.1', 'An id that is not a message of the chat: 400 naming data.lastReadId', async (ctx) => {
    const alice = await ctx.user('alice');
    const chat = await ctx.chat(alice);
    expectProblem(await ctx.call('PUT', ctx.at(PATHS.read, { chatId: chat.id }), { token: alice.token, json: { data: { lastReadId: ctx.unique('nomessage') } } }), 400, undefined, 'data.lastReadId');
  }),
  check('features.read.joiner-starts-at-newest', '§10.1', 'A member who joins starts with the marker on the newest message', async (ctx) => {
    const [alice, carol] = [await ctx.user('alice'), await ctx.user('carol')];
    const chat = await ctx.chat(alice);
    const newest = await ctx.post(alice, chat.id, 'before carol');
    expectStatus(await ctx.call('PUT', ctx.at(PATHS.member, { chatId: chat.id, userId: carol.id }), { token: alice.token }), 204);
    expectEqual(await readMarker(ctx, carol.token, chat.id), { chatId: chat.id, lastReadId: newest.id, unreadCount: 0, mentionCount: 0 }, 'carol\'s marker');
  }),
  check('features.read.delete-keeps-exact', '§10.1', 'A marker on a deleted message moves to the message before it; deleting all leaves it null and the count 0', async (ctx) => {
    const [alice, bob] = [await ctx.user('alice'), await ctx.user('bob')];
    const chat = await ctx.chat(alice, [bob]);
    const one = await ctx.post(alice, chat.id, 'one');
    const two = await ctx.post(alice, chat.id, 'two');
    expectStatus(await ctx.call('PUT', ctx.at(PATHS.read, { chatId: chat.id }), { token: bob.token, json: { data: { lastReadId: two.id } } }), 200);
    expectStatus(await ctx.call('DELETE', ctx.at(PATHS.message, { chatId: chat.id, messageId: two.id }), { token: alice.token }), 204);
    expectEqual(await readMarker(ctx, bob.token, chat.id), { chatId: chat.id, lastReadId: one.id, unreadCount: 0, mentionCount: 0 }, 'bob\'s marker after the delete');
    expectStatus(await ctx.call('DELETE', ctx.at(PATHS.messages, { chatId: chat.id }), { token: alice.token }), 204);
    expectEqual(await readMarker(ctx, bob.token, chat.id), { chatId: chat.id, lastReadId: null, unreadCount: 0, mentionCount: 0 }, 'bob\'s marker after clearing');
  }),
  check('features.read.chat-fields', '§10.1', 'The chat carries the caller\'s lastReadId and unreadCount, and GET /chats filters on them', async (ctx) => {
    const [alice, bob] = [await ctx.user('alice'), await ctx.user('bob')];
    const chat = await ctx.chat(alice, [bob]);
    await ctx.post(alice, chat.id, 'unread by bob');
    const seen = await ctx.call('GET', ctx.at(PATHS.chat, { chatId: chat.id }), { token: bob.token });
    expectEqual(seen.json.data.unreadCount, 1, 'bob\'s unreadCount on the chat');
    const unread = await ctx.call('GET', `${PATHS.chats}?filter=unreadCount|gt|0&id=${chat.id}`, { token: bob.token });
    expectEqual(unread.json.meta.total, 1, 'bob\'s unread chats with that id');
    const none = await ctx.call('GET', `${PATHS.chats}?filter=unreadCount|gt|0&id=${chat.id}`, { token: alice.token });
    expectEqual(none.json.meta.total, 0, 'alice\'s unread chats with that id');
  }),
  check('features.reactions.put', '§10.2', 'PUT .../reactions/{emoji}: 201 (with Location) when new, 204 when it was there', async (ctx) => {
    const alice = await ctx.user('alice');
    const chat = await ctx.chat(alice);
    const message = await ctx.post(alice, chat.id, 'react');
    const path = ctx.at(PATHS.reaction, { chatId: chat.id, messageId: message.id, emoji: '👍' });
    const first = await ctx.call('PUT', path, { token: alice.token });
    expectStatus(first, 201);
    expectHeader(first, 'location', ctx.prefixed(path));
    expectStatus(await ctx.call('PUT', path, { token: alice.token }), 204);
  }),
  check('features.reactions.get-delete', '§10.2', 'GET of it: the caller\'s own reaction; DELETE: 204, or 404 when the caller had none', async (ctx) => {
    const [alice, bob] = [await ctx.user('alice'), await ctx.user('bob')];
    const chat = await ctx.chat(alice, [bob]);
    const message = await ctx.post(alice, chat.id, 'react');
    const path = ctx.at(PATHS.reaction, { chatId: chat.id, messageId: message.id, emoji: '+1' });
    expectStatus(await ctx.call('PUT', path, { token: alice.token }), 201);
    const own = await ctx.call('GET', path, { token: alice.token });
    expectStatus(own, 200);
    expectEqual([own.json.data.emoji, own.json.data.userId], ['+1', alice.id], 'the reaction');
    expectMatch(own.json.data.createdAt, ISO_MS, 'createdAt');
    expectProblem(await ctx.call('GET', path, { token: bob.token }), 404);
    expectProblem(await ctx.call('DELETE', path, { token: bob.token }), 404);
    expectStatus(await ctx.call('DELETE', path, { token: alice.token }), 204);
  }),
  check('features.reactions.bad-emoji-400', '§10.2', '{emoji} is 1 to 32 code points without whitespace, control characters or bidirectional controls; otherwise 400 naming emoji', async (ctx) => {
    const alice = await ctx.user('alice');
    const chat = await ctx.chat(alice);
    const message = await ctx.post(alice, chat.id, 'react');
    for (const emoji of ['a b', 'x'.repeat(33), '\u202Eok', 'tab\t']) {
      expectProblem(await ctx.call('PUT', ctx.at(PATHS.reaction, { chatId: chat.id, messageId: message.id, emoji }), { token: alice.token }), 400, undefined, 'emoji');
    }
  }),
  check('features.reactions.on-message', '§10.2', 'Every message carries reactions [{emoji, count, userIds}] in order of first use; updatedAt unchanged, ETag changed', async (ctx) => {
    const [alice, bob] = [await ctx.user('alice'), await ctx.user('bob')];
    const chat = await ctx.chat(alice, [bob]);
    const message = await ctx.post(alice, chat.id, 'react');
    const path = ctx.at(PATHS.message, { chatId: chat.id, messageId: message.id });
    const before = readHeader(await ctx.call('GET', path, { token: alice.token }), 'etag');
    for (const [user, emoji] of [[bob, '🎉'], [alice, '👍'], [alice, '🎉']] as const) {
      expectStatus(await ctx.call('PUT', ctx.at(PATHS.reaction, { chatId: chat.id, messageId: message.id, emoji }), { token: user.token }), 201);
    }
    const after = await ctx.call('GET', path, { token: bob.token });
    expectEqual(after.json.data.reactions, [{ emoji: '🎉', count: 2, userIds: [bob.id, alice.id] }, { emoji: '👍', count: 1, userIds: [alice.id] }], 'reactions');
    expectEqual(after.json.data.updatedAt, message.updatedAt, 'updatedAt');
    expectTrue(readHeader(after, 'etag') !== before, 'the ETag changed');
  }),
  check('features.reactions.collection', '§10.2', 'GET .../reactions: a collection of {"emoji", "userId", "createdAt"}', async (ctx) => {
    const alice = await ctx.user('alice');
    const chat = await ctx.chat(alice);
    const message = await ctx.post(alice, chat.id, 'react');
    expectStatus(await ctx.call('PUT', ctx.at(PATHS.reaction, { chatId: chat.id, messageId: message.id, emoji: '🙂' }), { token: alice.token }), 201);
    const reply = await ctx.call('GET', ctx.at(PATHS.reactions, { chatId: chat.id, messageId: message.id }), { token: alice.token });
    expectStatus(reply, 200);
    expectEqual(reply.json.meta.total, 1, 'meta.total');
    expectEqual(Object.keys(reply.json.data[0]).sort(), ['createdAt', 'emoji', 'userId'], 'the keys of a reaction');
  }),
  check('features.revisions.edited-at', '§10.3', 'Changing a message\'s text sets editedAt; the same text is not an edit', async (ctx) => {
    const alice = await ctx.user('alice');
    const chat = await ctx.chat(alice);
    const message = await ctx.post(alice, chat.id, 'draft');
    const path = ctx.at(PATHS.message, { chatId: chat.id, messageId: message.id });
    const same = await ctx.call('PATCH', path, { token: alice.token, json: { data: { text: 'draft' } } });
    expectEqual(same.json.data.editedAt, null, 'editedAt after the same text');
    const edited = await ctx.call('PATCH', path, { token: alice.token, json: { data: { text: 'final' } } });
    expectMatch(edited.json.data.editedAt, ISO_MS, 'editedAt after an edit');
  }),
  check('features.revisions.list', '§10.3', 'GET .../revisions: every version, oldest first, ids "1", "2", ...; the last is the current text; .../revisions/{n} reads one', async (ctx) => {
    const alice = await ctx.user('alice');
    const chat = await ctx.chat(alice);
    const message = await ctx.post(alice, chat.id, 'v1');
    expectStatus(await ctx.call('PATCH', ctx.at(PATHS.message, { chatId: chat.id, messageId: message.id }), { token: alice.token, json: { data: { text: 'v2' } } }), 200);
    const list = await ctx.call('GET', ctx.at(PATHS.revisions, { chatId: chat.id, messageId: message.id }), { token: alice.token });
    expectStatus(list, 200);
    expectEqual(list.json.data.map((revision: { id: string; text: string }) => [revision.id, revision.text]), [['1', 'v1'], ['2', 'v2']], 'the revisions');
    const one = await ctx.call('GET', ctx.at(PATHS.revision, { chatId: chat.id, messageId: message.id, revisionId: '1' }), { token: alice.token });
    expectStatus(one, 200);
    expectEqual(one.json.data.text, 'v1', 'the first revision');
  }),
  check('features.top-level.routes', '§10.4', 'Every route of §10.2 and §10.3 also answers under the message\'s top-level address', async (ctx) => {
    const alice = await ctx.user('alice');
    const chat = await ctx.chat(alice);
    const message = await ctx.post(alice, chat.id, 'top');
    expectStatus(await ctx.call('PUT', ctx.at(PATHS.topReaction, { messageId: message.id, emoji: '👀' }), { token: alice.token }), 201);
    expectEqual((await ctx.call('GET', ctx.at(PATHS.topReactions, { messageId: message.id }), { token: alice.token })).json.meta.total, 1, 'reactions at the top-level address');
    expectEqual((await ctx.call('GET', ctx.at(PATHS.topRevisions, { messageId: message.id }), { token: alice.token })).json.meta.total, 1, 'revisions at the top-level address');
    expectStatus(await ctx.call('GET', ctx.at(PATHS.topRevision, { messageId: message.id, revisionId: '1' }), { token: alice.token }), 200);
  }),
  check('events.event.reaction-added', '§9.1', 'reaction.added carries {"messageId", "emoji", "userId", "createdAt"}', async (ctx) => {
    const alice = await ctx.user('alice');
    const chat = await ctx.chat(alice);
    const message = await ctx.post(alice, chat.id, 'react');
    const stream = await ctx.readyStream(alice.token);
    expectStatus(await ctx.call('PUT', ctx.at(PATHS.reaction, { chatId: chat.id, messageId: message.id, emoji: '🔥' }), { token: alice.token }), 201);
    const event = await stream.waitFor((item) => item.type === 'reaction.added' && item.json?.chatId === chat.id, 'reaction.added');
    expectEqual(Object.keys(event.json.data).sort(), ['createdAt', 'emoji', 'messageId', 'userId'], 'the keys of the data');
    expectEqual([event.json.data.messageId, event.json.data.emoji], [message.id, '🔥'], 'messageId and emoji');
  }),
];
