// Ours against three peers on the same database file and the same work (issue #22): fastify with response
// schemas (bench/fastify-peer.ts), bare node:http + SQLite (bench/messages-baseline.ts), and a bare server
// sending our recorded bytes (the limit). Every body is checked byte for byte before anything is timed;
// servers take turns in alternating rounds, and the report gives medians and ratios of this one run.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { recordAnswer, type RecordedAnswer } from './baseline-server.ts';
import { createChatFixture } from './chat-fixture.ts';
import { runLoad, type LoadOptions } from './load.ts';
import { seedHistory } from './seed-history.ts';
import { startChild, type ServerChild } from './server-process.ts';

const CONNECTIONS = 10;
const PEERS = { ours: './chat-server.ts', fastify: './fastify-peer.ts', bare: './messages-baseline.ts', bytes: './baseline-server.ts' } as const;
type Peer = keyof typeof PEERS;

interface Request {
  path: string;
  method?: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
}

export interface PeerScenario {
  name: string;
  /** Each peer's req/s and server CPU µs per request, one entry per round. */
  turns: Partial<Record<Peer, { rps: number; cpuMicros: number; p99: number }[]>>;
  goals: { against: Peer; atLeast: number; label: string }[];
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** Ids and times differ between two servers' new messages: POST bodies are compared with those masked. */
const masked = (body: string): string => body.replace(/"[0-9A-HJKMNP-TV-Z]{26}"/g, '"<id>"').replace(/"\d{4}-\d\d-\d\dT[\d:.]+Z"/g, '"<time>"');

async function bodyOf(url: string, request: Request): Promise<string> {
  const res = await fetch(`${url}${request.path}`, { method: request.method ?? 'GET', headers: request.headers, body: request.body });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${request.method ?? 'GET'} ${request.path} answered ${res.status}: ${text.slice(0, 200)}`);
  return text;
}

/** Throws unless every peer answers exactly our body (POST: up to the new id and times). */
async function checkSameBodies(servers: Partial<Record<Peer, ServerChild>>, request: Request): Promise<void> {
  const ours = await bodyOf(servers.ours!.url, request);
  for (const [peer, server] of Object.entries(servers)) {
    if (peer === 'ours' || peer === 'bytes') continue;
    const theirs = await bodyOf(server.url, request);
    const same = request.method === 'POST' ? masked(theirs) === masked(ours) : theirs === ours;
    if (!same) throw new Error(`${peer} answers ${request.path} differently:\n ours:   ${ours.slice(0, 300)}\n theirs: ${theirs.slice(0, 300)}`);
  }
}

async function runScenario(name: string, servers: Partial<Record<Peer, ServerChild>>, request: Request, options: { rounds: number; seconds: number; goals: PeerScenario['goals'] }): Promise<PeerScenario> {
  await checkSameBodies(servers, request);
  const order = Object.keys(servers) as Peer[];
  const turns: PeerScenario['turns'] = {};
  const load = (url: string): LoadOptions => ({ url: `${url}${request.path}`, method: request.method ?? 'GET', headers: request.headers, body: request.body, connections: CONNECTIONS });
  for (const peer of order) await runLoad({ ...load(servers[peer]!.url), durationSeconds: 1 });
  for (let round = 0; round < options.rounds; round += 1) {
    // Alternate: each round starts with the next peer, so no one always runs first (or after the busiest).
    for (let i = 0; i < order.length; i += 1) {
      const peer = order[(i + round) % order.length]!;
      const server = servers[peer]!;
      const before = (await server.stats()).cpuMicros;
      const result = await runLoad({ ...load(server.url), durationSeconds: options.seconds });
      const cpu = (await server.stats()).cpuMicros - before;
      if (result.errors + result.non2xx > 0) throw new Error(`${name}: ${peer} had ${result.errors} errors and ${result.non2xx} non-2xx answers`);
      (turns[peer] ??= []).push({ rps: result.requestsPerSecond, cpuMicros: cpu / Math.max(1, result.total), p99: result.p99Ms });
    }
  }
  return { name, turns, goals: options.goals };
}

async function startPeers(db: string, peers: Peer[], answers: Record<string, RecordedAnswer>): Promise<Partial<Record<Peer, ServerChild>>> {
  const servers: Partial<Record<Peer, ServerChild>> = {};
  for (const peer of peers) {
    const module = new URL(PEERS[peer], import.meta.url).pathname;
    servers[peer] = await startChild(module, peer === 'bytes' ? { answers } : { db });
  }
  return servers;
}

const stopAll = async (servers: Partial<Record<Peer, ServerChild>>): Promise<void> => {
  for (const server of Object.values(servers)) await server.stop();
};

export async function runPeersBench(options: { rounds?: number; seconds?: number; searchMessages?: number; only?: string } = {}): Promise<PeerScenario[]> {
  const rounds = options.rounds ?? 3;
  const seconds = options.seconds ?? 3;
  const wanted = (name: string): boolean => options.only === undefined || options.only.split(',').some((part) => name.includes(part));
  const dir = mkdtempSync(join(tmpdir(), 'bench-peers-'));
  const scenarios: PeerScenario[] = [];
  try {
    // One file for every server: a user, a session, a chat of 1000 messages, written through our API.
    const db = join(dir, 'chat.db');
    const seeder = await startChild(new URL(PEERS.ours, import.meta.url).pathname, { db });
    const fixture = await createChatFixture(seeder.url, { messages: 1000, parallel: 50 });
    const auth = fixture.headers;
    const chat = `/chats/${fixture.chatId}`;
    const gets: Record<string, Request> = {
      health: { path: '/health', headers: {} },
      chat: { path: chat, headers: auth },
      page: { path: `${chat}/messages?limit=50`, headers: auth },
      search: { path: '/search?q=fox', headers: auth },
    };
    const answers: Record<string, RecordedAnswer> = {};
    for (const [key, request] of Object.entries(gets)) answers[key] = await recordAnswer(await fetch(`${seeder.url}${request.path}`, { headers: request.headers }));
    await seeder.stop();
    const bytesOf = (key: string) => ({ '/': answers[key]! });

    const all = await startPeers(db, ['ours', 'fastify', 'bare'], {});
    try {
      const run = async (name: string, key: string, request: Request, goals: PeerScenario['goals'], peers: Peer[] = ['ours', 'fastify', 'bare', 'bytes']): Promise<void> => {
        if (!wanted(name)) return;
        const bytes = peers.includes('bytes') ? await startPeers(db, ['bytes'], bytesOf(key)) : {};
        const servers = Object.fromEntries(peers.map((peer) => [peer, peer === 'bytes' ? bytes.bytes : all[peer]])) as Partial<Record<Peer, ServerChild>>;
        try {
          scenarios.push(await runScenario(name, servers, request, { rounds, seconds, goals }));
        } finally {
          await stopAll(bytes);
        }
      };
      await run('GET /health', 'health', gets['health']!, [{ against: 'bytes', atLeast: 0.95, label: 'P1' }], ['ours', 'bytes']);
      await run('GET /chats/{id} (authenticated)', 'chat', gets['chat']!, [{ against: 'fastify', atLeast: 1, label: '' }]);
      await run('GET /chats/{id}/messages?limit=50 (of 1000)', 'page', gets['page']!, [{ against: 'fastify', atLeast: 1, label: 'P2' }, { against: 'bytes', atLeast: 0.5, label: 'P3' }]);
      await run('GET /search?q=fox (1000 messages)', 'search', gets['search']!, [], ['ours', 'fastify', 'bare']);
      // Last: the posts grow the chat the pages above count.
      await run('POST /chats/{id}/messages', 'post', { path: `${chat}/messages`, method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ data: { text: 'a message posted under load' } }) },
        [{ against: 'fastify', atLeast: 1, label: '' }], ['ours', 'fastify', 'bare']);
    } finally {
      await stopAll(all);
    }

    const searchName = `GET /search?q=lun (prefix, ${(options.searchMessages ?? 100_000).toLocaleString('en')} messages)`;
    if (wanted(searchName)) {
      const searchDb = join(dir, 'search.db');
      const seeded = await seedHistory(searchDb, options.searchMessages ?? 100_000);
      const servers = await startPeers(searchDb, ['ours', 'fastify', 'bare'], {});
      try {
        const login = await fetch(`${servers.ours!.url}/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ login: seeded.login, password: seeded.password }) });
        const { token } = (await login.json()) as { token: string };
        scenarios.push(await runScenario(searchName, servers, { path: '/search?q=lun', headers: { authorization: `Bearer ${token}` } },
          { rounds, seconds, goals: [{ against: 'bare', atLeast: 0.8, label: 'P4' }] }));
      } finally {
        await stopAll(servers);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return scenarios;
}

export function formatPeersBench(scenarios: PeerScenario[], rounds: number, seconds: number): string {
  const cell = (scenario: PeerScenario, peer: Peer): string => {
    const turns = scenario.turns[peer];
    if (!turns) return '-';
    return `${median(turns.map((turn) => turn.rps)).toFixed(0)} (${turns.map((turn) => turn.rps.toFixed(0)).join(', ')}); ${median(turns.map((turn) => turn.cpuMicros)).toFixed(0)} µs`;
  };
  // Paired: each round measures ours and the peer one right after the other, so the ratio of that round is
  // what the machine's load at that moment moved least; the figure is the median of the rounds' ratios.
  const ratio = (scenario: PeerScenario, peer: Peer): number | undefined => {
    const theirs = scenario.turns[peer];
    const ours = scenario.turns.ours!;
    return theirs ? median(theirs.map((turn, round) => ours[round]!.rps / turn.rps)) : undefined;
  };
  const ratioCell = (scenario: PeerScenario, peer: Peer): string => {
    const value = ratio(scenario, peer);
    if (value === undefined) return '-';
    const goal = scenario.goals.find((candidate) => candidate.against === peer);
    return goal ? `**${value.toFixed(2)}x** (goal ≥ ${goal.atLeast}${goal.label ? `, ${goal.label}` : ''}: ${value >= goal.atLeast ? 'met' : 'NOT met'})` : `${value.toFixed(2)}x`;
  };
  return [
    `Every server on the same database file, ${CONNECTIONS} connections, ${rounds} alternating rounds of ${seconds} s after a 1 s warm-up each; `
      + 'bodies checked byte for byte against ours before timing (POST: up to the new id and times). '
      + 'Cells: median req/s (each round); median server CPU per request. Ratios: ours / peer, the median of the rounds\' ratios (each round runs every server once, one after another).',
    '',
    '| scenario | ours | fastify | bare node:http + SQLite | prebuilt bytes | ours / fastify | ours / bare | ours / bytes |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...scenarios.map((scenario) => `| ${scenario.name} | ${cell(scenario, 'ours')} | ${cell(scenario, 'fastify')} | ${cell(scenario, 'bare')} | ${cell(scenario, 'bytes')} | `
      + `${ratioCell(scenario, 'fastify')} | ${ratioCell(scenario, 'bare')} | ${ratioCell(scenario, 'bytes')} |`),
  ].join('\n');
}

const script = process.argv[1];
if (script !== undefined && import.meta.url === pathToFileURL(script).href) {
  const rounds = Number(process.env['PEER_ROUNDS'] ?? 3);
  const seconds = Number(process.env['BENCH_SECONDS'] ?? 3);
  const only = process.env['PEER_ONLY'];
  console.log(formatPeersBench(await runPeersBench({ rounds, seconds, ...(only ? { only } : {}) }), rounds, seconds));
}
