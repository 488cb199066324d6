// GET /users/{id}/export (docs/protocol.md §3.6): everything the server holds about a user in one document, for the
// user or an administrator; JSON downloads as an attachment, XML and HTML show the same document.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { avatarForm, multipart, MULTIPART_TYPE, png } from './avatar-fixtures.ts';
import { createChat, postMessage } from './chat-fixtures.ts';
import { call, registerAndLogIn, TestClock, withServer } from './client.ts';

test('the export holds the profile, avatars as links, memberships, messages with revisions, reactions, markers, sessions, tokens, bots and webhooks', async (t) => {
  const clock = new TestClock();
  const server = await withServer(t, { clock, webhookAllowPrivate: true });
  const admin = await registerAndLogIn(server);
  const bob = await registerAndLogIn(server, 'bob');
  const at = (time = clock.time) => new Date(time).toISOString();
  const joined = clock.time;
  const avatar = await call(server, 'POST', `/users/${bob.userId}/avatar`, {
    token: bob.token, body: multipart(avatarForm(png(2, 2), { x: 0, y: 0, width: 1, height: 1 })), headers: { 'content-type': MULTIPART_TYPE },
  });
  assert.equal(avatar.status, 201, avatar.text);
  const chat = await createChat(server, admin, { title: 'Crew', members: [bob.userId] });
  const own = await createChat(server, bob, { title: 'Notes' });
  const adminSays = await postMessage(server, admin, chat.id, { text: 'Hello bob' });
  clock.advance(1000);
  const posted = clock.time;
  const said = await postMessage(server, bob, chat.id, { text: 'Hi', replyTo: adminSays.id });
  clock.advance(1000);
  const edited = clock.time;
  assert.equal((await call(server, 'PATCH', `/chats/${chat.id}/messages/${said.id}`, { token: bob.token, json: { data: { text: 'Hi there' } } })).status, 200);
  assert.equal((await call(server, 'PUT', `/chats/${chat.id}/messages/${adminSays.id}/reactions/${encodeURIComponent('👍')}`, { token: bob.token })).status, 201);

  const invite = await call(server, 'POST', '/invites', { token: bob.token, json: { data: { maxUses: 2 } } });
  assert.equal(invite.status, 201, invite.text);
  const invited = invite.body.data ?? invite.body;

  // Integrations (docs/protocol.md §16): a token, a bot with its token, two webhooks of bob's chat; none of their secrets.
  const token = (await call(server, 'POST', `/users/${bob.userId}/tokens`, { token: bob.token, json: { data: { name: 'CI', scopes: ['read'] } } })).body.data;
  const bot = (await call(server, 'POST', '/bots', { token: bob.token, json: { data: { login: 'deploy-bot' } } })).body;
  const botToken = (await call(server, 'POST', `/users/${bot.id}/tokens`, { token: bob.token, json: { data: { name: 'deploys' } } })).body.data;
  const incoming = (await call(server, 'POST', `/chats/${own.id}/webhooks`, { token: bob.token, json: { data: { name: 'In', direction: 'incoming' } } })).body.data;
  const outgoing = (await call(server, 'POST', `/chats/${own.id}/webhooks`, { token: bob.token, json: { data: { name: 'Out', direction: 'outgoing', url: 'http://127.0.0.1:9/x' } } })).body.data;
  assert.ok(typeof token.token === 'string' && typeof botToken.token === 'string' && typeof incoming.url === 'string' && typeof outgoing.secret === 'string');
  const readUser = async (userId: string) => {
    const { presence: _ignored, ...read } = (await call(server, 'GET', `/users/${userId}`, { token: bob.token })).body;
    return read;
  };
  const bots = [{ ...await readUser(bot.id), tokens: [{ ...botToken, token: null }] }];
  for (const hook of [incoming, outgoing]) bots.push({ ...await readUser(hook.botId), tokens: [] });
  bots.sort((a, b) => (a.id < b.id ? -1 : 1));
  const webhooks = (await call(server, 'GET', `/chats/${own.id}/webhooks`, { token: bob.token })).body.data;

  const res = await call(server, 'GET', `/users/${bob.userId}/export`, { token: bob.token });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.headers['content-type'], 'application/json');
  assert.equal(res.headers['content-disposition'], 'attachment; filename="bob-export.json"');
  assert.equal(res.headers['cache-control'], 'no-store');
  // The export holds what is stored; presence is computed for each answer about a user (§14.6), so it is not kept.
  const { presence: _presence, ...user } = (await call(server, 'GET', `/users/${bob.userId}`, { token: bob.token })).body;
  const sessions = (await call(server, 'GET', `/users/${bob.userId}/sessions`, { token: bob.token })).body.data;
  const image = `/users/${bob.userId}/avatar/${avatar.body.id}/image`;
  assert.deepEqual(res.body, {
    user,
    avatars: [{ ...avatar.body, avatar: image }],
    memberships: [
      { chatId: chat.id, title: 'Crew', ownerId: admin.userId, owner: false, addedAt: at(joined), chat: `/chats/${chat.id}` },
      { chatId: own.id, title: 'Notes', ownerId: bob.userId, owner: true, addedAt: at(joined), chat: `/chats/${own.id}` },
    ].sort((a, b) => (a.chatId < b.chatId ? -1 : 1)),
    readMarkers: [
      { chatId: chat.id, lastReadId: said.id, unreadCount: 0, mentionCount: 0 },
      { chatId: own.id, lastReadId: null, unreadCount: 0, mentionCount: 0 },
    ].sort((a, b) => (a.chatId < b.chatId ? -1 : 1)),
    messages: [{
      ...said, text: 'Hi there', updatedAt: at(edited), editedAt: at(edited),
      revisions: [{ id: '1', text: 'Hi', createdAt: at(posted) }, { id: '2', text: 'Hi there', createdAt: at(edited) }],
    }],
    reactions: [{ messageId: adminSays.id, chatId: chat.id, emoji: '👍', createdAt: at() }],
    sessions,
    invites: [{ ...invited, code: null, url: null }],
    pushSubscriptions: [],
    accessTokens: [{ ...token, token: null }],
    bots,
    webhooks,
  });
  assert.deepEqual(webhooks.map((hook: { id: string; url: string | null; secret: string | null }) => [hook.id, hook.url, hook.secret]), [[incoming.id, null, null], [outgoing.id, 'http://127.0.0.1:9/x', null]]);
  for (const secret of [bob.token, token.token, botToken.token, new URL(incoming.url).pathname, outgoing.secret]) assert.ok(!res.text.includes(secret), `no secret: ${secret}`);
  assert.ok(!res.text.includes(bob.token), 'no token');
  assert.ok(!res.text.includes(invited.code), 'an invite\'s code is shown once, when made');
  assert.ok(!res.text.includes('passwordHash') && !res.text.includes('scrypt'), 'no password hash');
});

test('XML and HTML show the same export without the download header; another user is a 403, an administrator may', async (t) => {
  const server = await withServer(t);
  const admin = await registerAndLogIn(server);
  const bob = await registerAndLogIn(server, 'bob');
  const carol = await registerAndLogIn(server);
  const xml = await call(server, 'GET', `/users/${bob.userId}/export`, { token: bob.token, headers: { accept: 'application/xml' } });
  assert.equal(xml.status, 200);
  assert.equal(xml.headers['content-type'], 'application/xml; charset=utf-8');
  assert.equal(xml.headers['content-disposition'], undefined);
  assert.ok(xml.text.includes('<login>bob</login>'), xml.text);
  const html = await call(server, 'GET', `/users/${bob.userId}/export`, { token: bob.token, headers: { accept: 'text/html' } });
  assert.equal(html.status, 200);
  assert.equal(html.headers['content-disposition'], undefined);
  const refused = await call(server, 'GET', `/users/${bob.userId}/export`, { token: carol.token });
  assert.equal(refused.status, 403);
  assert.equal(refused.body.detail, 'Only the user themself or an administrator may export their data');
  const byAdmin = await call(server, 'GET', `/users/${bob.userId}/export`, { token: admin.token });
  assert.equal(byAdmin.status, 200);
  assert.equal(byAdmin.body.user.login, 'bob');
  assert.equal(byAdmin.body.sessions[0].current, false);
});
