// docs/protocol.md §4.4 to §4.6 (messages, message actions, the top-level address) and §5 (search).
import { PATHS } from '../../paths.ts';
import { expectEqual, expectHeader, expectProblem, expectStatus, expectTrue, readHeader } from '../expect.ts';
import type { KitContext, KitUser } from '../context.ts';
import { check } from './define.ts';

async function readActions(ctx: KitContext, user: KitUser, chatId: string, messageId: string): Promise<any[]> {
  const reply = await ctx.call('GET', ctx.at(PATHS.messageActions, { chatId, messageId }), { token: user.token });
  expectStatus(reply, 200);
  return reply.json.data;
}

export const MESSAGES_CHECKS = [
  check('core.messages.post-201', '§4.4', 'POST /chats/{id}/messages: any member, 201, Location: /chats/{id}/messages/{messageId}', async (ctx) => {
    const [alice, bob] = [await ctx.user('alice'), await ctx.user('bob')];
    const chat = await ctx.chat(alice, [bob]);
    const reply = await ctx.call('POST', ctx.at(PATHS.messages, { chatId: chat.id }), { token: bob.token, json: { data: { text: 'hi' } } });
    expectStatus(reply, 201);
    expectHeader(reply, 'location', ctx.prefixed(ctx.at(PATHS.message, { chatId: chat.id, messageId: reply.json.data.id })));
    expectEqual([reply.json.data.chatId, reply.json.data.authorId, reply.json.data.text], [chat.id, bob.id, 'hi'], 'chatId, authorId, text');
  }),
  check('core.messages.reply-to-400', '§4.4', 'replyTo MUST be an earlier message of the same chat (400 naming data.replyTo)', async (ctx) => {
    const alice = await ctx.user('alice');
    const [one, two] = [await ctx.chat(alice), await ctx.chat(alice)];
    const elsewhere = await ctx.post(alice, two.id, 'in another chat');
    expectProblem(await ctx.call('POST', ctx.at(PATHS.messages, { chatId: one.id }), { token: alice.token, json: { data: { text: 'x', replyTo: elsewhere.id } } }), 400, undefined, 'data.replyTo');
  }),
  check('core.messages.history-order', '§4.4', 'GET /chats/{id}/messages: the chat\'s history, oldest first', async (ctx) => {
    const alice = await ctx.user('alice');
    const chat = await ctx.chat(alice);
    const ids: string[] = [];
    for (const text of ['one', 'two', 'three']) ids.push((await ctx.post(alice, chat.id, text)).id);
    const reply = await ctx.call('GET', ctx.at(PATHS.messages, { chatId: chat.id }), { token: alice.token });
    expectEqual(reply.json.data.map((message: { id: string }) => message.id), ids, 'the history');
  }),
  check('core.messages.author-only-edit', '§4.4', 'PUT and PATCH of a message: the author only', async (ctx) => {
    const [alice, bob] = [await ctx.user('alice'), await ctx.user('bob')];
    const chat = await ctx.chat(alice, [bob]);
    const message = await ctx.post(alice, chat.id, 'mine');
    const path = ctx.at(PATHS.message, { chatId: chat.id, messageId: message.id });
    expectProblem(await ctx.call('PATCH', path, { token: bob.token, json: { data: { text: 'yours' } } }), 403);
    expectProblem(await ctx.call('PUT', path, { token: bob.token, json: { data: { text: 'yours' } } }), 403);
  }),
  check('core.messages.patch-nulls', '§4.4', 'PATCH: text: null is a 400, replyTo: null removes the reply', async (ctx) => {
    const alice = await ctx.user('alice');
    const chat = await ctx.chat(alice);
    const first = await ctx.post(alice, chat.id, 'first');
    const reply = await ctx.post(alice, chat.id, 'second', first.id);
    const path = ctx.at(PATHS.message, { chatId: chat.id, messageId: reply.id });
    expectProblem(await ctx.call('PATCH', path, { token: alice.token, json: { data: { text: null } } }), 400, undefined, 'data.text');
    const patched = await ctx.call('PATCH', path, { token: alice.token, json: { data: { replyTo: null } } });
    expectStatus(patched, 200);
    expectEqual([patched.json.data.replyTo, patched.json.data.text], [null, 'second'], 'replyTo and text');
  }),
  check('core.messages.put-never-creates', '§4.4', 'PUT of a message replaces text and replyTo; never creates', async (ctx) => {
    const alice = await ctx.user('alice');
    const chat = await ctx.chat(alice);
    const missing = ctx.at(PATHS.message, { chatId: chat.id, messageId: ctx.unique('nomessage') });
    expectProblem(await ctx.call('PUT', missing, { token: alice.token, json: { data: { text: 'new' } } }), 404);
    const message = await ctx.post(alice, chat.id, 'old');
    const put = await ctx.call('PUT', ctx.at(PATHS.message, { chatId: chat.id, messageId: message.id }), { token: alice.token, json: { data: { text: 'new' } } });
    expectStatus(put, 200);
    expectEqual(put.json.data.text, 'new', 'text');
  }),
  check('core.messages.delete-replies', '§4.4', 'DELETE: the author or the chat\'s owner, 204; replies to a deleted message get replyTo: null', async (ctx) => {
    const [alice, bob] = [await ctx.user('alice'), await ctx.user('bob')];
    const chat = await ctx.chat(alice, [bob]);
    const parent = await ctx.post(bob, chat.id, 'parent');
    const child = await ctx.post(alice, chat.id, 'child', parent.id);
    expectStatus(await ctx.call('DELETE', ctx.at(PATHS.message, { chatId: chat.id, messageId: parent.id }), { token: alice.token }), 204);
    const after = await ctx.call('GET', ctx.at(PATHS.message, { chatId: chat.id, messageId: child.id }), { token: alice.token });
    expectEqual(after.json.data.replyTo, null, 'replyTo of the reply');
  }),
  check('core.messages.member-delete-403', '§4.4', 'A member may not delete another member\'s message', async (ctx) => {
    const [alice, bob, carol] = [await ctx.user('alice'), await ctx.user('bob'), await ctx.user('carol')];
    const chat = await ctx.chat(alice, [bob, carol]);
    const message = await ctx.post(carol, chat.id, 'carol\'s');
    expectProblem(await ctx.call('DELETE', ctx.at(PATHS.message, { chatId: chat.id, messageId: message.id }), { token: bob.token }), 403);
  }),
  check('core.messages.clear-204', '§4.4', 'DELETE /chats/{id}/messages: the owner deletes every message at once, 204', async (ctx) => {
    const [alice, bob] = [await ctx.user('alice'), await ctx.user('bob')];
    const chat = await ctx.chat(alice, [bob]);
    await ctx.post(bob, chat.id, 'one');
    const path = ctx.at(PATHS.messages, { chatId: chat.id });
    expectProblem(await ctx.call('DELETE', path, { token: bob.token }), 403);
    expectStatus(await ctx.call('DELETE', path, { token: alice.token }), 204);
    expectEqual((await ctx.call('GET', path, { token: alice.token })).json.meta.total, 0, 'messages left');
  }),
  check('core.actions.author', '§4.5', 'The author may reply, edit, delete and react, each with its method and the chat-scoped href', async (ctx) => {
    const [alice, bob] = [await ctx.user('alice'), await ctx.user('bob')];
    const chat = await ctx.chat(alice, [bob]);
    const message = await ctx.post(bob, chat.id, 'by bob');
    const messagePath = ctx.prefixed(ctx.at(PATHS.message, { chatId: chat.id, messageId: message.id }));
    const reactions = ctx.prefixed(ctx.at(PATHS.reactions, { chatId: chat.id, messageId: message.id }));
    const actions = (await readActions(ctx, bob, chat.id, message.id)).map((action) => [action.id, action.method, action.href]);
    expectEqual(actions.sort(), [
      ['delete', 'DELETE', messagePath], ['edit', 'PATCH', messagePath], ['react', 'PUT', `${reactions}/{emoji}`],
      ['reply', 'POST', ctx.prefixed(ctx.at(PATHS.messages, { chatId: chat.id }))],
    ], 'the author\'s actions');
  }),
  check('core.actions.member', '§4.5', 'Exactly the actions the caller may take: a member who is not author nor owner may reply and react', async (ctx) => {
    const [alice, bob, carol] = [await ctx.user('alice'), await ctx.user('bob'), await ctx.user('carol')];
    const chat = await ctx.chat(alice, [bob, carol]);
    const message = await ctx.post(bob, chat.id, 'by bob');
    expectEqual((await readActions(ctx, carol, chat.id, message.id)).map((action) => action.id).sort(), ['react', 'reply'], 'carol\'s actions');
  }),
  check('core.actions.owner', '§4.5', 'The chat\'s owner may delete any message: reply, delete, react', async (ctx) => {
    const [alice, bob] = [await ctx.user('alice'), await ctx.user('bob')];
    const chat = await ctx.chat(alice, [bob]);
    const message = await ctx.post(bob, chat.id, 'by bob');
    expectEqual((await readActions(ctx, alice, chat.id, message.id)).map((action) => action.id).sort(), ['delete', 'react', 'reply'], 'the owner\'s actions');
  }),
  check('core.messages.top-level', '§4.6', 'GET /messages/{messageId} is the same message, with the same representation and ETag, for the chat\'s members', async (ctx) => {
    const [alice, carol] = [await ctx.user('alice'), await ctx.user('carol')];
    const chat = await ctx.chat(alice);
    const message = await ctx.post(alice, chat.id, 'top');
    const scoped = await ctx.call('GET', ctx.at(PATHS.message, { chatId: chat.id, messageId: message.id }), { token: alice.token });
    const top = await ctx.call('GET', ctx.at(PATHS.topMessage, { messageId: message.id }), { token: alice.token });
    expectStatus(top, 200);
    expectEqual(top.json, scoped.json, 'the body');
    expectEqual(readHeader(top, 'etag'), readHeader(scoped, 'etag'), 'the ETag');
    expectProblem(await ctx.call('GET', ctx.at(PATHS.topMessage, { messageId: message.id }), { token: carol.token }), 404);
  }),
  check('core.search.prefix', '§5', 'Every word of q MUST match as the prefix of a word, ignoring case and diacritics', async (ctx) => {
    const alice = await ctx.user('alice');
    const chat = await ctx.chat(alice);
    const word = `Zébu${ctx.runId}`;
    const message = await ctx.post(alice, chat.id, `a ${word}quux rides`);
    const reply = await ctx.call('GET', `${PATHS.search}?q=${encodeURIComponent(`zebu${ctx.runId.toUpperCase()}`)}`, { token: alice.token });
    expectStatus(reply, 200);
    const found = reply.json.data.filter((item: { type: string }) => item.type === 'message').map((item: { id: string }) => item.id);
    expectEqual(found, [message.id], 'the messages found');
    expectEqual(reply.json.data.find((item: { id: string }) => item.id === message.id)?.text, message.text, 'the item\'s text, as its address answers it');
  }),
  check('core.search.visibility', '§5', 'Search finds the messages in the caller\'s chats only', async (ctx) => {
    const [alice, carol] = [await ctx.user('alice'), await ctx.user('carol')];
    const chat = await ctx.chat(alice);
    const word = `secret${ctx.runId}`;
    await ctx.post(alice, chat.id, word);
    const reply = await ctx.call('GET', `${PATHS.search}?q=${word}`, { token: carol.token });
    expectStatus(reply, 200);
    expectEqual(reply.json.meta.total, 0, 'what carol finds');
  }),
  check('core.search.bad-q-400', '§5', 'q missing, empty, without a letter or digit, over 1000 characters, over 32 words or given twice: 400 ERR_BAD_QUERY naming q', async (ctx) => {
    const alice = await ctx.user('alice');
    const words = Array.from({ length: 33 }, (_, index) => `w${index}`).join(' ');
    for (const query of ['', '?q=', '?q=%21%21', `?q=${'a'.repeat(1001)}`, `?q=${encodeURIComponent(words)}`, '?q=a&q=b']) {
      expectProblem(await ctx.call('GET', `${PATHS.search}${query}`, { token: alice.token }), 400, 'ERR_BAD_QUERY', 'q');
    }
  }),
  check('core.search.methods', '§5', 'OPTIONS /search: 204 with Allow: OPTIONS, GET, HEAD; POST /search: 405 with that Allow', async (ctx) => {
    const alice = await ctx.user('alice');
    const options = await ctx.call('OPTIONS', PATHS.search);
    expectStatus(options, 204);
    expectHeader(options, 'allow', 'OPTIONS, GET, HEAD');
    const post = await ctx.call('POST', PATHS.search, { token: alice.token, json: {} });
    expectProblem(post, 405, 'ERR_METHOD_NOT_ALLOWED');
    expectHeader(post, 'allow', 'OPTIONS, GET, HEAD');
  }),
  check('core.search.newest-first', '§5', 'Results are newest first', async (ctx) => {
    const alice = await ctx.user('alice');
    const chat = await ctx.chat(alice);
    const word = `order${ctx.runId}`;
    const first = await ctx.post(alice, chat.id, `${word} one`);
    const second = await ctx.post(alice, chat.id, `${word} two`);
    const reply = await ctx.call('GET', `${PATHS.search}?q=${word}&type=message`, { token: alice.token });
    expectEqual(reply.json.data.map((item: { id: string }) => item.id), [second.id, first.id], 'the results');
    expectTrue(reply.json.data.every((item: { type: string }) => item.type === 'message'), 'type=message filters');
  }),
];
