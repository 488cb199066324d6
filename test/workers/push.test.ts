// --workers 2 (docs/protocol.md §12.1, §17.3): both processes run the outbound loop over one queue; each push is sent
// once, by one of them, and the push service (test/http/push-service.ts) verifies and decrypts every one.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { call } from '../http/client.ts';
import { startPushService } from '../http/push-service.ts';
import { spawnServer } from '../fault/server-child.ts';
import { register } from './workers-server.ts';

const SUBJECT = 'mailto:ops@chat.example';
const MESSAGES = 40;

test(`--workers 2: ${MESSAGES} direct messages to two subscriptions are each pushed once`, { timeout: 60_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'chat-workers-push-'));
  const server = await spawnServer(['--db', join(dir, 'chat.db'), '--workers', '2', '--scrypt-n', '1024', '--quiet', '--registration', 'open', '--push-subject', SUBJECT, '--push-allow-insecure']);
  t.after(async () => {
    await server.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });
  const push = await startPushService(t);
  push.expect = { publicKey: (await call(server.url, 'GET', '/push/key')).body.publicKey, subject: SUBJECT };
  // Both workers read the one key: ask several connections.
  for (let i = 0; i < 4; i++) assert.equal((await call(server.url, 'GET', '/push/key')).body.publicKey, push.expect.publicKey);
  const alice = await register(server.url, 'alice');
  const bob = await register(server.url, 'bob');
  for (const name of ['bob-phone', 'bob-laptop']) {
    assert.equal((await call(server.url, 'POST', '/push-subscriptions', { token: bob.token, json: push.subscribe(name) })).status, 201);
  }
  const direct = (await call(server.url, 'POST', '/chats', { token: alice.token, json: { data: { kind: 'direct', members: [bob.userId] } } })).body.data;
  const texts = Array.from({ length: MESSAGES }, (_, n) => `message ${n}`);
  await Promise.all(texts.map(async (text) => {
    assert.equal((await call(server.url, 'POST', `/chats/${direct.id}/messages`, { token: alice.token, json: { data: { text } } })).status, 201);
  }));
  await push.waitFor(MESSAGES * 2, 30_000);
  // Anything sent twice would have arrived by now too.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  assert.deepEqual(push.failures, []);
  assert.equal(push.received.length, MESSAGES * 2, 'each push once');
  for (const name of ['bob-phone', 'bob-laptop']) {
    const got = push.received.filter((received) => received.name === name).map((received) => received.notice.text);
    assert.deepEqual([...got].sort(), [...texts].sort(), name);
  }
});
