// Files and mentions together (docs/protocol.md §14.2, §14.4, §15.2): a message posted with files, multipart or by the
// ids of uploads, is read for mentions and notifies exactly as a JSON post; its events carry both fields.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { randomBytes } from 'node:crypto';
import { call, withServer } from './client.ts';
import { createChat, threeUsers } from './chat-fixtures.ts';
import { filePart, MULTIPART, multipart, upload } from './attachment-fixtures.ts';

type Event = { type: string; data: { reason?: string; message?: { id: string; mentions: string[]; attachments: { href: string }[] }; id?: string; mentions?: string[]; attachments?: unknown[] } };

test('a multipart post with files carries mentions and notifies the mentioned; message.created and notification carry both', async (t) => {
  const server = await withServer(t, { basePath: '/api' });
  const { alice, bob, carol } = await threeUsers(server);
  const chat = (await call(server, 'POST', '/api/chats', { token: alice.token, json: { data: { title: 'Files', members: [bob.userId, carol.userId] } } })).body.data;
  const body = multipart([{ name: 'text', data: `look @${bob.login}` }, filePart('a.bin', randomBytes(10))]);
  const posted = await call(server, 'POST', `/api/chats/${chat.id}/messages`, { token: alice.token, headers: { 'content-type': MULTIPART }, body });
  assert.equal(posted.status, 201, posted.text);
  const message = posted.body.data;
  assert.deepEqual(message.mentions, [bob.userId]);
  assert.equal(message.attachments.length, 1);
  assert.ok(message.attachments[0].href.startsWith(`/api/chats/${chat.id}/attachments/`));
  assert.equal((await call(server, 'GET', `/api/chats/${chat.id}`, { token: bob.token })).body.data.mentionCount, 1);

  const events = (await call(server, 'GET', '/api/events?after=0&wait=0', { token: bob.token })).body.data as Event[];
  const created = events.find((event) => event.type === 'message.created')!;
  assert.deepEqual([created.data.mentions, created.data.attachments], [message.mentions, message.attachments]);
  const notified = events.filter((event) => event.type === 'notification');
  assert.deepEqual(notified.map((event) => [event.data.reason, event.data.message]), [['mention', message]], 'the message with its files, hrefs under the base path');
  const carols = (await call(server, 'GET', '/api/events?after=0&wait=0', { token: carol.token })).body.data as Event[];
  assert.deepEqual(carols.filter((event) => event.type === 'notification'), [], 'not mentioned: nothing at the default level');
});

test('a JSON post naming uploads is read for mentions too; @all from a member who may not is refused and the upload stays unused', async (t) => {
  const server = await withServer(t);
  const { alice, bob, carol } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'Uploads', members: [bob.userId, carol.userId] });
  const first = (await upload(server, bob, chat.id, 'b.bin', randomBytes(8))).body.data;
  const refused = await call(server, 'POST', `/chats/${chat.id}/messages`, { token: bob.token, json: { data: { text: '@all see this', attachments: [first.id] } } });
  assert.equal(refused.status, 403, refused.text);
  assert.equal(refused.body.code, 'ERR_FORBIDDEN');
  const posted = await call(server, 'POST', `/chats/${chat.id}/messages`, { token: bob.token, json: { data: { text: `@${carol.login} see this`, attachments: [first.id] } } });
  assert.equal(posted.status, 201, posted.text);
  assert.deepEqual([posted.body.data.mentions, posted.body.data.attachments.map((file: { id: string }) => file.id)], [[carol.userId], [first.id]]);
  const multipartAll = await call(server, 'POST', `/chats/${chat.id}/messages`, {
    token: bob.token, headers: { 'content-type': MULTIPART }, body: multipart([{ name: 'text', data: '@all files' }, filePart('c.bin', randomBytes(8))]),
  });
  assert.equal(multipartAll.status, 403, multipartAll.text);
  const owners = await call(server, 'POST', `/chats/${chat.id}/messages`, {
    token: alice.token, headers: { 'content-type': MULTIPART }, body: multipart([{ name: 'text', data: '@all files' }, filePart('c.bin', randomBytes(8))]),
  });
  assert.equal(owners.status, 201, owners.text);
  assert.deepEqual([...owners.body.data.mentions].sort(), [alice.userId, bob.userId, carol.userId].sort(), '@all: every member');
});
