// Outbound webhook deliveries (docs/protocol.md §16.5): W1, deliveries per second to a local receiver against a bare
// loop doing the same signing and POSTs (goal >= 0.5x), for one webhook (in order: one at a time) and for ten; W2,
// the API's p99 while 100 deliveries hang until their 10 s timeout, against the same API quiet (goal <= 1.5x).
// Run alone: node --import tsx bench/webhooks.bench.ts
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startServer, type RunningServer } from '../src/index.ts';
import { runLoad } from './load.ts';
import { startChild } from './server-process.ts';

const DELIVERIES = 2000;
const CHAT_SERVER = new URL('./chat-server.ts', import.meta.url).pathname;

async function json(url: string, method: string, body?: unknown, token?: string): Promise<any> {
  const res = await fetch(url, { method, headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: body === undefined ? undefined : JSON.stringify(body) });
  return res.json();
}

/** A receiver that answers 204 at once, or never (hang), and counts. */
async function startReceiver(hang = false): Promise<{ server: Server; url: string; count: () => number; reached: (n: number) => Promise<void> }> {
  let count = 0;
  let waiting: { n: number; resolve: () => void } | undefined;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      count += 1;
      if (waiting && count >= waiting.n) waiting.resolve();
      if (!hang) res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, count: () => count,
    reached: (n) => new Promise((resolve) => { if (count >= n) resolve(); else waiting = { n, resolve }; }),
  };
}

/** A user, a chat and `hooks` outgoing webhooks to `url` on a server; answers their ids and the session token. */
async function setUpHooks(base: string, url: string, hooks: number): Promise<{ token: string; chatId: string; hookIds: string[] }> {
  const credentials = { login: 'bencher', password: 'a long enough password' };
  await json(`${base}/users`, 'POST', credentials);
  const { token } = await json(`${base}/session`, 'POST', credentials);
  const chatId = (await json(`${base}/chats`, 'POST', { data: { title: 'bench' } }, token)).data.id as string;
  const hookIds: string[] = [];
  for (let i = 0; i < hooks; i++) hookIds.push((await json(`${base}/chats/${chatId}/webhooks`, 'POST', { data: { name: `h${i}`, direction: 'outgoing', url } }, token)).data.id);
  return { token, chatId, hookIds };
}

/** Ours: DELIVERIES rows queued at once over the webhooks, then the time until the receiver has them all. */
async function measureOurs(hooks: number): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'webhooks-bench-'));
  const receiver = await startReceiver();
  let server: RunningServer | undefined;
  try {
    server = await startServer({ db: join(dir, 'chat.db'), host: '127.0.0.1', port: 0, quiet: true, writeRate: 0, registerRate: 0, loginRate: 0, registration: 'open', scryptN: 1024, webhookAllowPrivate: true });
    const { chatId, hookIds } = await setUpHooks(server.url, receiver.url, hooks);
    const { storage, outbound } = server.app.services;
    const payload = JSON.stringify({ id: 1, type: 'message.created', chatId, createdAt: Date.now(), data: JSON.stringify({ id: 'm', text: 'x'.repeat(200) }) });
    await storage.transaction(async (tx) => {
      for (let i = 0; i < DELIVERIES; i++) await tx.outbound.enqueueDelivery({ kind: 'webhook', targetId: hookIds[i % hooks]!, eventId: 1, payload, createdAt: Date.now() });
    });
    const started = performance.now();
    outbound.loop.wake();
    await receiver.reached(DELIVERIES);
    return DELIVERIES / ((performance.now() - started) / 1000);
  } finally {
    await server?.close();
    receiver.server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function postOne(url: string, headers: Record<string, string>, body: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent: false, headers: { ...headers, 'content-length': String(body.length) } }, (res) => {
      res.resume();
      res.on('end', resolve);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The bare loop: per delivery, the same HMAC-SHA256 signature and one POST on a new connection; `hooks` loops at once. */
async function measureBare(hooks: number): Promise<number> {
  const receiver = await startReceiver();
  const key = Buffer.alloc(24, 7);
  const body = Buffer.from(JSON.stringify({ id: '1', type: 'message.created', chatId: 'c', createdAt: new Date().toISOString(), data: { id: 'm', text: 'x'.repeat(200) } }));
  const started = performance.now();
  let next = 0;
  await Promise.all(Array.from({ length: hooks }, async () => {
    while (next < DELIVERIES) {
      const id = String(next++);
      const timestamp = String(Math.floor(Date.now() / 1000));
      const signature = `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest('base64')}`;
      await postOne(receiver.url, { 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': signature }, body);
    }
  }));
  const rate = DELIVERIES / ((performance.now() - started) / 1000);
  receiver.server.close();
  return rate;
}

/** W2: GET /chats/{id} p99 quiet, then while 100 deliveries hang on 100 webhooks (each until its 10 s timeout). */
async function measureStall(): Promise<{ quietP99: number; loadedP99: number; quietRps: number; loadedRps: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'webhooks-stall-'));
  const receiver = await startReceiver(true);
  const child = await startChild(CHAT_SERVER, { db: join(dir, 'chat.db'), registration: 'open', scryptN: 1024, webhookAllowPrivate: true });
  try {
    const { token, chatId } = await setUpHooks(child.url, receiver.url, 100);
    const load = { url: `${child.url}/chats/${chatId}`, headers: { authorization: `Bearer ${token}` }, connections: 10 };
    await runLoad({ ...load, durationSeconds: 1 });
    // Alternating rounds (the machine is shared): quiet, then while one message's 100 deliveries hang (each until its
    // 10 s timeout, the load running inside those 10 s), then quiet again once they timed out.
    const quiet: number[] = [];
    const loaded: number[] = [];
    const quietRps: number[] = [];
    const loadedRps: number[] = [];
    for (let round = 0; round < 3; round++) {
      const calm = await runLoad({ ...load, durationSeconds: 3 });
      quiet.push(calm.p99Ms);
      quietRps.push(calm.requestsPerSecond);
      const before = receiver.count();
      await json(`${child.url}/chats/${chatId}/messages`, 'POST', { data: { text: 'stall' } }, token);
      while (receiver.count() < before + 100) await new Promise((resolve) => setTimeout(resolve, 10));
      const busy = await runLoad({ ...load, durationSeconds: 3 });
      loaded.push(busy.p99Ms);
      loadedRps.push(busy.requestsPerSecond);
      await new Promise((resolve) => setTimeout(resolve, 8_000));
    }
    const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    return { quietP99: median(quiet), loadedP99: median(loaded), quietRps: median(quietRps), loadedRps: median(loadedRps) };
  } finally {
    await child.stop();
    receiver.server.closeAllConnections();
    receiver.server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export const runWebhooksStall = measureStall;
export const runWebhooksW1 = async (): Promise<{ ours: number; bare: number }> => ({ ours: await measureOurs(1), bare: await measureBare(1) });

export interface WebhooksBenchResult {
  one: { ours: number; bare: number };
  ten: { ours: number; bare: number };
  stall: Awaited<ReturnType<typeof measureStall>>;
}

export async function runWebhooksBench(): Promise<WebhooksBenchResult> {
  const one = { ours: await measureOurs(1), bare: await measureBare(1) };
  const ten = { ours: await measureOurs(10), bare: await measureBare(10) };
  return { one, ten, stall: await measureStall() };
}

export function formatWebhooksBench(result: WebhooksBenchResult): string {
  const ratio = (a: number, b: number): string => `**${(a / b).toFixed(2)}x**`;
  const { one, ten, stall } = result;
  return [
    '| measure | ours | baseline | ratio | goal |',
    '|---|---:|---:|---:|---|',
    `| W1: ${DELIVERIES} deliveries, one webhook (in order, one at a time), deliveries/s | ${one.ours.toFixed(0)} | ${one.bare.toFixed(0)} (bare loop: sign + POST) | ${ratio(one.ours, one.bare)} | >= 0.5x |`,
    `| W1: ${DELIVERIES} deliveries over ten webhooks, deliveries/s | ${ten.ours.toFixed(0)} | ${ten.bare.toFixed(0)} (ten bare loops) | ${ratio(ten.ours, ten.bare)} | >= 0.5x |`,
    `| W2: GET /chats/{id} p99 while 100 deliveries hang / quiet (${stall.loadedRps.toFixed(0)} / ${stall.quietRps.toFixed(0)} req/s) | ${stall.loadedP99} ms | ${stall.quietP99} ms | ${ratio(stall.loadedP99, Math.max(1, stall.quietP99))} | <= 1.5x |`,
  ].join('\n');
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(formatWebhooksBench(await runWebhooksBench()));
}
