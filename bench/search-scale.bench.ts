// Search at scale (issue #37): the newest 50 matches of a prefix in a chat of 1,000,000 messages, ours against the
// bare node:http + SQLite peer doing the naive query (every match sorted for the page: bench/peer-work.ts), both on
// the same database file, bodies checked byte for byte first. Latency: one connection, requests one after another
// (p50 of the wall time of each, measured here). Throughput: 10 connections, alternating rounds.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { runLoad } from './load.ts';
import { seedHistory } from './seed-history.ts';
import { startChild, type ServerChild } from './server-process.ts';

const SERVERS = { ours: './chat-server.ts', bare: './messages-baseline.ts' } as const;
type Server = keyof typeof SERVERS;

export interface SearchScaleRow {
  path: string;
  /** Milliseconds of one request alone, per server: p50 and p99 of `samples` requests in a row. */
  alone: Record<Server, { p50: number; p99: number; samples: number }>;
  /** req/s and server CPU µs per request of each alternating round, per server. */
  rounds: Record<Server, { rps: number; cpuMicros: number }[]>;
}

export interface SearchScaleResult {
  messages: number;
  seedSeconds: number;
  rows: SearchScaleRow[];
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const percentile = (values: number[], p: number): number => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;

/** Requests one after another: `samples` of them after 3 unmeasured ones, or as many as fit in 20 s. */
async function timeAlone(url: string, headers: Record<string, string>, samples: number): Promise<{ p50: number; p99: number; samples: number }> {
  const times: number[] = [];
  const until = performance.now() + 20_000;
  for (let i = 0; i < samples + 3 && (times.length < 5 || performance.now() < until); i += 1) {
    const started = performance.now();
    const res = await fetch(url, { headers });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
    if (i >= 3) times.push(performance.now() - started);
  }
  return { p50: percentile(times, 0.5), p99: percentile(times, 0.99), samples: times.length };
}

export async function runSearchScaleBench(options: { messages?: number; rounds?: number; seconds?: number; paths?: string[] } = {}): Promise<SearchScaleResult> {
  const messages = options.messages ?? 1_000_000;
  const rounds = options.rounds ?? 3;
  const seconds = options.seconds ?? 3;
  const paths = options.paths ?? ['/search?q=lun&limit=50', '/search?q=lunch&limit=50', '/search?q=message&limit=50'];
  const dir = mkdtempSync(join(tmpdir(), 'bench-search-scale-'));
  const servers: Partial<Record<Server, ServerChild>> = {};
  try {
    const db = join(dir, 'search.db');
    const seeded = await seedHistory(db, messages);
    for (const [name, module] of Object.entries(SERVERS)) servers[name as Server] = await startChild(new URL(module, import.meta.url).pathname, { db });
    const login = await fetch(`${servers.ours!.url}/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ login: seeded.login, password: seeded.password }) });
    const { token } = (await login.json()) as { token: string };
    const headers = { authorization: `Bearer ${token}` };
    const rows: SearchScaleRow[] = [];
    for (const path of paths) {
      const bodies = await Promise.all((['ours', 'bare'] as const).map(async (name) => (await fetch(`${servers[name]!.url}${path}`, { headers })).text()));
      if (bodies[0] !== bodies[1]) {
        let at = 0;
        while (bodies[0]![at] === bodies[1]![at]) at += 1;
        throw new Error(`the bare peer answers ${path} differently from character ${at}:\n ours: ${bodies[0]!.slice(at - 100, at + 200)}\n bare: ${bodies[1]!.slice(at - 100, at + 200)}`);
      }
      // The naive query takes a large part of a second per request: fewer samples of it.
      const alone = {
        ours: await timeAlone(`${servers.ours!.url}${path}`, headers, 200),
        bare: await timeAlone(`${servers.bare!.url}${path}`, headers, 9),
      };
      const row: SearchScaleRow = { path, alone, rounds: { ours: [], bare: [] } };
      for (let round = 0; round < rounds; round += 1) {
        for (const name of round % 2 === 0 ? ['ours', 'bare'] as const : ['bare', 'ours'] as const) {
          const server = servers[name]!;
          const before = (await server.stats()).cpuMicros;
          const load = await runLoad({ url: `${server.url}${path}`, headers, connections: 10, durationSeconds: seconds });
          if (load.errors + load.non2xx > 0) throw new Error(`${path}: ${name} had ${load.errors} errors and ${load.non2xx} non-2xx answers`);
          // A request still running when the round ends would run into the next server's round: wait for the last.
          await (await fetch(`${server.url}${path}`, { headers })).arrayBuffer();
          row.rounds[name].push({ rps: load.requestsPerSecond, cpuMicros: ((await server.stats()).cpuMicros - before) / Math.max(1, load.total + 1) });
        }
      }
      rows.push(row);
    }
    return { messages, seedSeconds: seeded.seedSeconds, rows };
  } finally {
    for (const server of Object.values(servers)) await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export function formatSearchScaleBench(result: SearchScaleResult): string {
  const goal = (met: boolean): string => (met ? 'met' : 'NOT met');
  return [
    `One chat of ${result.messages.toLocaleString('en')} messages (seeded in ${result.seedSeconds.toFixed(0)} s; "lun" and "lunch" match 1 in 8, "message" every one). `
      + 'Alone: one connection, requests one after another (ours 200 or 20 s, the peer 9 or 20 s), wall ms. Under load: 10 connections, alternating rounds; '
      + 'cells are median req/s (each round) and median server CPU per request (each round waits for its last request); ratios: the median of the rounds\' ours / peer (the peer at under 1 req/s counts as 0.1), and the peer\'s CPU per request over ours.',
    '',
    '| query | ours alone p50 / p99 ms | peer alone p50 / p99 ms | ours req/s | peer req/s | ours / peer (req/s) | ours / peer (CPU per request) |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...result.rows.map((row, index) => {
      const ratio = median(row.rounds.ours.map((turn, round) => turn.rps / Math.max(row.rounds.bare[round]!.rps, 0.1)));
      const cpuRatio = median(row.rounds.bare.map((turn) => turn.cpuMicros)) / median(row.rounds.ours.map((turn) => turn.cpuMicros));
      const cell = (name: Server) => `${median(row.rounds[name].map((turn) => turn.rps)).toFixed(0)} (${row.rounds[name].map((turn) => turn.rps.toFixed(0)).join(', ')}); ${median(row.rounds[name].map((turn) => turn.cpuMicros)).toFixed(0)} µs`;
      const first = index === 0;
      return `| \`${row.path}\` | ${row.alone.ours.p50.toFixed(2)} / ${row.alone.ours.p99.toFixed(2)}${first ? ` (goal p50 ≤ 5: ${goal(row.alone.ours.p50 <= 5)})` : ''} | ${row.alone.bare.p50.toFixed(1)} / ${row.alone.bare.p99.toFixed(1)} | ${cell('ours')} | ${cell('bare')} | **${ratio.toFixed(1)}x**${first ? ` (goal ≥ 2: ${goal(ratio >= 2)})` : ''} | ${cpuRatio.toFixed(1)}x |`;
    }),
  ].join('\n');
}

const script = process.argv[1];
if (script !== undefined && import.meta.url === pathToFileURL(script).href) {
  console.log(formatSearchScaleBench(await runSearchScaleBench({ ...(process.env['SEARCH_MESSAGES'] ? { messages: Number(process.env['SEARCH_MESSAGES']) } : {}) })));
}
