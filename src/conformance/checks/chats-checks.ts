// docs/protocol.md §4.1 to §4.3: visibility, chats, members.
import { PATHS } from '../../paths.ts';
import { expectEqual, expectHeader, expectProblem, expectStatus, readHeader } from '../expect.ts';
import { check } from './define.ts';

export const CHATS_CHECKS = [
  check('core.visibility.unknown-404', '§4.1', 'A chat that does not exist answers 404', async (ctx) => {
    const alice = await ctx.user('alice');
    expectProblem(await ctx.call('GET', ctx.at(PATHS.chat, { chatId: ctx.unique('missing') }), { token: alice.token }), 404, 'ERR_NOT_FOUND');
  }),
  check('core.visibility.hidden-404', '§4.1', 'A chat the caller may not see MUST answer the same 404 as one that does not exist', async (ctx) => {
    const [alice, carol] = [await ctx.user('alice'), await ctx.user('carol')];
    const chat = await ctx.chat(alice);
    const hidden = await ctx.call('GET', ctx.at(PATHS.chat, { chatId: chat.id }), { token: carol.token });
    const missing = await ctx.call('GET', ctx.at(PATHS.chat, { chatId: ctx.unique('missing') }), { token: carol.token });
    expectProblem(hidden, 404, 'ERR_NOT_FOUND');
    expectEqual([hidden.json.code, hidden.json.title], [missing.json.code, missing.json.title], 'code and title of a hidden chat, as of a missing one');
  }),
  check('core.visibility.write-order', '§4.1', 'A write checks in the order 401, 404, 403, 400: an outsider\'s bad body gets 404', async (ctx) => {
    const [alice, carol] = [await ctx.user('alice'), await ctx.user('carol')];
    const chat = await ctx.chat(alice);
    expectProblem(await ctx.call('POST', ctx.at(PATHS.messages, { chatId: chat.id }), { token: carol.token, json: { data: { text: '' } } }), 404);
    expectProblem(await ctx.call('POST', ctx.at(PATHS.messages, { chatId: chat.id }), { json: { data: { text: '' } } }), 401);
  }),
  check('core.chats.create-201', '§4.2', 'POST /chats: 201, Location: /chats/{id}, the chat; the caller becomes its owner and a member', async (ctx) => {
    const alice = await ctx.user('alice');
    const title = ctx.unique('create');
    const reply = await ctx.call('POST', PATHS.chats, { token: alice.token, json: { data: { title } } });
    expectStatus(reply, 201);
    ctx.remember(reply.json.data.id, alice);
    expectHeader(reply, 'location', ctx.prefixed(ctx.at(PATHS.chat, { chatId: reply.json.data.id })));
    expectEqual([reply.json.data.title, reply.json.data.ownerId, reply.json.data.members], [title, alice.id, [alice.id]], 'title, ownerId, members');
  }),
  check('core.chats.unknown-member-400', '§4.2', 'members adds others (an unknown user id: 400 naming data.members)', async (ctx) => {
    const alice = await ctx.user('alice');
    expectProblem(await ctx.call('POST', PATHS.chats, { token: alice.token, json: { data: { title: 'x', members: [ctx.unique('ghost')] } } }), 400, 'ERR_VALIDATION', 'data.members');
  }),
  check('core.chats.list-own', '§4.2', 'GET /chats: the caller\'s chats only', async (ctx) => {
    const [alice, bob, carol] = [await ctx.user('alice'), await ctx.user('bob'), await ctx.user('carol')];
    const chat = await ctx.chat(alice, [bob]);
    for (const [user, total] of [[alice, 1], [bob, 1], [carol, 0]] as const) {
      const reply = await ctx.call('GET', `${PATHS.chats}?id=${chat.id}`, { token: user.token });
      expectStatus(reply, 200);
      expectEqual(reply.json.meta.total, total, `${user.name}'s chats with that id`);
    }
  }),
  check('core.chats.put-create-replace', '§4.2', 'PUT /chats/{id} creates the chat under that id (201), or replaces its title (owner only, 200)', async (ctx) => {
    const alice = await ctx.user('alice');
    const chatId = ctx.unique('chat');
    const created = await ctx.call('PUT', ctx.at(PATHS.chat, { chatId }), { token: alice.token, json: { data: { title: 'first' } } });
    expectStatus(created, 201);
    ctx.remember(chatId, alice);
    expectEqual(created.json.data.id, chatId, 'the chosen id');
    const replaced = await ctx.call('PUT', ctx.at(PATHS.chat, { chatId }), { token: alice.token, json: { data: { title: 'second' } } });
    expectStatus(replaced, 200);
    expectEqual([replaced.json.data.title, replaced.json.data.members], ['second', [alice.id]], 'title and members after the PUT');
  }),
  check('core.chats.put-hidden-404', '§4.2', 'An id taken by a chat the caller cannot see answers 404 and changes nothing', async (ctx) => {
    const [alice, carol] = [await ctx.user('alice'), await ctx.user('carol')];
    const chat = await ctx.chat(alice);
    expectProblem(await ctx.call('PUT', ctx.at(PATHS.chat, { chatId: chat.id }), { token: carol.token, json: { data: { title: 'taken over' } } }), 404);
    expectEqual((await ctx.call('GET', ctx.at(PATHS.chat, { chatId: chat.id }), { token: alice.token })).json.data.title, chat.title, 'the title');
  }),
  check('core.chats.patch-title', '§4.2', 'PATCH /chats/{id} (owner only, 200): title', async (ctx) => {
    const alice = await ctx.user('alice');
    const chat = await ctx.chat(alice);
    const reply = await ctx.call('PATCH', ctx.at(PATHS.chat, { chatId: chat.id }), { token: alice.token, json: { data: { title: 'renamed' } } });
    expectStatus(reply, 200);
    expectEqual(reply.json.data.title, 'renamed', 'the title');
  }),
  check('core.chats.member-writes-403', '§4.2', 'A member who is not the owner gets 403 for PUT, PATCH and DELETE', async (ctx) => {
    const [alice, bob] = [await ctx.user('alice'), await ctx.user('bob')];
    const chat = await ctx.chat(alice, [bob]);
    const path = ctx.at(PATHS.chat, { chatId: chat.id });
    expectProblem(await ctx.call('PUT', path, { token: bob.token, json: { data: { title: 'mine' } } }), 403);
    expectProblem(await ctx.call('PATCH', path, { token: bob.token, json: { data: { title: 'mine' } } }), 403);
    expectProblem(await ctx.call('DELETE', path, { token: bob.token }), 403);
  }),
  check('core.chats.owner-id-in-post-400', '§4.2', 'ownerId in PUT or POST is a 400', async (ctx) => {
    const alice = await ctx.user('alice');
    expectProblem(await ctx.call('POST', PATHS.chats, { token: alice.token, json: { data: { title: 'x', ownerId: alice.id } } }), 400, undefined, 'data.ownerId');
  }),
  check('core.chats.transfer', '§4.2', 'PATCH {ownerId} hands the chat over to a member; not a member: 409 ERR_CONFLICT naming data.ownerId', async (ctx) => {
    const [alice, bob, carol] = [await ctx.user('alice'), await ctx.user('bob'), await ctx.user('carol')];
    const chat = await ctx.chat(alice, [bob]);
    const path = ctx.at(PATHS.chat, { chatId: chat.id });
    expectProblem(await ctx.call('PATCH', path, { token: alice.token, json: { data: { ownerId: carol.id } } }), 409, 'ERR_CONFLICT', 'data.ownerId');
    const reply = await ctx.call('PATCH', path, { token: alice.token, json: { data: { ownerId: bob.id } } });
    expectStatus(reply, 200);
    expectEqual(reply.json.data.ownerId, bob.id, 'ownerId');
    expectEqual([...reply.json.data.members].sort(), [alice.id, bob.id].sort(), 'members: the former owner stays');
  }),
  check('core.chats.updated-at', '§4.2', 'updatedAt changes only when something really changed; posting messages does not change the chat', async (ctx) => {
    const alice = await ctx.user('alice');
    const chat = await ctx.chat(alice);
    await ctx.post(alice, chat.id, 'does not touch the chat');
    const path = ctx.at(PATHS.chat, { chatId: chat.id });
    expectEqual((await ctx.call('GET', path, { token: alice.token })).json.data.updatedAt, chat.updatedAt, 'updatedAt after a post');
    const same = await ctx.call('PATCH', path, { token: alice.token, json: { data: { title: chat.title } } });
    expectEqual(same.json.data.updatedAt, chat.updatedAt, 'updatedAt after setting the same title');
  }),
  check('core.chats.delete-204', '§4.2', 'DELETE /chats/{id} (owner): 204; its messages go with it', async (ctx) => {
    const alice = await ctx.user('alice');
    const chat = await ctx.chat(alice);
    const message = await ctx.post(alice, chat.id, 'gone soon');
    expectStatus(await ctx.call('DELETE', ctx.at(PATHS.chat, { chatId: chat.id }), { token: alice.token }), 204);
    expectStatus(await ctx.call('GET', ctx.at(PATHS.chat, { chatId: chat.id }), { token: alice.token }), 404);
    expectStatus(await ctx.call('GET', ctx.at(PATHS.topMessage, { messageId: message.id }), { token: alice.token }), 404);
  }),
  check('core.members.list', '§4.3', 'GET /chats/{id}/members (a collection): any member', async (ctx) => {
    const [alice, bob] = [await ctx.user('alice'), await ctx.user('bob')];
    const chat = await ctx.chat(alice, [bob]);
    const reply = await ctx.call('GET', ctx.at(PATHS.members, { chatId: chat.id }), { token: bob.token });
    expectStatus(reply, 200);
    expectEqual(reply.json.data.map((member: { id: string }) => member.id).sort(), [alice.id, bob.id].sort(), 'the members');
    expectEqual(reply.json.meta.total, 2, 'meta.total');
  }),
  check('core.members.put-204', '§4.3', 'PUT /chats/{id}/members/{userId}: the owner adds a user; 204 whether new or already a member', async (ctx) => {
    const [alice, carol] = [await ctx.user('alice'), await ctx.user('carol')];
    const chat = await ctx.chat(alice);
    const path = ctx.at(PATHS.member, { chatId: chat.id, userId: carol.id });
    expectStatus(await ctx.call('PUT', path, { token: alice.token }), 204);
    expectStatus(await ctx.call('PUT', path, { token: alice.token }), 204);
    expectStatus(await ctx.call('GET', ctx.at(PATHS.chat, { chatId: chat.id }), { token: carol.token }), 200);
  }),
  check('core.members.unknown-user-400', '§4.3', 'PUT of an unknown user: 400 naming userId', async (ctx) => {
    const alice = await ctx.user('alice');
    const chat = await ctx.chat(alice);
    expectProblem(await ctx.call('PUT', ctx.at(PATHS.member, { chatId: chat.id, userId: ctx.unique('ghost') }), { token: alice.token }), 400, undefined, 'userId');
  }),
  check('core.members.owner-leaves-403', '§4.3', 'The owner removes anyone but themself (403 for the owner leaving)', async (ctx) => {
    const [alice, bob] = [await ctx.user('alice'), await ctx.user('bob')];
    const chat = await ctx.chat(alice, [bob]);
    expectProblem(await ctx.call('DELETE', ctx.at(PATHS.member, { chatId: chat.id, userId: alice.id }), { token: alice.token }), 403);
    expectStatus(await ctx.call('DELETE', ctx.at(PATHS.member, { chatId: chat.id, userId: bob.id }), { token: alice.token }), 204);
  }),
  check('core.members.leave-204', '§4.3', 'Any member may remove themself: 204; then the chat is hidden from them', async (ctx) => {
    const [alice, bob] = [await ctx.user('alice'), await ctx.user('bob')];
    const chat = await ctx.chat(alice, [bob]);
    expectStatus(await ctx.call('DELETE', ctx.at(PATHS.member, { chatId: chat.id, userId: bob.id }), { token: bob.token }), 204);
    expectStatus(await ctx.call('GET', ctx.at(PATHS.chat, { chatId: chat.id }), { token: bob.token }), 404);
  }),
  check('core.members.remove-other-403', '§4.3', 'Anyone else removing someone else gets 403; a user who is not a member, 404', async (ctx) => {
    const [alice, bob, carol, dave] = [await ctx.user('alice'), await ctx.user('bob'), await ctx.user('carol'), await ctx.user('dave')];
    const chat = await ctx.chat(alice, [bob, carol]);
    expectProblem(await ctx.call('DELETE', ctx.at(PATHS.member, { chatId: chat.id, userId: carol.id }), { token: bob.token }), 403);
    expectProblem(await ctx.call('DELETE', ctx.at(PATHS.member, { chatId: chat.id, userId: dave.id }), { token: alice.token }), 404);
  }),
  check('core.members.messages-stay', '§4.3', 'A removed member\'s messages stay', async (ctx) => {
    const [alice, bob] = [await ctx.user('alice'), await ctx.user('bob')];
    const chat = await ctx.chat(alice, [bob]);
    const message = await ctx.post(bob, chat.id, 'I was here');
    expectStatus(await ctx.call('DELETE', ctx.at(PATHS.member, { chatId: chat.id, userId: bob.id }), { token: alice.token }), 204);
    const kept = await ctx.call('GET', ctx.at(PATHS.message, { chatId: chat.id, messageId: message.id }), { token: alice.token });
    expectStatus(kept, 200);
    expectEqual(readHeader(kept, 'content-type')?.startsWith('application/json'), true, 'a JSON message');
  }),
];
