// Event delivery (docs/protocol.md §9): fan-out latency to 1,000 streams, the memory of 10,000 idle streams and their
// effect on /health, replay throughput from the log, and what the event write costs a POST.
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { runLoad } from './load.ts';
import { startChild, type ServerChild } from './server-process.ts';

const CHAT_SERVER = new URL('./chat-server.ts', import.meta.url).pathname;
const PASSWORD = 'a long benchmark password';
/** Hashing is not what is measured here, and limits would refuse the setup's bursts. */
export const SERVER_OPTIONS = { scryptN: 1024, maxStreams: 15_000, registerRate: 0, writeRate: 0, hashQueue: 10_000 };

export async function callJson(url: string, method: string, body: unknown, token?: string): Promise<any> {
  const res = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

export interface User { userId: string; token: string }

export async function users(url: string, count: number, prefix: string): Promise<User[]> {
  const made: User[] = [];
  for (let start = 0; start < count; start += 50) {
    made.push(...await Promise.all(Array.from({ length: Math.min(50, count - start) }, async (_, i) => {
      const login = `${prefix}${start + i}`;
      const user = await callJson(`${url}/users`, 'POST', { login, password: PASSWORD });
      const session = await callJson(`${url}/session`, 'POST', { login, password: PASSWORD });
      return { userId: user.id as string, token: session.token as string };
    })));
  }
  return made;
}

/** A raw SSE connection: calls onFrame with each complete frame's text and the time it was read. */
export function openStream(url: string, token: string, onFrame: (frame: string, at: number) => void, query = ''): Promise<Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let buffer = '';
    let headersDone = false;
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      const at = performance.now();
      buffer += chunk;
      if (!headersDone) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end === -1) return;
        if (!buffer.startsWith('HTTP/1.1 200')) reject(new Error(buffer.slice(0, 200)));
        headersDone = true;
        buffer = buffer.slice(end + 4);
        resolve(socket);
      }
      // Chunked framing lines are left in; frames are found by their own blank-line ends, the rest kept once.
      let start = 0;
      let end: number;
      while ((end = buffer.indexOf('\n\n', start)) !== -1) {
        onFrame(buffer.slice(start, end), at);
        start = end + 2;
      }
      buffer = buffer.slice(start);
    });
    socket.on('error', reject);
    socket.write(`GET /events${query} HTTP/1.1\r\nHost: ${hostname}\r\nAccept: text/event-stream\r\nAuthorization: Bearer ${token}\r\n\r\n`);
  });
}

export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
}

export interface EventsBenchResult {
  fanOut: { streams: number; messages: number; p50Ms: number; p99Ms: number; maxMs: number };
  idle: { streams: number; rssBeforeMiB: number; rssAfterMiB: number; kibPerStream: number; healthQuietP99Ms: number; healthLoadedP99Ms: number; healthQuietRps: number; healthLoadedRps: number };
  replay: { events: number; seconds: number; eventsPerSecond: number };
  post: { withEventsRps: number; withoutEventsRps: number; ratio: number };
}

/** E1: one chat of 200 members, 5 streams each; every message timed from the POST to each stream's frame. */

export async function fanOut(dir: string): Promise<EventsBenchResult['fanOut']> {
  const server = await startChild(CHAT_SERVER, { db: join(dir, 'fanout.db'), ...SERVER_OPTIONS });
  const sockets: Socket[] = [];
  try {
    const members = await users(server.url, 200, 'fan');
    const owner = members[0]!;
    const chat = await callJson(`${server.url}/chats`, 'POST', { data: { title: 'fan-out', members: members.map((m) => m.userId) } }, owner.token);
    const sentAt = new Map<string, number>();
    const latencies: number[] = [];
    let delivered = 0;
    let wake: () => void = () => {};
    for (const member of members) {
      for (let i = 0; i < 5; i++) {
        sockets.push(await openStream(server.url, member.token, (frame, at) => {
          const match = /"text":"fan (\d+)"/.exec(frame);
          if (!match) return;
          latencies.push(at - sentAt.get(match[1]!)!);
          if (++delivered % 1000 === 0) wake();
        }));
      }
    }
    const messages = 30;
    for (let n = 0; n < messages; n++) {
      const all = new Promise<void>((resolve) => { wake = resolve; });
      sentAt.set(String(n), performance.now());
      await callJson(`${server.url}/chats/${chat.data.id}/messages`, 'POST', { data: { text: `fan ${n}` } }, members[1 + (n % 10)]!.token);
      await all;
    }
    const sorted = latencies.sort((a, b) => a - b);
    return { streams: sockets.length, messages, p50Ms: percentile(sorted, 0.5), p99Ms: percentile(sorted, 0.99), maxMs: sorted.at(-1)! };
  } finally {
    for (const socket of sockets) socket.destroy();
    await server.stop();
  }
}

/** E2: 10,000 open streams doing nothing: server RSS per stream, and /health p99 against the same server quiet. */
export async function idleStreams(dir: string): Promise<EventsBenchResult['idle']> {
  const server = await startChild(CHAT_SERVER, { db: join(dir, 'idle.db'), ...SERVER_OPTIONS });
  const sockets: Socket[] = [];
  try {
    const people = await users(server.url, 2000, 'idle');
    const health = { url: `${server.url}/health`, connections: 10, durationSeconds: 3 };
    await runLoad({ ...health, durationSeconds: 1 });
    const quiet = await runLoad(health);
    const before = (await server.stats()).rssBytes;
    for (const person of people) for (let i = 0; i < 5; i++) sockets.push(await openStream(server.url, person.token, () => {}));
    const after = (await server.stats()).rssBytes;
    const loaded = await runLoad(health);
    return {
      streams: sockets.length,
      rssBeforeMiB: before / 2 ** 20,
      rssAfterMiB: after / 2 ** 20,
      kibPerStream: (after - before) / sockets.length / 1024,
      healthQuietP99Ms: quiet.p99Ms,
      healthLoadedP99Ms: loaded.p99Ms,
      healthQuietRps: quiet.requestsPerSecond,
      healthLoadedRps: loaded.requestsPerSecond,
    };
  } finally {
    for (const socket of sockets) socket.destroy();
    await server.stop();
  }
}

/** E3: 100,000 message events in the log (written straight into the file, shaped as the server writes them), read by one resuming stream. */
export async function replay(dir: string): Promise<EventsBenchResult['replay']> {
  const db = join(dir, 'replay.db');
  let server: ServerChild = await startChild(CHAT_SERVER, { db, ...SERVER_OPTIONS });
  const [reader] = await users(server.url, 1, 'replay');
  const chat = await callJson(`${server.url}/chats`, 'POST', { data: { title: 'replay' } }, reader!.token);
  const sample = await callJson(`${server.url}/chats/${chat.data.id}/messages`, 'POST', { data: { text: 'the quick brown fox jumps over the lazy dog' } }, reader!.token);
  await server.stop();
  const count = 100_000;
  const file = new Database(db);
  const insert = file.prepare('INSERT INTO events (type, chat_id, created_at, data) VALUES (?, ?, ?, ?)');
  file.transaction(() => {
    for (let i = 0; i < count; i++) insert.run('message.created', chat.data.id, Date.now(), JSON.stringify({ ...sample.data, text: `replayed ${i}` }));
  })();
  file.close();
  server = await startChild(CHAT_SERVER, { db, ...SERVER_OPTIONS });
  try {
    let received = 0;
    const started = performance.now();
    let socket: Socket | undefined;
    const seconds = await new Promise<number>((resolve) => {
      void openStream(server.url, reader!.token, (frame) => {
        if (frame.includes('event: message.created')) received++;
        else if (frame.includes('event: ready')) resolve((performance.now() - started) / 1000);
      }, '?after=2').then((opened) => { socket = opened; });
    });
    socket?.destroy();
    if (received !== count) throw new Error(`replayed ${received} of ${count}`);
    return { events: count, seconds, eventsPerSecond: count / seconds };
  } finally {
    await server.stop();
  }
}

/** What the event write costs a POST: the same load with the event log switched off (a benchmark-only switch). */
export async function postCost(dir: string, durationSeconds: number): Promise<EventsBenchResult['post']> {
  const rates: number[] = [];
  for (const [name, recordEvents] of [['with', true], ['without', false], ['with2', true], ['without2', false]] as const) {
    const server = await startChild(CHAT_SERVER, { db: join(dir, `post-${name}.db`), ...SERVER_OPTIONS, recordEvents });
    try {
      const [author] = await users(server.url, 1, 'poster');
      const chat = await callJson(`${server.url}/chats`, 'POST', { data: { title: 'posts' } }, author!.token);
      const load = {
        url: `${server.url}/chats/${chat.data.id}/messages`,
        method: 'POST' as const,
        headers: { authorization: `Bearer ${author!.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ data: { text: 'a message posted under load' } }),
        connections: 10,
      };
      await runLoad({ ...load, durationSeconds: 1 });
      rates.push((await runLoad({ ...load, durationSeconds })).requestsPerSecond);
    } finally {
      await server.stop();
    }
  }
  // Alternating runs, then the mean of each kind, so drift of the machine falls on both.
  const withEvents = (rates[0]! + rates[2]!) / 2;
  const withoutEvents = (rates[1]! + rates[3]!) / 2;
  return { withEventsRps: withEvents, withoutEventsRps: withoutEvents, ratio: withEvents / withoutEvents };
}

export async function runEventsBench(dir: string, options: { durationSeconds: number }): Promise<EventsBenchResult> {
  return {
    fanOut: await fanOut(dir),
    idle: await idleStreams(dir),
    replay: await replay(dir),
    post: await postCost(dir, options.durationSeconds),
  };
}

export function formatEventsBench(result: EventsBenchResult): string {
  const { fanOut: f, idle: i, replay: r, post: p } = result;
  const ms = (value: number): string => value.toFixed(1);
  return [
    '| measure | figure | goal |',
    '|---|---:|---|',
    `| E1: one message to ${f.streams} open streams (200 users, ${f.messages} messages), delivery p50 / p99 / max | ${ms(f.p50Ms)} / **${ms(f.p99Ms)}** / ${ms(f.maxMs)} ms | p99 <= 50 ms |`,
    `| E2: ${i.streams} idle streams, server RSS ${i.rssBeforeMiB.toFixed(0)} -> ${i.rssAfterMiB.toFixed(0)} MiB | **${i.kibPerStream.toFixed(1)} KiB** per stream | <= 8 KiB |`,
    `| E2: GET /health p99 with them open / quiet (${i.healthLoadedRps.toFixed(0)} / ${i.healthQuietRps.toFixed(0)} req/s) | ${i.healthLoadedP99Ms} / ${i.healthQuietP99Ms} ms = **${(i.healthLoadedP99Ms / Math.max(1, i.healthQuietP99Ms)).toFixed(2)}x** | <= 2x |`,
    `| E3: replay of ${r.events} events to one resuming stream | ${r.seconds.toFixed(2)} s = **${r.eventsPerSecond.toFixed(0)} events/s** | >= 50,000 |`,
    `| POST message with the event write / without (${p.withEventsRps.toFixed(0)} / ${p.withoutEventsRps.toFixed(0)} req/s, alternating runs) | **${p.ratio.toFixed(2)}x** | >= 0.9x |`,
    '',
    'The load generator and the SSE clients run in the bench process on the same 2 cores as the server, so',
    'latencies include the clients parsing 1,000 streams. /health p99 is in whole milliseconds (autocannon), so',
    'a quiet p99 of 0-1 ms makes the ratio coarse; it is taken against max(1, quiet).',
  ].join('\n');
}
