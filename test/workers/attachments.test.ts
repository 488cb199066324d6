// --workers 2 with files (docs/protocol.md §15): an upload on one process is read, ranges and all, on either, and a
// message on one takes an upload made on the other; every request opens its own connection, handed out in turn.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { call } from '../http/client.ts';
import { filePart, multipart, MULTIPART } from '../http/attachment-fixtures.ts';
import { spawnServer } from '../fault/server-child.ts';

test('--workers 2: files uploaded on one process are served byte for byte by both', { timeout: 60_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'chat-workers-files-'));
  const server = await spawnServer(['--db', join(dir, 'chat.db'), '--workers', '2', '--scrypt-n', '1024', '--quiet']);
  t.after(async () => {
    await server.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });
  const user = { login: 'alice', password: 'a long enough password' };
  assert.equal((await call(server.url, 'POST', '/users', { json: user })).status, 201);
  const { token } = (await call(server.url, 'POST', '/session', { json: user })).body;
  const chat = (await call(server.url, 'POST', '/chats', { token, json: { data: { title: 'Files' } } })).body.data;
  const bytes = randomBytes(700_000);
  const uploaded = await call(server.url, 'POST', `/chats/${chat.id}/attachments`, { token, headers: { 'content-type': MULTIPART }, body: multipart([filePart('big.bin', bytes)]) });
  assert.equal(uploaded.status, 201, uploaded.text);
  const posted = await call(server.url, 'POST', `/chats/${chat.id}/messages`, { token, json: { data: { text: 'here', attachments: [uploaded.body.data.id] } } });
  assert.equal(posted.status, 201, posted.text);
  const { href } = posted.body.data.attachments[0];
  for (let i = 0; i < 4; i++) {
    const whole = await call(server.url, 'GET', href, { token });
    assert.ok(whole.raw.equals(bytes), `whole, request ${i}`);
    const range = await call(server.url, 'GET', href, { token, headers: { range: 'bytes=262140-262150' } });
    assert.equal(range.status, 206);
    assert.ok(range.raw.equals(bytes.subarray(262140, 262151)), `range across two chunks, request ${i}`);
  }
});
