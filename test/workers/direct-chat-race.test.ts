// One direct chat per pair (docs/protocol.md §14.1) under --workers 2: many concurrent "open a DM" requests, from both
// people, each on its own connection (node:cluster hands them to the two processes in turn), make one chat: one 201,
// every other answer a 200 with that same chat.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { call } from '../http/client.ts';
import { spawnServer } from '../fault/server-child.ts';
import { register } from './workers-server.ts';

test('--workers 2: 40 concurrent requests to open the DM of alice and bob create one chat', { timeout: 60_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'chat-dm-race-'));
  const server = await spawnServer(['--db', join(dir, 'chat.db'), '--workers', '2', '--scrypt-n', '1024', '--quiet']);
  t.after(async () => {
    await server.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });
  const alice = await register(server.url, 'alice');
  const bob = await register(server.url, 'bob');
  const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => {
    const [caller, other] = i % 2 === 0 ? [alice, bob] : [bob, alice];
    return call(server.url, 'POST', '/chats', { token: caller.token, json: { data: { kind: 'direct', members: [other.userId] } } });
  }));
  assert.deepEqual(answers.map((res) => res.status).sort(), [...Array(39).fill(200), 201]);
  assert.equal(new Set(answers.map((res) => res.body.data.id)).size, 1);
  const chats = await call(server.url, 'GET', '/chats?kind=direct', { token: alice.token });
  assert.equal(chats.body.meta.total, 1);
  assert.deepEqual(chats.body.data[0].members.slice().sort(), [alice.userId, bob.userId].sort());
});
