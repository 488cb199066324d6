// Sign-in during a registration flood: a correct login's p99 while 300 connections register new accounts
// (scrypt N=2^17, the default hash budget), against the same login on a quiet server. Target: at most 3x.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { fork } from 'node:child_process';
import { once } from 'node:events';
import type { FloodSummary } from './flood-client.ts';
import { runLoad, type LoadResult } from './load.ts';
import { startChild } from './server-process.ts';

export interface RegistrationFloodResult {
  quiet: LoadResult;
  underFlood: LoadResult;
  flood: FloodSummary;
  p99Ratio: number;
  peakRssBytes: number;
}

const FLOOD_CONNECTIONS = 300;
const PASSWORD = 'a long benchmark password';

export async function runRegistrationFloodBench(options: { durationSeconds?: number } = {}): Promise<RegistrationFloodResult> {
  const duration = options.durationSeconds ?? 10;
  const dir = mkdtempSync(join(tmpdir(), 'bench-flood-'));
  // Rate limits stay off (bench/chat-server.ts): this measures the hashing budget, as a flood from many addresses would.
  const server = await startChild(new URL('./chat-server.ts', import.meta.url).pathname, { db: join(dir, 'chat.db'), loginMaxFailures: 1_000_000 });
  try {
    const credentials = JSON.stringify({ login: 'bencher', password: PASSWORD });
    const created = await fetch(`${server.url}/users`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: credentials });
    if (created.status !== 201) throw new Error(`could not register: ${created.status}`);
    // One client signing in again and again: each answer is one login's whole latency.
    const login = { url: `${server.url}/session`, method: 'POST' as const, headers: { 'content-type': 'application/json' }, body: credentials, connections: 1, durationSeconds: duration };
    await runLoad({ ...login, amount: 3 });
    const quiet = await runLoad(login);
    const floodClient = fork(new URL('./flood-client.ts', import.meta.url).pathname, [`${server.url}/users`, String(FLOOD_CONNECTIONS), String(duration + 2), PASSWORD], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const flooded = once(floodClient, 'message') as Promise<[FloodSummary]>;
    // Let the flood fill the queue before the timed logins start.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const underFlood = await runLoad(login);
    const [flood] = await flooded;
    const stats = await server.stats();
    return {
      quiet,
      underFlood,
      flood,
      p99Ratio: underFlood.p99Ms / Math.max(quiet.p99Ms, 1),
      peakRssBytes: stats.maxRssBytes,
    };
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export function formatRegistrationFloodBench(result: RegistrationFloodResult): string {
  const row = (name: string, load: LoadResult) => `| ${name} | ${load.total} | ${load.p50Ms} | ${load.p99Ms} | ${load.errors + load.non2xx} |`;
  const { flood } = result;
  return [
    '| scenario | logins | p50 ms | p99 ms | errors |',
    '|---|---:|---:|---:|---:|',
    row('correct login, one client, quiet server', result.quiet),
    row(`the same during a flood of ${FLOOD_CONNECTIONS} registering connections`, result.underFlood),
    '',
    `Login p99 during the flood / quiet: **${result.p99Ratio.toFixed(2)}x** (target at most 3x; p99 floored at 1 ms).`,
    `The flood: ${flood.requests} registrations answered, ${flood.created} created (201), ${flood.busy} refused 503 with Retry-After`
      + ` (hash queue full), ${flood.other} other, ${flood.timeouts} errors or timeouts; p50 ${flood.p50Ms} ms.`,
    `Peak RSS of the server: ${(result.peakRssBytes / 2 ** 20).toFixed(0)} MiB.`,
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) {
  console.log(formatRegistrationFloodBench(await runRegistrationFloodBench()));
}
