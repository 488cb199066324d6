// Durable webhook deliveries (docs/protocol.md §16.5): SIGKILL the real server during a burst of 1,000 events with an
// outgoing webhook, restart it on the same file; every acknowledged message's event reaches the receiver, in event
// order, and only deliveries of the batch in flight at the kill (answered, their records not yet committed) arrive
// twice, with the same webhook-id (at least once: receivers dedupe by it).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { LEASE_MS } from '../../src/outbound/delivery-loop.ts';
import { spawnServer, type ServerProcess } from './server-child.ts';

const EVENTS = 1000;
const KILL_AFTER = 400;

async function call(url: string, method: string, body: unknown, token?: string): Promise<{ status: number; body: any }> {
  const res = await fetch(url, {
    method, headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

test(`SIGKILL during a burst of ${EVENTS} events loses no webhook delivery and repeats only the batch in flight`, { timeout: 120_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'webhook-crash-'));
  const db = join(dir, 'chat.db');
  let server: ServerProcess | undefined;
  const received: { deliveryId: string; messageId: string; eventId: number }[] = [];
  const receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const event = JSON.parse(body) as { id: string; data: { id: string } };
      received.push({ deliveryId: String(req.headers['webhook-id']), messageId: event.data.id, eventId: Number(event.id) });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  t.after(async () => {
    await server?.kill('SIGKILL');
    receiver.closeAllConnections();
    receiver.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const args = ['--db', db, '--scrypt-n', '1024', '--quiet', '--webhook-allow-private'];
  server = await spawnServer(args);
  const credentials = { login: 'crasher', password: 'a long enough password' };
  assert.equal((await call(`${server.url}/users`, 'POST', credentials)).status, 201);
  const { token } = (await call(`${server.url}/session`, 'POST', credentials)).body;
  const chatId: string = (await call(`${server.url}/chats`, 'POST', { data: { title: 'burst' } }, token)).body.data.id;
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const hook = await call(`${server.url}/chats/${chatId}/webhooks`, 'POST', { data: { name: 'sink', direction: 'outgoing', url } }, token);
  assert.equal(hook.status, 201);

  const acknowledged: string[] = [];
  const post = async (base: string, n: number): Promise<void> => {
    const res = await call(`${base}/chats/${chatId}/messages`, 'POST', { data: { text: `event ${n}` } }, token).catch(() => undefined);
    if (res?.status === 201) acknowledged.push(res.body.data.id);
  };
  // Eight writers; the kill comes once KILL_AFTER posts were acknowledged, with deliveries flowing meanwhile.
  let next = 0;
  const writers = Array.from({ length: 8 }, async () => {
    while (next < EVENTS && acknowledged.length < KILL_AFTER) await post(server!.url, next++);
  });
  await Promise.all(writers);
  await server.kill('SIGKILL');
  const beforeKill = received.length;
  // The killed process's leases run out LEASE_MS (30 s) after it took them. Rather than wait, move every lease back by
  // LEASE_MS, as a test clock would advance: a lease that was taken for longer than LEASE_MS is still held afterwards.
  const file = new Database(db);
  const moved = file.prepare('UPDATE outbound_deliveries SET lease_until = lease_until - ? WHERE lease_until IS NOT NULL').run(LEASE_MS).changes;
  file.close();
  server = await spawnServer(args);
  while (next < EVENTS) {
    const batch = Array.from({ length: Math.min(8, EVENTS - next) }, () => post(server!.url, next++));
    await Promise.all(batch);
  }
  // The leases of the killed process have run out (above): the restarted one sends the rest.
  const deadline = Date.now() + 90_000;
  const wanted = new Set(acknowledged);
  while ([...wanted].some((id) => !received.some((got) => got.messageId === id)) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  t.diagnostic(`${acknowledged.length} acknowledged, ${beforeKill} delivered before the kill, ${moved} leases moved back, ${received.length} deliveries in all`);
  const delivered = new Set(received.map((got) => got.messageId));
  assert.deepEqual([...wanted].filter((id) => !delivered.has(id)), [], 'no acknowledged message\'s delivery is lost');
  const repeats = received.length - new Set(received.map((got) => got.deliveryId)).size;
  // src/outbound/delivery-loop.ts BATCH: the records of one batch commit together.
  assert.ok(repeats <= 64, `${repeats} deliveries arrived twice; only the batch in flight at the kill may`);
  const sameEvent = new Map<string, number>();
  for (const got of received) {
    const seen = sameEvent.get(got.deliveryId);
    assert.ok(seen === undefined || seen === got.eventId, 'a repeat carries the same webhook-id and event');
    sameEvent.set(got.deliveryId, got.eventId);
  }
  // In event order, a repeat aside.
  const order = received.map((got) => got.eventId).filter((id, index, all) => all.indexOf(id) === index);
  assert.deepEqual(order, [...order].sort((a, b) => a - b), 'in event order');
});
