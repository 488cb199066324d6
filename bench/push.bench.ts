// Web Push at scale (docs/protocol.md §17): one @all message to a chat of 1,000 subscribed members is pushed to all
// of them (each encrypted and signed) while a page of messages is read under load; the figures are the time until the last
// push arrived, and the API's p99 during the fan-out against the same load when quiet. The server is the real
// executable (src/main.ts) in a child process; the push service is plain node:http on loopback in this process.
// Run alone: node --import tsx bench/push.bench.ts
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runLoad, type LoadResult } from './load.ts';
import { runnable } from './server-process.ts';

const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const MEMBERS = 1000;
const LOAD_SECONDS = 5;

export const PUSH_BENCH_TITLE = 'Web Push: one message to a chat of 1,000 subscribed members';

export interface PushBenchResult {
  members: number;
  pushed: number;
  allPushedMs: number;
  quiet: LoadResult;
  during: LoadResult;
}

async function startMain(db: string): Promise<{ url: string; child: ChildProcess }> {
  const main = runnable(MAIN);
  const child = spawn(process.execPath, [...main.execArgv, main.file, '--db', db, '--port', '0', '--host', '127.0.0.1', '--quiet', '--registration', 'open',
    '--scrypt-n', '1024', '--hash-queue', '1000', '--login-rate', '0', '--write-rate', '0', '--register-rate', '0', '--push-subject', 'mailto:bench@chat.example', '--push-allow-insecure'],
  { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, NODE_V8_COVERAGE: '' } });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`server exited ${code}: ${out}`)));
  });
  return { url, child };
}

async function send(url: string, method: string, path: string, body?: unknown, token?: string): Promise<any> {
  const res = await fetch(`${url}${path}`, {
    method, headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** Registers and logs in `count` users, a few at a time; answers their ids and tokens. */
async function makeUsers(url: string, count: number, prefix: string): Promise<{ userId: string; token: string }[]> {
  const users: { userId: string; token: string }[] = [];
  for (let start = 0; start < count; start += 20) {
    users.push(...await Promise.all(Array.from({ length: Math.min(20, count - start) }, async (_, i) => {
      const login = `${prefix}${start + i}`;
      const user = await send(url, 'POST', '/users', { login, password: 'a long enough password' });
      const session = await send(url, 'POST', '/session', { login, password: 'a long enough password' });
      return { userId: user.id as string, token: session.token as string };
    })));
  }
  return users;
}

export async function runPushBench(): Promise<PushBenchResult> {
  const dir = mkdtempSync(join(tmpdir(), 'push-bench-'));
  let arrived = 0;
  let onAll: (() => void) | undefined;
  const service = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(201).end();
      if (++arrived === MEMBERS) onAll?.();
    });
  });
  await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
  const pushOrigin = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
  const server = await startMain(join(dir, 'chat.db'));
  try {
    const [owner] = await makeUsers(server.url, 1, 'owner');
    const members = await makeUsers(server.url, MEMBERS, 'member');
    const p256dh = Buffer.concat([Buffer.from([4]), Buffer.from('6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c2964fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5', 'hex')]).toString('base64url');
    await Promise.all(members.map((member, n) => send(server.url, 'POST', '/push-subscriptions', { endpoint: `${pushOrigin}/push/${n}`, keys: { p256dh, auth: Buffer.alloc(16, n % 256).toString('base64url') } }, member.token)));
    const chat = await send(server.url, 'POST', '/chats', { data: { title: 'Everyone', members: members.map((member) => member.userId) } }, owner!.token);
    // The API under load: a page of 50 messages of a small chat, the common read (the chat of 1,001 is read once a push).
    const small = await send(server.url, 'POST', '/chats', { data: { title: 'Two of us', members: [members[0]!.userId] } }, owner!.token);
    for (let n = 0; n < 50; n++) await send(server.url, 'POST', `/chats/${small.data.id}/messages`, { data: { text: `message ${n}` } }, owner!.token);
    const load = { url: `${server.url}/chats/${small.data.id}/messages?limit=50`, connections: 10, headers: { authorization: `Bearer ${owner!.token}` } };
    await runLoad({ ...load, durationSeconds: 1 });
    const quiet = await runLoad({ ...load, durationSeconds: LOAD_SECONDS });
    const all = new Promise<void>((resolve) => (onAll = resolve));
    const during = runLoad({ ...load, durationSeconds: LOAD_SECONDS });
    await new Promise((resolve) => setTimeout(resolve, 500));
    const started = performance.now();
    await send(server.url, 'POST', `/chats/${chat.data.id}/messages`, { data: { text: '@all the building is closing early today' } }, owner!.token);
    const deadline = new Promise<void>((resolve) => setTimeout(resolve, 30_000).unref());
    await Promise.race([all, deadline]);
    const allPushedMs = Math.round(performance.now() - started);
    return { members: MEMBERS, pushed: arrived, allPushedMs, quiet, during: await during };
  } finally {
    server.child.kill('SIGTERM');
    await once(server.child, 'exit');
    service.closeAllConnections();
    service.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export function formatPushBench(result: PushBenchResult): string {
  const ratio = result.quiet.p99Ms === 0 ? (result.during.p99Ms === 0 ? 1 : Infinity) : result.during.p99Ms / result.quiet.p99Ms;
  return [
    `An @all message by the owner of a chat whose ${result.members} other members each have a push subscription (a push service on loopback answering 201); GET /chats/{id}/messages?limit=50 of a two-person chat under load (10 connections, ${LOAD_SECONDS} s) quiet and during the fan-out. Goal: all pushed within 10 s, p99 during <= 2x quiet (under 1 ms, the p99 is counted as 1 ms).`,
    '',
    '| pushed | all pushed after | quiet req/s | quiet p99 ms | during req/s | during p99 ms | p99 during / quiet |',
    '|---:|---:|---:|---:|---:|---:|---:|',
    `| ${result.pushed} / ${result.members} | ${result.allPushedMs} ms | ${Math.round(result.quiet.requestsPerSecond)} | ${result.quiet.p99Ms} | ${Math.round(result.during.requestsPerSecond)} | ${result.during.p99Ms} | **${ratio.toFixed(2)}x** |`,
    '',
  ].join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const result = await runPushBench();
  process.stdout.write(`## ${PUSH_BENCH_TITLE} (${new Date().toISOString()})\n\n${formatPushBench(result)}\n`);
}
