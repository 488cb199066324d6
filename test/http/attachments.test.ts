// Files in messages (docs/protocol.md §15): uploads, the message's attachments, limits, lifetime and search.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { call, runSql, TestClock, withServer } from './client.ts';
import { createChat, postMessage, threeUsers } from './chat-fixtures.ts';
import { png } from './avatar-fixtures.ts';
import { filePart, multipart, MULTIPART, postWithFiles, sha256, upload } from './attachment-fixtures.ts';
import type { RunningServer } from '../../src/index.ts';

async function countRows(server: RunningServer, table: string): Promise<number> {
  return Number((await runSql(server, `SELECT count(*) AS n FROM ${table}`))[0]!['n']);
}

test('a message posted as multipart carries its files, in order, and each downloads byte for byte', async (t) => {
  const server = await withServer(t);
  const { alice, bob } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'Files', members: [bob.userId] });
  const image = png(3, 2);
  const report = randomBytes(700_000);
  const res = await postWithFiles(server, alice, chat.id, [
    { name: 'text', data: 'Here they are' }, filePart('shot.png', image, 'image/png'), filePart('report ünïcode.pdf', report, 'application/pdf'),
  ]);
  assert.equal(res.status, 201, res.text);
  const [first, second] = res.body.data.attachments;
  assert.equal(res.body.data.text, 'Here they are');
  assert.deepEqual(first, {
    id: first.id, name: 'shot.png', contentType: 'image/png', size: image.length, sha256: sha256(image),
    href: `/chats/${chat.id}/attachments/${first.id}`, width: 3, height: 2,
  });
  assert.deepEqual(second, {
    id: second.id, name: 'report ünïcode.pdf', contentType: 'application/octet-stream', size: report.length, sha256: sha256(report),
    href: `/chats/${chat.id}/attachments/${second.id}`,
  });
  const shown = await call(server, 'GET', first.href, { token: bob.token });
  assert.equal(shown.status, 200);
  assert.deepEqual(shown.raw, image);
  assert.equal(shown.headers['content-type'], 'image/png');
  assert.equal(shown.headers['content-disposition'], 'inline; filename="shot.png"; filename*=UTF-8\'\'shot.png');
  const saved = await call(server, 'GET', second.href, { token: bob.token });
  assert.equal(saved.status, 200);
  assert.ok(saved.raw.equals(report));
  assert.equal(saved.headers['content-type'], 'application/octet-stream');
  assert.equal(saved.headers['content-length'], String(report.length));
  assert.equal(saved.headers['content-disposition'], 'attachment; filename="report _n_code.pdf"; filename*=UTF-8\'\'report%20%C3%BCn%C3%AFcode.pdf');
  assert.equal(saved.headers['x-content-type-options'], 'nosniff');
  assert.equal(saved.headers['content-security-policy'], "default-src 'none'; sandbox");
  assert.equal(saved.headers['etag'], `"${sha256(report)}"`);
  assert.equal(saved.headers['cache-control'], 'private, max-age=31536000, immutable');
  assert.equal(saved.headers['accept-ranges'], 'bytes');
  // The message reads back the same, alone and in the history.
  const read = await call(server, 'GET', `/chats/${chat.id}/messages/${res.body.data.id}`, { token: bob.token });
  assert.deepEqual(read.body.data.attachments, [first, second]);
  const history = await call(server, 'GET', `/chats/${chat.id}/messages`, { token: bob.token });
  assert.deepEqual(history.body.data[0].attachments, [first, second]);
});

test('HEAD answers the headers of the GET and no body; If-None-Match with the sha256 answers 304', async (t) => {
  const server = await withServer(t);
  const { alice } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'Head' });
  const bytes = randomBytes(1000);
  const posted = await postWithFiles(server, alice, chat.id, [filePart('a.bin', bytes)]);
  const { href } = posted.body.data.attachments[0];
  const head = await call(server, 'HEAD', href, { token: alice.token });
  assert.equal(head.status, 200);
  assert.equal(head.text, '');
  assert.equal(head.headers['content-length'], '1000');
  const again = await call(server, 'GET', href, { token: alice.token, headers: { 'if-none-match': `"${sha256(bytes)}"` } });
  assert.equal(again.status, 304);
  assert.equal(again.text, '');
});

test('a non-member, and a member asking under another chat, get the same 404 as for no attachment', async (t) => {
  const server = await withServer(t);
  const { alice, bob, carol } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'Private', members: [bob.userId] });
  const other = await createChat(server, carol, { title: 'Other' });
  const posted = await postWithFiles(server, alice, chat.id, [filePart('secret.txt', Buffer.from('secret'))]);
  const { id, href } = posted.body.data.attachments[0];
  const stranger = await call(server, 'GET', href, { token: carol.token });
  const missing = await call(server, 'GET', `/chats/${chat.id}/attachments/01JDAY4D8E2F6G0H3J5K7M9N1P`, { token: carol.token });
  assert.equal(stranger.status, 404);
  assert.deepEqual({ ...stranger.body, detail: '' }, { ...missing.body, detail: '' });
  assert.equal(stranger.body.detail, `No chat ${chat.id}`);
  const elsewhere = await call(server, 'GET', `/chats/${other.id}/attachments/${id}`, { token: carol.token });
  assert.equal(elsewhere.status, 404);
  assert.equal(elsewhere.body.detail, `No attachment ${id} in chat ${other.id}`);
  // A non-member cannot upload either, and nothing of theirs is stored.
  const refused = await upload(server, carol, chat.id, 'x.bin', randomBytes(10));
  assert.equal(refused.status, 404);
  assert.equal(await countRows(server, 'attachment_chunks'), 1);
});

test('an upload is used by the JSON post that names it; it then goes with the message', async (t) => {
  const server = await withServer(t);
  const { alice, bob } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'JSON', members: [bob.userId] });
  const bytes = Buffer.from('hello, world\n');
  const uploaded = await call(server, 'POST', `/chats/${chat.id}/attachments`, {
    token: alice.token, json: { data: { name: 'hello.txt', contentType: 'text/plain', content: bytes.toString('base64') } },
  });
  assert.equal(uploaded.status, 201, uploaded.text);
  const attachment = uploaded.body.data;
  assert.equal(uploaded.headers['location'], attachment.href);
  assert.deepEqual(attachment, {
    id: attachment.id, name: 'hello.txt', contentType: 'application/octet-stream', size: 13, sha256: sha256(bytes), href: `/chats/${chat.id}/attachments/${attachment.id}`,
  });
  // Unused, it is the uploader's alone.
  assert.equal((await call(server, 'GET', attachment.href, { token: bob.token })).status, 404);
  assert.equal((await call(server, 'GET', attachment.href, { token: alice.token })).status, 200);
  // Bob cannot take it; Alice can, once.
  const stolen = await call(server, 'POST', `/chats/${chat.id}/messages`, { token: bob.token, json: { data: { attachments: [attachment.id] } } });
  assert.equal(stolen.status, 400);
  assert.deepEqual(stolen.body.errors, [{ field: 'data.attachments[0]', message: 'must be the id of an unused upload of yours to this chat' }]);
  const message = await postMessage(server, alice, chat.id, { attachments: [attachment.id] });
  assert.equal(message.text, '');
  assert.deepEqual((message as unknown as { attachments: unknown[] }).attachments, [attachment]);
  const twice = await call(server, 'POST', `/chats/${chat.id}/messages`, { token: alice.token, json: { data: { text: 'again', attachments: [attachment.id] } } });
  assert.equal(twice.status, 400);
  assert.equal((await call(server, 'GET', attachment.href, { token: bob.token })).status, 200);
  // Deleting the message deletes the attachment and, being the last reference, the content.
  assert.equal((await call(server, 'DELETE', `/chats/${chat.id}/messages/${message.id}`, { token: alice.token })).status, 204);
  assert.equal((await call(server, 'GET', attachment.href, { token: alice.token })).status, 404);
  assert.equal(await countRows(server, 'attachment_blobs'), 0);
  assert.equal(await countRows(server, 'attachment_chunks'), 0);
});

test('identical bytes are stored once, and removed with their last reference only', async (t) => {
  const server = await withServer(t);
  const { alice, bob } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'Dedup', members: [bob.userId] });
  const bytes = randomBytes(600_000);
  const one = await postWithFiles(server, alice, chat.id, [filePart('one.bin', bytes)]);
  const two = await postWithFiles(server, bob, chat.id, [filePart('two.bin', bytes)]);
  assert.equal(await countRows(server, 'attachment_blobs'), 1);
  assert.equal(await countRows(server, 'attachment_chunks'), 3);
  assert.equal(await countRows(server, 'attachments'), 2);
  await call(server, 'DELETE', `/chats/${chat.id}/messages/${one.body.data.id}`, { token: alice.token });
  assert.equal(await countRows(server, 'attachment_blobs'), 1);
  const still = await call(server, 'GET', two.body.data.attachments[0].href, { token: alice.token });
  assert.ok(still.raw.equals(bytes));
  // Clearing the chat takes the last one.
  assert.equal((await call(server, 'DELETE', `/chats/${chat.id}/messages`, { token: alice.token })).status, 204);
  assert.equal(await countRows(server, 'attachments'), 0);
  assert.equal(await countRows(server, 'attachment_blobs'), 0);
  assert.equal(await countRows(server, 'attachment_chunks'), 0);
});

test('deleting a chat deletes its files, used and unused', async (t) => {
  const server = await withServer(t);
  const { alice } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'Gone' });
  await postWithFiles(server, alice, chat.id, [filePart('a.bin', randomBytes(100))]);
  await upload(server, alice, chat.id, 'b.bin', randomBytes(100));
  assert.equal(await countRows(server, 'attachments'), 2);
  assert.equal((await call(server, 'DELETE', `/chats/${chat.id}`, { token: alice.token })).status, 204);
  assert.equal(await countRows(server, 'attachments'), 0);
  assert.equal(await countRows(server, 'attachment_blobs'), 0);
});

test('unused uploads are removed after an hour; used ones stay', async (t) => {
  const clock = new TestClock();
  const server = await withServer(t, { clock });
  const { alice } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'Cleanup' });
  const unused = (await upload(server, alice, chat.id, 'late.bin', randomBytes(300))).body.data;
  const used = (await upload(server, alice, chat.id, 'kept.bin', randomBytes(300))).body.data;
  await postMessage(server, alice, chat.id, { text: 'with one', attachments: [used.id] });
  clock.advance(59 * 60 * 1000);
  assert.equal(await server.app.services.uploadCleanup.sweep(), 0);
  assert.equal((await call(server, 'GET', unused.href, { token: alice.token })).status, 200);
  clock.advance(60 * 1000 + 1);
  assert.equal(await server.app.services.uploadCleanup.sweep(), 1);
  assert.equal((await call(server, 'GET', unused.href, { token: alice.token })).status, 404);
  assert.equal((await call(server, 'GET', used.href, { token: alice.token })).status, 200);
  assert.equal(await countRows(server, 'attachment_blobs'), 1);
  const late = await call(server, 'POST', `/chats/${chat.id}/messages`, { token: alice.token, json: { data: { attachments: [unused.id] } } });
  assert.equal(late.status, 400);
});

test('edits cannot change attachments', async (t) => {
  const server = await withServer(t);
  const { alice } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'Edits' });
  const posted = (await postWithFiles(server, alice, chat.id, [{ name: 'text', data: 'v1' }, filePart('a.bin', randomBytes(10))])).body.data;
  const path = `/chats/${chat.id}/messages/${posted.id}`;
  const patched = await call(server, 'PATCH', path, { token: alice.token, json: { data: { text: 'v2', attachments: [] } } });
  assert.equal(patched.status, 400);
  assert.deepEqual(patched.body.errors, [{ field: 'data.attachments', message: 'cannot be changed: a message keeps the files it was posted with' }]);
  const edited = await call(server, 'PATCH', path, { token: alice.token, json: { data: { text: 'v2' } } });
  assert.equal(edited.status, 200);
  assert.deepEqual(edited.body.data.attachments, posted.attachments);
});

test('limits: per file, per message and per user, each a 413 with its own code; nothing is kept of a refused upload', async (t) => {
  const server = await withServer(t, { maxAttachmentBytes: 1000, maxAttachments: 2, attachmentQuota: 2500 });
  const { alice } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'Limits' });
  const big = await postWithFiles(server, alice, chat.id, [filePart('big.bin', randomBytes(1001))]);
  assert.equal(big.status, 413);
  assert.equal(big.body.code, 'ERR_ATTACHMENT_TOO_LARGE');
  assert.deepEqual(big.body.errors, [{ field: 'file', message: 'the file is over the size limit of 1000 bytes (--max-attachment-bytes)' }]);
  const many = await postWithFiles(server, alice, chat.id, [filePart('1', randomBytes(10)), filePart('2', randomBytes(10)), filePart('3', randomBytes(10))]);
  assert.equal(many.status, 413);
  assert.equal(many.body.code, 'ERR_TOO_MANY_ATTACHMENTS');
  assert.equal(await countRows(server, 'attachment_blobs'), 0);
  assert.equal((await postWithFiles(server, alice, chat.id, [filePart('1', randomBytes(1000)), filePart('2', randomBytes(1000))])).status, 201);
  const over = await upload(server, alice, chat.id, 'last.bin', randomBytes(501));
  assert.equal(over.status, 413);
  assert.equal(over.body.code, 'ERR_ATTACHMENT_QUOTA');
  assert.equal((await upload(server, alice, chat.id, 'fits.bin', randomBytes(500))).status, 201);
  assert.equal(await countRows(server, 'attachment_blobs'), 3);
  // Too many ids in JSON is the same 413.
  const ids = await call(server, 'POST', `/chats/${chat.id}/messages`, { token: alice.token, json: { data: { attachments: ['01JDAY4D8E2F6G0H3J5K7M9N1P', '01JDAY4D8E2F6G0H3J5K7M9N1Q', '01JDAY4D8E2F6G0H3J5K7M9N1R'] } } });
  assert.equal(ids.status, 413);
  assert.equal(ids.body.code, 'ERR_TOO_MANY_ATTACHMENTS');
});

test('an image that fails the avatar checks is served as a file to save', async (t) => {
  const server = await withServer(t);
  const { alice } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'Fake' });
  const cut = png(4, 4).subarray(0, 40);
  const res = await postWithFiles(server, alice, chat.id, [filePart('cut.png', cut, 'image/png')]);
  const [attachment] = res.body.data.attachments;
  assert.equal(attachment.contentType, 'application/octet-stream');
  assert.equal(attachment.width, undefined);
  const got = await call(server, 'GET', attachment.href, { token: alice.token });
  assert.match(String(got.headers['content-disposition']), /^attachment;/);
});

test('search finds a message by its attachment names', async (t) => {
  const server = await withServer(t);
  const { alice, bob } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'Search', members: [bob.userId] });
  const res = await postWithFiles(server, alice, chat.id, [{ name: 'text', data: 'see attached' }, filePart('quarterly-budget.xlsx', randomBytes(20))]);
  const found = await call(server, 'GET', '/search?q=quarterly', { token: bob.token });
  assert.equal(found.status, 200, found.text);
  assert.deepEqual(found.body.data.map((hit: { id: string }) => hit.id), [res.body.data.id]);
  const both = await call(server, 'GET', '/search?q=attached%20budget', { token: bob.token });
  assert.deepEqual(both.body.data.map((hit: { id: string }) => hit.id), [res.body.data.id]);
});

test('message.created carries the attachments', async (t) => {
  const server = await withServer(t);
  const { alice } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'Events' });
  const res = await postWithFiles(server, alice, chat.id, [filePart('e.bin', randomBytes(5))]);
  const events = await call(server, 'GET', '/events?after=0&wait=0', { token: alice.token });
  const created = events.body.data.find((event: { type: string }) => event.type === 'message.created');
  assert.deepEqual(created.data.attachments, res.body.data.attachments);
});

test('erasing an account removes the files its user uploaded; kept messages show none, shared bytes stay', async (t) => {
  const server = await withServer(t);
  const { alice, bob, carol } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'Erase', members: [bob.userId, carol.userId] });
  const kept = (await postWithFiles(server, alice, chat.id, [filePart('same.bin', Buffer.from('same'))])).body.data;
  const erased = (await postWithFiles(server, bob, chat.id, [{ name: 'text', data: 'mine' }, filePart('same.bin', Buffer.from('same')), filePart('own.bin', randomBytes(300))])).body.data;
  await upload(server, bob, chat.id, 'unused.bin', randomBytes(100));
  const gone = await call(server, 'DELETE', `/users/${bob.userId}?keepMessages=true`, { token: bob.token, json: { password: bob.password } });
  assert.equal(gone.status, 204, gone.text);
  const message = await call(server, 'GET', `/chats/${chat.id}/messages/${erased.id}`, { token: alice.token });
  assert.equal(message.body.data.text, 'mine');
  assert.deepEqual(message.body.data.attachments, []);
  for (const { href } of erased.attachments) assert.equal((await call(server, 'GET', href, { token: alice.token })).status, 404);
  assert.equal((await call(server, 'GET', kept.attachments[0].href, { token: alice.token })).status, 200);
  assert.equal(await countRows(server, 'attachments'), 1);
  assert.equal(await countRows(server, 'attachment_blobs'), 1);
  // Erased with their messages, carol's files go with them too.
  await postWithFiles(server, carol, chat.id, [filePart('c.bin', randomBytes(50))]);
  assert.equal((await call(server, 'DELETE', `/users/${carol.userId}`, { token: carol.token, json: { password: carol.password } })).status, 204);
  assert.equal(await countRows(server, 'attachment_blobs'), 1);
});

test('the composer\'s multipart form: 303 to the message on success; the page again with the text kept on a broken rule', async (t) => {
  const server = await withServer(t, { maxAttachments: 1 });
  const { alice } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'Form' });
  const login = await call(server, 'POST', '/session', { json: { login: alice.login, password: alice.password } });
  const cookie = String(login.headers['set-cookie']).split(';')[0]!;
  const browser = { 'content-type': MULTIPART, origin: server.url, cookie, accept: 'text/html' };
  // As html-forms.test.ts: the OpenAPI document describes the API for clients with a token, not the browser's form posts.
  const unchecked = 'an HTML form post, answered 303 or with the page again';
  const path = `/chats/${chat.id}/messages`;
  const sent = await call(server, 'POST', path, { headers: browser, unchecked, body: multipart([{ name: 'text', data: 'from the page' }, filePart('a.txt', Buffer.from('hi')), { name: 'file', filename: '', type: 'application/octet-stream', data: '' }]) });
  assert.equal(sent.status, 303, sent.text);
  const history = await call(server, 'GET', path, { token: alice.token });
  const [message] = history.body.data;
  assert.equal(sent.headers['location'], `${path}#m-${message.id}`);
  assert.deepEqual(message.attachments.map((attachment: { name: string }) => attachment.name), ['a.txt']);
  const refused = await call(server, 'POST', path, { headers: browser, unchecked, body: multipart([{ name: 'text', data: 'two files' }, filePart('a.txt', Buffer.from('1')), filePart('b.txt', Buffer.from('2'))]) });
  assert.equal(refused.status, 413);
  assert.match(refused.text, /<textarea id="compose-text" name="text"[^>]*>two files<\/textarea>/);
  assert.match(refused.text, /a message holds at most 1 files \(--max-attachments\)/);
});

test('an empty file, a file name with a path and control characters, and the refusals of the JSON form', async (t) => {
  const server = await withServer(t);
  const { alice } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'Edges' });
  const res = await postWithFiles(server, alice, chat.id, [filePart('C:\\Users\\me\\empty\u0007.txt', Buffer.alloc(0))]);
  assert.equal(res.status, 201, res.text);
  const [empty] = res.body.data.attachments;
  assert.deepEqual([empty.name, empty.size, empty.sha256], ['empty.txt', 0, sha256(Buffer.alloc(0))]);
  const got = await call(server, 'GET', empty.href, { token: alice.token, headers: { range: 'bytes=0-10' } });
  assert.equal(got.status, 200);
  assert.equal(got.headers['content-length'], '0');
  const path = `/chats/${chat.id}/attachments`;
  const cases: [unknown, string, string][] = [
    [{ data: { name: 'a.txt' } }, 'data.content', 'is required'],
    [{ data: { name: 'a.txt', content: 'not base64!' } }, 'data.content', 'is not valid base64'],
    [{ data: { content: 'aGk=' } }, 'data.name', 'must be a string'],
    [{ data: { name: 'a/b.txt', content: 'aGk=' } }, 'data.name', 'may not hold control characters, / or \\'],
    [{ data: { name: 'a.txt', content: 'aGk=', contentType: 'not a type' } }, 'data.contentType', 'must be a media type such as text/plain'],
    [{ data: { name: 'a.txt', content: 'aGk=', extra: 1 } }, 'data.extra', 'is not a known field'],
  ];
  for (const [json, field, message] of cases) {
    const refused = await call(server, 'POST', path, { token: alice.token, json });
    assert.equal(refused.status, 400, JSON.stringify(json));
    assert.deepEqual(refused.body.errors, [{ field, message }], JSON.stringify(json));
  }
  const text = await call(server, 'POST', path, { token: alice.token, headers: { 'content-type': 'text/plain' }, body: 'hi' });
  assert.equal(text.status, 415);
  assert.equal(text.headers['accept-post'], 'multipart/form-data, application/json');
  const twoFiles = await call(server, 'POST', path, { token: alice.token, headers: { 'content-type': MULTIPART }, body: multipart([filePart('1', Buffer.from('1')), filePart('2', Buffer.from('2'))]) });
  assert.equal(twoFiles.status, 400);
  assert.deepEqual(twoFiles.body.errors, [{ field: 'file', message: 'appears more than once: upload one file at a time' }]);
  assert.equal(await countRows(server, 'attachment_blobs'), 1);
});
