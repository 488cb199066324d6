// docs/protocol.md §1 (identifiers, times, shapes, field rules) and §3 (users and avatars).
import { PATHS } from '../../paths.ts';
import { expectEqual, expectHeader, expectKeys, expectMatch, expectProblem, expectStatus, expectTrue, readHeader, ID, ISO_MS, hasListItem, ULID } from '../expect.ts';
import { check } from './define.ts';

// A whole 1x1 PNG (valid chunks and checksums): the smallest image every server must recognise by its bytes.
const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

export const USERS_CHECKS = [
  check('core.paths.own-paths', '§1.1', 'Location headers and links are paths on the server itself, never built from the request\'s Host; under a base path the unprefixed paths answer 404', async (ctx) => {
    const alice = await ctx.user('alice');
    const made = await ctx.call('POST', PATHS.chats, { token: alice.token, json: { data: { title: ctx.unique('paths') } }, headers: { Host: 'attacker.example' } });
    expectStatus(made, 201);
    ctx.remember(made.json.data.id, alice);
    expectEqual(readHeader(made, 'location'), ctx.prefixed(ctx.at(PATHS.chat, { chatId: made.json.data.id })), 'Location, whatever the Host');
    const index = await ctx.call('GET', PATHS.index);
    for (const link of Object.values(index.json?.links ?? {})) expectTrue(String(link).startsWith(`${ctx.basePath}/`), `the link ${String(link)} is a path under ${ctx.basePath || '/'}`);
    if (ctx.basePath !== '') expectStatus(await ctx.call('GET', PATHS.health, { unprefixed: true }), 404);
  }),
  check('core.ids.string-ids', '§1.2', 'Every id is a JSON string matching ^[A-Za-z0-9_-]{1,64}$', async (ctx) => {
    const alice = await ctx.user('alice');
    const chat = await ctx.chat(alice);
    for (const id of [alice.id, chat.id, ...chat.members]) expectMatch(id, ID, 'an id');
  }),
  check('core.ids.ulid-order', '§1.2', 'Ids the server assigns are 26-character ULIDs, strictly increasing', async (ctx) => {
    const alice = await ctx.user('alice');
    const [first, second] = [await ctx.chat(alice), await ctx.chat(alice)];
    expectMatch(first.id, ULID, 'a chat id');
    expectTrue(second.id > first.id, `the later chat's id ${second.id} sorts after ${first.id}`);
  }),
  check('core.ids.bad-path-400', '§1.2', 'A path segment MUST be valid percent-encoded UTF-8 without NUL: otherwise 400 ERR_BAD_PATH', async (ctx) => {
    const alice = await ctx.user('alice');
    for (const segment of ['%ZZ', '%C3%28', 'a%00b']) expectProblem(await ctx.call('GET', `${PATHS.chats}/${segment}`, { token: alice.token }), 400, 'ERR_BAD_PATH');
  }),
  check('core.times.iso-milliseconds', '§1.3', 'Times are ISO 8601 UTC strings with milliseconds', async (ctx) => {
    const alice = await ctx.user('alice');
    const chat = await ctx.chat(alice);
    for (const time of [alice.signUp.json.createdAt, alice.signUp.json.updatedAt, chat.createdAt, chat.updatedAt]) expectMatch(time, ISO_MS, 'a time');
  }),
  check('core.envelope.data', '§1.4', 'Chats and what lives under them travel in an envelope both ways: {"data": {...}}', async (ctx) => {
    const alice = await ctx.user('alice');
    const reply = await ctx.call('POST', PATHS.chats, { token: alice.token, json: { data: { title: ctx.unique('envelope') } } });
    expectStatus(reply, 201);
    ctx.remember(reply.json.data.id, alice);
    expectEqual(Object.keys(reply.json), ['data'], 'the keys of the answer');
  }),
  check('core.envelope.missing-400', '§1.4', 'A body sent without its envelope MUST be refused with 400 naming data', async (ctx) => {
    const alice = await ctx.user('alice');
    expectProblem(await ctx.call('POST', PATHS.chats, { token: alice.token, json: { title: 'no envelope' } }), 400, 'ERR_VALIDATION', 'data');
  }),
  check('core.envelope.plain-user', '§1.4', 'Users and the session travel as plain objects', async (ctx) => {
    const alice = await ctx.user('alice');
    const reply = await ctx.call('GET', ctx.at(PATHS.user, { userId: alice.id }), { token: alice.token });
    expectStatus(reply, 200);
    expectEqual(reply.json.id, alice.id, 'the user\'s id at the top level');
  }),
  check('core.bodies.unknown-field-400', '§1.5', 'A field the resource does not take MUST be refused with 400 ERR_VALIDATION naming it', async (ctx) => {
    const alice = await ctx.user('alice');
    expectProblem(await ctx.call('POST', PATHS.chats, { token: alice.token, json: { data: { title: 'x', colour: 'red' } } }), 400, 'ERR_VALIDATION', 'data.colour');
  }),
  check('core.bodies.id-mismatch-400', '§1.5', 'An id in a body MUST equal the id in the path, or be absent', async (ctx) => {
    const alice = await ctx.user('alice');
    const chatId = ctx.unique('put');
    expectProblem(await ctx.call('PUT', ctx.at(PATHS.chat, { chatId }), { token: alice.token, json: { data: { id: `${chatId}x`, title: 'x' } } }), 400, 'ERR_VALIDATION');
    expectStatus(await ctx.call('GET', ctx.at(PATHS.chat, { chatId }), { token: alice.token }), 404);
  }),
  check('core.bodies.read-only-400', '§1.5', 'Read-only fields (createdAt, updatedAt, ...) in a body are a 400', async (ctx) => {
    const alice = await ctx.user('alice');
    expectProblem(await ctx.call('POST', PATHS.chats, { token: alice.token, json: { data: { title: 'x', createdAt: '2026-01-01T00:00:00.000Z' } } }), 400, 'ERR_VALIDATION', 'data.createdAt');
  }),
  check('core.fields.user', '§1.6', 'user: id, login, avatar, createdAt, updatedAt; never a password or its hash', async (ctx) => {
    const alice = await ctx.user('alice');
    const user = (await ctx.call('GET', ctx.at(PATHS.user, { userId: alice.id }), { token: alice.token })).json;
    expectKeys(user, ['id', 'login', 'avatar', 'createdAt', 'updatedAt'], 'the user');
    expectTrue(!Object.keys(user).some((key) => /password|hash|salt/i.test(key)), `the user shows a secret: ${Object.keys(user).join(', ')}`);
    expectEqual(user.avatar, null, 'avatar of a user without one');
  }),
  check('core.fields.chat', '§1.6', 'chat: id, title, ownerId, members (owner first), createdAt, updatedAt, lastReadId, unreadCount', async (ctx) => {
    const [alice, bob] = [await ctx.user('alice'), await ctx.user('bob')];
    const chat = await ctx.chat(alice, [bob]);
    expectKeys(chat, ['id', 'title', 'ownerId', 'members', 'createdAt', 'updatedAt', 'lastReadId', 'unreadCount'], 'the chat');
    expectEqual(chat.members, [alice.id, bob.id], 'members, owner first');
    expectEqual(chat.ownerId, alice.id, 'ownerId');
  }),
  check('core.fields.message', '§1.6', 'message: id, chatId, authorId, text, replyTo, createdAt, updatedAt, editedAt, reactions; null, never left out', async (ctx) => {
    const alice = await ctx.user('alice');
    const chat = await ctx.chat(alice);
    const message = await ctx.post(alice, chat.id, 'hello');
    expectKeys(message, ['id', 'chatId', 'authorId', 'text', 'replyTo', 'createdAt', 'updatedAt', 'editedAt', 'reactions'], 'the message');
    expectEqual([message.replyTo, message.editedAt, message.reactions, message.authorId], [null, null, [], alice.id], 'replyTo, editedAt, reactions, authorId');
  }),
  check('core.fields.member', '§1.6', 'member: id (the user\'s id), userId (the same), login, addedAt', async (ctx) => {
    const [alice, bob] = [await ctx.user('alice'), await ctx.user('bob')];
    const chat = await ctx.chat(alice, [bob]);
    const reply = await ctx.call('GET', ctx.at(PATHS.member, { chatId: chat.id, userId: bob.id }), { token: alice.token });
    expectStatus(reply, 200);
    const member = reply.json.data;
    expectEqual([member.id, member.userId, member.login], [bob.id, bob.id, bob.login], 'id, userId, login');
    expectMatch(member.addedAt, ISO_MS, 'addedAt');
  }),
  check('core.fields.login-rule', '§1.7', 'login: 3 to 32 of letters, digits, ., _, -', async (ctx) => {
    for (const login of ['ab', 'a'.repeat(33), 'white space']) {
      expectProblem(await ctx.call('POST', PATHS.users, { json: { login, password: 'good enough password' } }), 400, 'ERR_VALIDATION', 'login');
    }
  }),
  check('core.fields.password-rule', '§1.7', 'password: 8 to 1024 characters', async (ctx) => {
    for (const password of ['short', 'p'.repeat(1025)]) {
      expectProblem(await ctx.call('POST', PATHS.users, { json: { login: ctx.unique('pw').slice(0, 32), password } }), 400, 'ERR_VALIDATION', 'password');
    }
  }),
  check('core.fields.title-rule', '§1.7', 'chat title: 1 to 200 characters, no control character at all', async (ctx) => {
    const alice = await ctx.user('alice');
    for (const title of ['', 'a'.repeat(201), 'line\nfeed', 'tab\there', 'del\u007F', 'c1\u0085']) {
      expectProblem(await ctx.call('POST', PATHS.chats, { token: alice.token, json: { data: { title } } }), 400, 'ERR_VALIDATION', 'data.title');
    }
  }),
  check('core.fields.code-points', '§1.3', 'Text lengths count Unicode code points, not bytes', async (ctx) => {
    const alice = await ctx.user('alice');
    const title = '\u{1F600}'.repeat(200);
    const reply = await ctx.call('POST', PATHS.chats, { token: alice.token, json: { data: { title } } });
    expectStatus(reply, 201);
    ctx.remember(reply.json.data.id, alice);
    expectEqual(reply.json.data.title, title, 'the title of 200 emoji');
  }),
  check('core.fields.text-rule', '§1.7', 'message text: 1 to 4000 characters, no control character but line feed and tab', async (ctx) => {
    const alice = await ctx.user('alice');
    const chat = await ctx.chat(alice);
    const path = ctx.at(PATHS.messages, { chatId: chat.id });
    for (const text of ['', 'x'.repeat(4001), 'carriage\rreturn', 'nul\u0000']) {
      expectProblem(await ctx.call('POST', path, { token: alice.token, json: { data: { text } } }), 400, 'ERR_VALIDATION', 'data.text');
    }
    expectStatus(await ctx.call('POST', path, { token: alice.token, json: { data: { text: 'line\nfeed\tand tab' } } }), 201);
  }),
  check('core.users.list-and-read', '§3.1', 'GET /users (a collection) and GET/HEAD /users/{id}: any signed-in user', async (ctx) => {
    const [alice, bob] = [await ctx.user('alice'), await ctx.user('bob')];
    const list = await ctx.call('GET', `${PATHS.users}?id=${alice.id}`, { token: bob.token });
    expectStatus(list, 200);
    expectEqual(list.json.data.map((user: { login: string }) => user.login), [alice.login], 'the users with alice\'s id');
    const get = await ctx.call('GET', ctx.at(PATHS.user, { userId: alice.id }), { token: bob.token });
    const head = await ctx.call('HEAD', ctx.at(PATHS.user, { userId: alice.id }), { token: bob.token });
    expectStatus(head, 200);
    expectEqual(readHeader(head, 'etag'), readHeader(get, 'etag'), 'the ETag of HEAD and GET');
  }),
  check('core.users.patch-other-403', '§3.1', 'PATCH /users/{id} answers 403 when {id} is another user', async (ctx) => {
    const [bob, carol] = [await ctx.user('bob'), await ctx.user('carol')];
    expectProblem(await ctx.call('PATCH', ctx.at(PATHS.user, { userId: bob.id }), { token: carol.token, json: { login: ctx.unique('x').slice(0, 30) } }), 403);
  }),
  check('core.users.password-needs-current', '§3.1', 'Changing password also needs currentPassword: 400 without it', async (ctx) => {
    const carol = await ctx.user('carol');
    expectProblem(await ctx.call('PATCH', PATHS.users, { token: carol.token, json: { password: 'a brand new password' } }), 400, 'ERR_VALIDATION', 'currentPassword');
  }),
  check('core.users.wrong-current-403', '§3.1', 'A wrong currentPassword: 403 ERR_WRONG_PASSWORD', async (ctx) => {
    const carol = await ctx.user('carol');
    expectProblem(await ctx.call('PATCH', PATHS.users, { token: carol.token, json: { password: 'a brand new password', currentPassword: 'not my password' } }), 403, 'ERR_WRONG_PASSWORD');
  }),
  check('core.users.password-ends-others', '§3.1', 'A password change MUST end every other session of the user', async (ctx) => {
    const dave = await ctx.user('dave');
    const other = await ctx.call('POST', PATHS.session, { json: { login: dave.login, password: dave.password } });
    expectStatus(other, 201);
    const password = `${dave.password} changed`;
    expectStatus(await ctx.call('PATCH', PATHS.users, { token: dave.token, json: { password, currentPassword: dave.password } }), 200);
    dave.password = password;
    expectProblem(await ctx.call('GET', PATHS.session, { token: other.json.token }), 401, 'ERR_UNAUTHENTICATED');
    expectStatus(await ctx.call('GET', PATHS.session, { token: dave.token }), 200);
  }),
  check('core.users.bad-avatar-400', '§3.1', 'avatar is the id of one of the caller\'s own avatars, or null; anything else is a 400', async (ctx) => {
    const alice = await ctx.user('alice');
    expectProblem(await ctx.call('PATCH', PATHS.users, { token: alice.token, json: { avatar: 'no-such-avatar' } }), 400, undefined, 'avatar');
  }),
  check('core.avatars.upload-201', '§3.2', 'POST /users/{id}/avatar (JSON, base64): 201, Location: /users/{id}/avatar/{avatarId}, the avatar', async (ctx) => {
    const erin = await ctx.user('erin');
    const reply = await ctx.call('POST', ctx.at(PATHS.avatars, { userId: erin.id }), { token: erin.token, json: { avatar: PNG_1X1, x: 0, y: 0, width: 1, height: 1 } });
    expectStatus(reply, 201);
    expectHeader(reply, 'location', ctx.prefixed(ctx.at(PATHS.avatar, { userId: erin.id, avatarId: reply.json.id })));
    expectEqual([reply.json.contentType, reply.json.imageWidth, reply.json.imageHeight, reply.json.userId], ['image/png', 1, 1, erin.id], 'contentType, imageWidth, imageHeight, userId');
    const user = await ctx.call('GET', ctx.at(PATHS.user, { userId: erin.id }), { token: erin.token });
    expectEqual(user.json.avatar, null, 'the user\'s avatar before PATCH /users');
  }),
  check('core.avatars.not-an-image-415', '§3.2', 'The image MUST be recognised by its bytes: anything else 415 ERR_UNSUPPORTED_IMAGE', async (ctx) => {
    const erin = await ctx.user('erin');
    const avatar = Buffer.from('GIF? no, plain text pretending to be an image').toString('base64');
    expectProblem(await ctx.call('POST', ctx.at(PATHS.avatars, { userId: erin.id }), { token: erin.token, json: { avatar, x: 0, y: 0, width: 1, height: 1 } }), 415, 'ERR_UNSUPPORTED_IMAGE');
  }),
  check('core.avatars.zone-400', '§3.2', 'The zone MUST lie inside the image, else 400 naming the field', async (ctx) => {
    const erin = await ctx.user('erin');
    expectProblem(await ctx.call('POST', ctx.at(PATHS.avatars, { userId: erin.id }), { token: erin.token, json: { avatar: PNG_1X1, x: 0, y: 0, width: 2, height: 1 } }), 400, undefined, 'width');
  }),
  check('core.avatars.other-user-403', '§3.2', 'POST /users/{id}/avatar: the user themself; 403 for anyone else', async (ctx) => {
    const [erin, bob] = [await ctx.user('erin'), await ctx.user('bob')];
    expectProblem(await ctx.call('POST', ctx.at(PATHS.avatars, { userId: erin.id }), { token: bob.token, json: { avatar: PNG_1X1, x: 0, y: 0, width: 1, height: 1 } }), 403);
  }),
  check('core.avatars.current-first-and-delete', '§3.3', 'The current avatar lists first; deleting it sets the user\'s avatar to null', async (ctx) => {
    const erin = await ctx.user('erin');
    const upload = async (): Promise<string> => (await ctx.call('POST', ctx.at(PATHS.avatars, { userId: erin.id }), { token: erin.token, json: { avatar: PNG_1X1, x: 0, y: 0, width: 1, height: 1 } })).json.id;
    const older = await upload();
    await upload();
    expectStatus(await ctx.call('PATCH', PATHS.users, { token: erin.token, json: { avatar: older } }), 200);
    const list = await ctx.call('GET', ctx.at(PATHS.avatars, { userId: erin.id }), { token: erin.token });
    expectEqual(list.json.data[0]?.id, older, 'the first avatar listed');
    expectStatus(await ctx.call('DELETE', ctx.at(PATHS.avatar, { userId: erin.id, avatarId: older }), { token: erin.token }), 204);
    expectEqual((await ctx.call('GET', ctx.at(PATHS.user, { userId: erin.id }), { token: erin.token })).json.avatar, null, 'avatar after deleting the current one');
  }),
  check('core.avatars.image-public', '§3.4', 'The image answers GET without a token, with its Content-Type, an ETag and Cache-Control: public, max-age=31536000, immutable; not negotiated', async (ctx) => {
    const erin = await ctx.user('erin');
    const made = await ctx.call('POST', ctx.at(PATHS.avatars, { userId: erin.id }), { token: erin.token, json: { avatar: PNG_1X1, x: 0, y: 0, width: 1, height: 1 } });
    expectStatus(made, 201);
    const image = await ctx.call('GET', made.json.avatar.slice(ctx.basePath.length), { headers: { Accept: 'application/xml' } });
    expectStatus(image, 200);
    expectHeader(image, 'content-type', 'image/png');
    expectHeader(image, 'cache-control', 'public, max-age=31536000, immutable');
    expectMatch(readHeader(image, 'etag'), /^"[^"]+"$/, 'ETag');
    expectTrue(!hasListItem(image, 'vary', 'accept'), 'the image bytes carry no Vary: Accept');
    expectEqual(image.raw.toString('base64'), PNG_1X1, 'the image bytes');
  }),
];
