// `chat-server migrate --from <sqlite file> --to <postgres url>`: every GET answers the same before (SQLite) and
// after (PostgreSQL), the same tokens still work, new ids follow the copied ones; bad arguments and a non-empty
// target are refused with exit 2.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startServer, type RunningServer } from '../../src/index.ts';
import { png } from '../http/avatar-fixtures.ts';
import { createChat, postMessage } from '../http/chat-fixtures.ts';
import { call, registerAndLogIn, TestClock, type LoggedIn } from '../http/client.ts';
import { createTestDatabase } from './test-database.ts';
import { runCommand } from '../run-command.ts';
import { filePart, postWithFiles } from '../http/attachment-fixtures.ts';
import { startReceiver } from '../http/webhook-receiver.ts';

const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));

const runMigrate = (args: string[]) => runCommand(['migrate', ...args]);

/** Everything a client can read of the data, as each user sees it. */
async function readEverything(server: RunningServer, users: LoggedIn[], chatId: string, messageIds: string[], avatarPath: string, hookId: string): Promise<unknown[]> {
  const paths = [
    `/chats/${chatId}/webhooks`, `/chats/${chatId}/webhooks/${hookId}/deliveries`, `/users/${users[0]!.userId}/tokens`,
    '/users', `/users/${users[0]!.userId}`, `/users/${users[0]!.userId}/avatar`, '/chats', `/chats/${chatId}`, `/chats/${chatId}/members`,
    `/chats/${chatId}/messages?limit=100`, `/chats/${chatId}/messages?sort=-createdAt&limit=2`, `/chats/${chatId}/read`, '/session',
    '/search?q=hel', '/events?after=0&wait=0', `/chats/${chatId}/messages?filter=text|like|%25ELLO%25`, '/invites', '/audit',
    '/mentions', `/chats/${chatId}/notifications`, '/chats?kind=direct',
    ...messageIds.flatMap((id) => [`/messages/${id}`, `/messages/${id}/reactions`, `/messages/${id}/revisions`]),
  ];
  const answers: unknown[] = [];
  for (const user of users) {
    for (const path of paths) {
      const res = await call(server, 'GET', path, { token: user.token });
      answers.push({ user: user.login, path, status: res.status, etag: res.headers['etag'], body: res.body });
    }
  }
  const image = await call(server, 'GET', avatarPath);
  answers.push({ image: image.raw.toString('base64'), type: image.headers['content-type'], etag: image.headers['etag'] });
  return answers;
}

test('migrate copies a SQLite database into PostgreSQL: every answer the same, tokens valid, ids go on', { timeout: 120_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'chat-migrate-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'chat.db');
  const database = await createTestDatabase();
  t.after(() => database.drop());
  const clock = new TestClock();
  const options = { scryptN: 1024, writeRate: 0, registerRate: 0, registration: 'open' as const, clock, webhookAllowPrivate: true };

  const before = await startServer({ ...options, db: file });
  t.after(() => before.close());
  const ann = await registerAndLogIn(before, 'ann');
  const bob = await registerAndLogIn(before, 'bob');
  // ann, the first account, is the admin: an invite, a revoked one, and their audit entries come along too.
  const invite = await call(before, 'POST', '/invites', { token: ann.token, json: { data: { maxUses: 2 } } });
  assert.equal(invite.status, 201, invite.text);
  const revoked = await call(before, 'POST', '/invites', { token: ann.token, json: { data: {} } });
  assert.equal((await call(before, 'DELETE', `/invites/${revoked.body.data.id}`, { token: ann.token })).status, 204);
  clock.advance(1000);
  const upload = await call(before, 'POST', `/users/${ann.userId}/avatar`, { token: ann.token, json: { avatar: png(4, 4).toString('base64'), x: 0, y: 0, width: 4, height: 4 } });
  assert.equal(upload.status, 201, upload.text);
  assert.equal((await call(before, 'PATCH', '/users', { token: ann.token, json: { avatar: upload.body.id } })).status, 200);
  const chat = await createChat(before, ann, { title: 'Crème club', members: [bob.userId] });
  const ids: string[] = [];
  for (const [author, text] of [[ann, 'hello bob'], [bob, 'Hello Ann'], [ann, '@bob third'], [bob, 'gone soon']] as const) {
    clock.advance(1000);
    ids.push((await postMessage(before, author, chat.id, { text, ...(ids.length > 0 ? { replyTo: ids[0] } : {}) })).id);
  }
  assert.equal((await call(before, 'PATCH', `/chats/${chat.id}/messages/${ids[0]}`, { token: ann.token, json: { data: { text: 'hello, Bob' } } })).status, 200);
  assert.equal((await call(before, 'PUT', `/messages/${ids[1]}/reactions/${encodeURIComponent('👍')}`, { token: ann.token })).status, 201);
  assert.equal((await call(before, 'PUT', `/messages/${ids[1]}/reactions/ok`, { token: bob.token })).status, 201);
  assert.equal((await call(before, 'DELETE', `/chats/${chat.id}/messages/${ids[3]}`, { token: bob.token })).status, 204);
  assert.equal((await call(before, 'PUT', `/chats/${chat.id}/read`, { token: bob.token, json: { data: { lastReadId: ids[0] } } })).status, 200);
  // Files of a message (docs/protocol.md §15): an image and a file of three chunks, stored in SQLite, read back from
  // PostgreSQL; its text mentions ann (a multipart post's mentions are kept as a JSON post's).
  clock.advance(1000);
  const withFiles = await postWithFiles(before, bob, chat.id, [{ name: 'text', data: '@ann files' }, filePart('four.png', png(4, 4), 'image/png'), filePart('big.bin', Buffer.alloc(600_000, 7))]);
  assert.equal(withFiles.status, 201, withFiles.text);
  const files = withFiles.body.data.attachments as { href: string }[];
  const downloads = async (server: RunningServer) => Promise.all(files.map(async ({ href }) => (await call(server, 'GET', href, { token: ann.token })).raw.toString('base64')));
  const expectedFiles = await downloads(before);
  // docs/protocol.md §14: a direct chat, a notification level chosen, and the mention of bob above, copied too.
  assert.equal((await call(before, 'POST', '/chats', { token: ann.token, json: { data: { kind: 'direct', members: [bob.userId] } } })).status, 201);
  assert.equal((await call(before, 'PUT', `/chats/${chat.id}/notifications`, { token: bob.token, json: { data: { level: 'all' } } })).status, 200);
  // docs/protocol.md §16: a token, and an outgoing webhook whose delivery took two attempts (its attempts come along).
  assert.equal((await call(before, 'POST', `/users/${ann.userId}/tokens`, { token: ann.token, json: { data: { name: 'CI' } } })).status, 201);
  const receiver = await startReceiver(t, (got) => (receiver.received.indexOf(got) === 0 ? { status: 503 } : { status: 204 }));
  const hook = await call(before, 'POST', `/chats/${chat.id}/webhooks`, { token: ann.token, json: { data: { name: 'Out', direction: 'outgoing', url: receiver.url } } });
  assert.equal(hook.status, 201, hook.text);
  clock.advance(1000);
  await postMessage(before, bob, chat.id, { text: 'delivered twice' });
  await receiver.waitFor(1);
  await before.app.services.outbound.loop.idle();
  clock.advance(60_000);
  before.app.services.outbound.loop.wake();
  await receiver.waitFor(2);
  await before.app.services.outbound.loop.idle();
  const kept = ids.slice(0, 3);
  const avatarPath = upload.body.avatar as string;
  const expected = await readEverything(before, [ann, bob], chat.id, kept, avatarPath, hook.body.data.id);
  const attempts = (expected.find((answer) => (answer as { path?: string }).path?.endsWith('/deliveries')) as { body: { data: { attemptLog: unknown[] }[] } }).body.data[0]!.attemptLog;
  assert.equal(attempts.length, 2);
  await before.close();

  const copied = await runMigrate(['--from', file, '--to', database.url]);
  assert.equal(copied.code, 0, copied.stderr);
  assert.match(copied.stdout, /copied .* 3 users, 2 sessions, 2 invites, 1 avatars, 2 chats, 2 chat_stats, 5 chat_members, 5 messages, 2 attachment_blobs, 4 attachment_chunks, 2 attachments, 2 message_mentions, 2 reactions, 1 message_revisions, \d+ events, 4 audit_log, 1 access_tokens, 1 webhooks, 1 outbound_deliveries, 2 outbound_attempts/);

  const after = await startServer({ ...options, db: database.url });
  t.after(() => after.close());
  assert.deepEqual(await readEverything(after, [ann, bob], chat.id, kept, avatarPath, hook.body.data.id), expected);
  assert.deepEqual(await downloads(after), expectedFiles);
  // New ids come after the copied ones: a new event, a reply to an older message, a new reaction in order.
  const lastEvent = (await call(after, 'GET', '/events?after=0&wait=0', { token: ann.token })).body.meta.lastEventId;
  clock.advance(1000);
  const reply = await postMessage(after, ann, chat.id, { text: 'on PostgreSQL now', replyTo: ids[2] });
  const events = (await call(after, 'GET', `/events?after=${lastEvent}&wait=0`, { token: ann.token })).body.data;
  assert.ok(events.length > 0 && Number(events[0].id) > Number(lastEvent));
  assert.equal(reply.replyTo, ids[2]);
  assert.equal((await call(after, 'PUT', `/messages/${ids[1]}/reactions/new`, { token: bob.token })).status, 201);
  // The copied invite still signs people up (its code's hash came along), counting on from its uses.
  assert.equal((await call(after, 'POST', '/users', { json: { login: 'cat', password: 'cat password', inviteCode: invite.body.data.code } })).status, 201);
  assert.equal((await call(after, 'GET', `/invites/${invite.body.data.id}`, { token: ann.token })).body.data.uses, 1);
  const reactions = (await call(after, 'GET', `/messages/${ids[1]}`, { token: bob.token })).body.data.reactions;
  assert.deepEqual(reactions.map((reaction: { emoji: string }) => reaction.emoji), ['👍', 'ok', 'new']);
  // The direct chat's pair key came along: opening it again finds it.
  assert.equal((await call(after, 'POST', '/chats', { token: bob.token, json: { data: { kind: 'direct', members: [ann.userId] } } })).status, 200);

  const again = await runMigrate(['--from', file, '--to', database.url]);
  assert.equal(again.code, 2);
  assert.match(again.stderr, /^chat-server migrate: .*not empty/);
});

test('migrate refuses what it cannot use with one line and exit 2, never showing a password', async () => {
  const rows: [string[], RegExp][] = [
    [[], /both --from and --to are needed/],
    [['--from', '/nonexistent/chat.db', '--to', 'postgres://u:pw@127.0.0.1:1/chat'], /is not a SQLite database file/],
    [['--from', MAIN, '--to', 'sqlite.db'], /--to must be a postgres:\/\/ URL/],
    [['--to', 'postgres://u:pw@127.0.0.1:1/chat', '--force'], /unknown argument --force/],
  ];
  for (const [args, message] of rows) {
    const result = await runMigrate(args);
    assert.equal(result.code, 2, args.join(' '));
    assert.match(result.stderr, message);
    assert.equal(result.stderr.trim().split('\n').length, 1);
    assert.doesNotMatch(result.stderr, /:pw@/);
  }
});
