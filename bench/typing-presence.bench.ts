// Typing and presence under load (docs/protocol.md §14.5, §14.6): 200 users in 20 chats of 10, 5 streams each (1,000
// streams), typing as people do (a start every 2.1 s, so each is forwarded). T1: the server's CPU per typing event
// against per message posted to the same chats, and the delivery latency. T2: a soak of the usual mix (presence in
// every user read) with the typing and the 1,000 streams on: p99 <= 50 ms.
import { mkdtempSync, rmSync } from 'node:fs';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { callJson, openStream, percentile, SERVER_OPTIONS, users, type User } from './events.bench.ts';
import { startChild, type ServerChild } from './server-process.ts';

const CHAT_SERVER = new URL('./chat-server.ts', import.meta.url).pathname;
const TYPERS = 200;
const CHAT_SIZE = 10;
const STREAMS_PER_USER = 5;
/** Just over the 2 s limit: every start is forwarded. */
const TYPING_EVERY_MS = 2100;

export interface TypingPresenceResult {
  streams: number;
  typing: { seconds: number; sent: number; frames: number; cpuMicrosPerEvent: number; cpuMicrosPerFrame: number; p50Ms: number; p99Ms: number; maxMs: number };
  messages: { sent: number; cpuMicrosPerMessage: number };
  dropped: { sent: number; cpuMicrosPerRequest: number };
  soak: { seconds: number; targetRps: number; achievedRps: number; p50Ms: number; p99Ms: number; controlP50Ms: number; controlP99Ms: number; errors: number; non2xx: number; typingSent: number; typingFrames: number; eventLoopP99Ms: number; mix: string[] };
}

interface Setup {
  server: ServerChild;
  people: User[];
  chats: string[];
  sockets: Socket[];
  frames: { typing: number; latencies: number[] };
  sentAt: Map<string, number>;
}

async function setUp(dir: string): Promise<Setup> {
  const server = await startChild(CHAT_SERVER, { db: join(dir, 'typing.db'), ...SERVER_OPTIONS });
  const people = await users(server.url, TYPERS, 'typer');
  const chats: string[] = [];
  for (let start = 0; start < people.length; start += CHAT_SIZE) {
    const members = people.slice(start, start + CHAT_SIZE);
    chats.push((await callJson(`${server.url}/chats`, 'POST', { data: { title: `team ${start / CHAT_SIZE}`, members: members.slice(1).map((m) => m.userId) } }, members[0]!.token)).data.id);
  }
  const frames = { typing: 0, latencies: [] as number[] };
  const sentAt = new Map<string, number>();
  const sockets: Socket[] = [];
  for (const person of people) {
    for (let i = 0; i < STREAMS_PER_USER; i++) {
      sockets.push(await openStream(server.url, person.token, (frame, at) => {
        if (!frame.includes('event: typing')) return;
        const userId = /"userId":"([^"]+)"/.exec(frame)?.[1];
        const sent = userId === undefined ? undefined : sentAt.get(userId);
        frames.typing++;
        if (sent !== undefined) frames.latencies.push(at - sent);
      }));
    }
  }
  return { server, people, chats, sockets, frames, sentAt };
}

function chatOf(setup: Setup, index: number): string {
  return setup.chats[Math.floor(index / CHAT_SIZE)]!;
}

/** Every user does `act` every `everyMs` (spread over the interval) for `seconds`; answers how many were done. */
async function paced(setup: Setup, seconds: number, everyMs: number, act: (person: User, index: number) => Promise<void>): Promise<number> {
  let done = 0;
  const until = performance.now() + seconds * 1000;
  await Promise.all(setup.people.map(async (person, index) => {
    await new Promise((resolve) => setTimeout(resolve, (everyMs * index) / setup.people.length));
    while (performance.now() < until) {
      const next = performance.now() + everyMs;
      await act(person, index);
      done++;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, next - performance.now())));
    }
  }));
  return done;
}

/** Every typer starts typing every `everyMs` for `seconds`; answers how many starts were sent. */
function typeFor(setup: Setup, seconds: number, everyMs: number): Promise<number> {
  return paced(setup, seconds, everyMs, async (person, index) => {
    setup.sentAt.set(person.userId, performance.now());
    const res = await fetch(`${setup.server.url}/chats/${chatOf(setup, index)}/typing`, { method: 'POST', headers: { authorization: `Bearer ${person.token}` } });
    await res.arrayBuffer();
    if (res.status !== 204) throw new Error(`typing answered ${res.status}`);
  });
}

async function cpuOf(server: ServerChild, work: () => Promise<number>): Promise<{ count: number; micros: number }> {
  const before = (await server.stats()).cpuMicros;
  const count = await work();
  return { count, micros: (await server.stats()).cpuMicros - before };
}

export async function runTypingPresenceBench(options: { seconds?: number; soakSeconds?: number } = {}): Promise<TypingPresenceResult> {
  const seconds = options.seconds ?? 15;
  const soakSeconds = options.soakSeconds ?? Number(process.env['TYPING_SOAK_SECONDS'] ?? 30);
  const dir = mkdtempSync(join(tmpdir(), 'bench-typing-'));
  const setup = await setUp(dir);
  const { server, people } = setup;
  try {
    await typeFor(setup, 2, TYPING_EVERY_MS);
    setup.frames.latencies = [];
    const framesBefore = setup.frames.typing;
    const typed = await cpuOf(server, () => typeFor(setup, seconds, TYPING_EVERY_MS));
    const frames = setup.frames.typing - framesBefore;
    const sorted = [...setup.frames.latencies].sort((a, b) => a - b);
    // The same people post as often to the same chats: a logged event with the same fan-out and pace, for scale.
    const posted = await cpuOf(server, () => paced(setup, seconds, TYPING_EVERY_MS, async (person, index) => {
      await callJson(`${server.url}/chats/${chatOf(setup, index)}/messages`, 'POST', { data: { text: 'a message at the pace of typing' } }, person.token);
    }));
    // Starts within 2 s of the last: answered 204 and dropped (what an eager client costs).
    const dropped = await cpuOf(server, () => typeFor(setup, 3, 250));

    // T2: the soak's mix, presence in every user read, with the typing and the streams on.
    const reader = people[0]!;
    const auth = { authorization: `Bearer ${reader.token}` };
    const chat = `/chats/${setup.chats[0]}`;
    const requests: autocannon.Request[] = [
      { method: 'GET', path: chat, headers: auth },
      { method: 'GET', path: `${chat}/messages?limit=50`, headers: auth },
      { method: 'POST', path: `${chat}/messages`, headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ data: { text: 'soak message, posted under steady load' } }) },
      { method: 'GET', path: `/users/${people[1]!.userId}`, headers: auth },
      { method: 'GET', path: '/users?limit=50', headers: auth },
    ];
    const probe = await autocannon({ url: server.url, connections: 10, duration: 3, requests });
    const target = Math.max(1, Math.floor(probe.requests.average / 2));
    // The control: the same mix at the same rate with the streams open and nobody typing.
    const control = await autocannon({ url: server.url, connections: 10, duration: soakSeconds, overallRate: target, requests });
    await server.resetStats();
    const typingFramesBefore = setup.frames.typing;
    const [soak, typingSent] = await Promise.all([
      autocannon({ url: server.url, connections: 10, duration: soakSeconds, overallRate: target, requests }),
      typeFor(setup, soakSeconds, TYPING_EVERY_MS),
    ]);
    const loop = await server.stats();
    return {
      streams: setup.sockets.length,
      typing: {
        seconds, sent: typed.count, frames, cpuMicrosPerEvent: typed.micros / typed.count, cpuMicrosPerFrame: typed.micros / Math.max(1, frames),
        p50Ms: percentile(sorted, 0.5), p99Ms: percentile(sorted, 0.99), maxMs: sorted.at(-1) ?? 0,
      },
      messages: { sent: posted.count, cpuMicrosPerMessage: posted.micros / posted.count },
      dropped: { sent: dropped.count, cpuMicrosPerRequest: dropped.micros / dropped.count },
      soak: {
        seconds: soakSeconds, targetRps: target, achievedRps: soak.requests.average, p50Ms: soak.latency.p50, p99Ms: soak.latency.p99,
        controlP50Ms: control.latency.p50, controlP99Ms: control.latency.p99,
        errors: soak.errors + soak.timeouts, non2xx: soak.non2xx, typingSent, typingFrames: setup.frames.typing - typingFramesBefore,
        eventLoopP99Ms: loop.eventLoopP99Ms, mix: requests.map((request) => `${request.method} ${request.path!.replace(/[0-9A-Z]{26}/g, '{id}')}`),
      },
    };
  } finally {
    for (const socket of setup.sockets) socket.destroy();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export function formatTypingPresenceBench(result: TypingPresenceResult): string {
  const { typing: t, messages: m, dropped: d, soak: s } = result;
  const ms = (value: number): string => value.toFixed(1);
  return [
    `${TYPERS} users in ${TYPERS / CHAT_SIZE} chats of ${CHAT_SIZE}, ${STREAMS_PER_USER} streams each (${result.streams} streams); each user starts typing every ${TYPING_EVERY_MS / 1000} s `
      + '(each start forwarded to the other 9 members\' 45 streams). Server CPU from the child\'s own user + system time.',
    '',
    '| measure | figure | goal |',
    '|---|---:|---|',
    `| T1: ${t.sent} typing events in ${t.seconds} s (${(t.sent / t.seconds).toFixed(0)}/s), ${t.frames} frames written | **${t.cpuMicrosPerEvent.toFixed(0)} µs** CPU per event, ${t.cpuMicrosPerFrame.toFixed(1)} µs per frame | |`,
    `| T1: a message posted to the same chats at the same pace (${m.sent}, same fan-out, a logged event) | ${m.cpuMicrosPerMessage.toFixed(0)} µs CPU per message = typing **${(t.cpuMicrosPerEvent / m.cpuMicrosPerMessage).toFixed(2)}x** a message | < 1x |`,
    `| T1: typing delivery, POST to each stream's frame, p50 / p99 / max | ${ms(t.p50Ms)} / **${ms(t.p99Ms)}** / ${ms(t.maxMs)} ms | p99 <= 50 ms |`,
    `| T1: a start within 2 s of the last (${d.sent}, answered 204, dropped) | ${d.cpuMicrosPerRequest.toFixed(0)} µs CPU per request | |`,
    `| T2: ${s.seconds} s soak at half the mix's maximum (${s.targetRps} req/s; achieved ${s.achievedRps.toFixed(0)}) with ${s.typingSent} typing starts (${s.typingFrames} frames) and the streams open, p50 / p99 | ${s.p50Ms} / **${s.p99Ms} ms** | p99 <= 50 ms |`,
    `| T2: the same soak with nobody typing (the control), p50 / p99 | ${s.controlP50Ms} / ${s.controlP99Ms} ms: typing adds **${(s.p99Ms - s.controlP99Ms).toFixed(0)} ms** to p99 | |`,
    `| T2: errors / non-2xx; server event-loop delay p99 | ${s.errors} / ${s.non2xx}; ${s.eventLoopP99Ms.toFixed(1)} ms | 0 / 0 |`,
    '',
    `Soak mix: ${s.mix.map((entry) => `\`${entry}\``).join(', ')}; every user read computes presence. Presence writes nothing per request:`
      + ' last_seen_at is written by one UPDATE for all users every 30 s (events/presence.ts), so the soak adds no write of its own.',
    'The load generator, the typing clients and the 1,000 SSE clients run in the bench process on the same cores as the server.',
  ].join('\n');
}

const script = process.argv[1];
if (script !== undefined && import.meta.url === pathToFileURL(script).href) {
  console.log(formatTypingPresenceBench(await runTypingPresenceBench()));
}
