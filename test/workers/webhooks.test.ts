// --workers 2 (docs/protocol.md §16.5): both processes run the delivery queue on one database; with no crash, every
// delivery arrives exactly once, and each webhook's in event order, whichever process leased it.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { call } from '../http/client.ts';
import { spawnServer, type ServerProcess } from '../fault/server-child.ts';

const HOOKS = 5;
const MESSAGES = 60;

test('--workers 2: no delivery is sent twice or lost, and each webhook\'s go in event order', { timeout: 90_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'chat-workers-hooks-'));
  const received = new Map<string, { deliveryId: string; eventId: number }[]>();
  const receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const hook = req.url!.slice(1);
      const list = received.get(hook) ?? [];
      list.push({ deliveryId: String(req.headers['webhook-id']), eventId: Number(JSON.parse(body).id) });
      received.set(hook, list);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  let server: ServerProcess | undefined;
  t.after(async () => {
    await server?.kill('SIGKILL');
    receiver.close();
    rmSync(dir, { recursive: true, force: true });
  });
  server = await spawnServer(['--db', join(dir, 'chat.db'), '--workers', '2', '--scrypt-n', '1024', '--quiet', '--webhook-allow-private']);
  const password = 'a long enough password';
  assert.equal((await call(server.url, 'POST', '/users', { json: { login: 'owner', password } })).status, 201);
  const { token } = (await call(server.url, 'POST', '/session', { json: { login: 'owner', password } })).body;
  const chatId = (await call(server.url, 'POST', '/chats', { token, json: { data: { title: 'two processes' } } })).body.data.id;
  const base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  for (let i = 0; i < HOOKS; i++) {
    const res = await call(server.url, 'POST', `/chats/${chatId}/webhooks`, { token, json: { data: { name: `h${i}`, direction: 'outgoing', url: `${base}/h${i}` } } });
    assert.equal(res.status, 201, res.text);
  }
  // Posts spread over both processes (fresh connections go to the workers in turn).
  for (let i = 0; i < MESSAGES; i += 6) {
    await Promise.all(Array.from({ length: 6 }, (_, j) => call(server!.url, 'POST', `/chats/${chatId}/messages`, { token, json: { data: { text: `m${i + j}` } } })));
  }
  const deadline = Date.now() + 60_000;
  const total = (): number => [...received.values()].reduce((sum, list) => sum + list.length, 0);
  while (total() < HOOKS * MESSAGES && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  // A little longer: a second copy of anything would arrive now.
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  assert.equal(total(), HOOKS * MESSAGES);
  for (const [hook, list] of received) {
    assert.equal(new Set(list.map((got) => got.deliveryId)).size, MESSAGES, `${hook}: each once`);
    const order = list.map((got) => got.eventId);
    assert.deepEqual(order, [...order].sort((a, b) => a - b), `${hook}: in event order`);
  }
});
