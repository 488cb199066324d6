// What durability costs: POST of a message at 100 connections under synchronous=FULL and NORMAL, each with
// group commit on (as shipped) and off (every write commits alone), all measured in the same run.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createChatFixture } from './chat-fixture.ts';
import { runLoad, type LoadOptions, type LoadResult } from './load.ts';
import { startChild, type ServerChild } from './server-process.ts';

export interface DurabilityRow {
  synchronous: 'FULL' | 'NORMAL';
  groupCommit: boolean;
  /** Means over the turns. */
  load: LoadResult;
  /** req/s of each turn. */
  turns: number[];
  peakRssBytes: number;
}

export interface DurabilityBenchResult {
  connections: number;
  rows: DurabilityRow[];
  /** FULL / NORMAL req/s with every write committing alone: the cost of durability before group commit. */
  ratioBefore: number;
  /** FULL / NORMAL req/s with group commit: the issue asks for at least 0.8. */
  ratioAfter: number;
}

const CONNECTIONS = 100;

interface Variant {
  synchronous: 'FULL' | 'NORMAL';
  groupCommit: boolean;
}

interface RunningVariant extends Variant {
  server: ServerChild;
  post: LoadOptions;
  dir: string;
}

async function startVariant(variant: Variant): Promise<RunningVariant> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-durability-'));
  const server = await startChild(new URL('./chat-server.ts', import.meta.url).pathname, { db: join(dir, 'chat.db'), scryptN: 1024, ...variant });
  const fixture = await createChatFixture(server.url);
  const post: LoadOptions = {
    url: `${server.url}/chats/${fixture.chatId}/messages`,
    method: 'POST',
    headers: { ...fixture.headers, 'content-type': 'application/json' },
    body: JSON.stringify({ data: { text: 'a message posted under load' } }),
    connections: CONNECTIONS,
  };
  await runLoad({ ...post, durationSeconds: 1 });
  return { ...variant, server, post, dir };
}

async function stopVariant(variant: RunningVariant): Promise<void> {
  await variant.server.stop();
  rmSync(variant.dir, { recursive: true, force: true });
}

/** Two turns of each, NORMAL-FULL-FULL-NORMAL, averaged: a slow spell on a shared machine (fsync latency moves) touches both. */
async function measurePair(groupCommit: boolean, durationSeconds: number): Promise<DurabilityRow[]> {
  const normal = await startVariant({ synchronous: 'NORMAL', groupCommit });
  const full = await startVariant({ synchronous: 'FULL', groupCommit });
  try {
    const loads = new Map<RunningVariant, LoadResult[]>([[normal, []], [full, []]]);
    for (const variant of [normal, full, full, normal]) {
      const load = await runLoad({ ...variant.post, durationSeconds });
      assert.equal(load.errors + load.non2xx, 0, `${variant.synchronous} group commit ${groupCommit}: ${load.errors} errors, ${load.non2xx} non-2xx`);
      loads.get(variant)!.push(load);
    }
    const rows: DurabilityRow[] = [];
    for (const [variant, runs] of loads) {
      const mean = (pick: (load: LoadResult) => number): number => runs.reduce((sum, load) => sum + pick(load), 0) / runs.length;
      rows.push({
        synchronous: variant.synchronous,
        groupCommit,
        load: { requestsPerSecond: mean((l) => l.requestsPerSecond), p50Ms: mean((l) => l.p50Ms), p99Ms: mean((l) => l.p99Ms), exactP50Ms: mean((l) => l.exactP50Ms), exactP99Ms: mean((l) => l.exactP99Ms), errors: 0, non2xx: 0, total: mean((l) => l.total) * runs.length },
        turns: runs.map((load) => load.requestsPerSecond),
        peakRssBytes: (await variant.server.stats()).maxRssBytes,
      });
    }
    return rows;
  } finally {
    await Promise.all([normal, full].map(stopVariant));
  }
}

export async function runDurabilityBench(options: { durationSeconds?: number } = {}): Promise<DurabilityBenchResult> {
  const duration = options.durationSeconds ?? 5;
  const rows = [...await measurePair(false, duration), ...await measurePair(true, duration)];
  const rate = (synchronous: string, groupCommit: boolean): number =>
    rows.find((row) => row.synchronous === synchronous && row.groupCommit === groupCommit)!.load.requestsPerSecond;
  return {
    connections: CONNECTIONS,
    rows,
    ratioBefore: rate('FULL', false) / rate('NORMAL', false),
    ratioAfter: rate('FULL', true) / rate('NORMAL', true),
  };
}

export function formatDurabilityBench(result: DurabilityBenchResult): string {
  const mib = (bytes: number): string => (bytes / 2 ** 20).toFixed(0);
  return [
    `POST /chats/{id}/messages, ${result.connections} connections, loopback, WAL journal; each server measured in two turns `
      + '(NORMAL, FULL, FULL, NORMAL) and averaged.',
    '',
    '| synchronous | group commit | req/s (mean) | req/s per turn | p50 ms | p99 ms | peak RSS MiB |',
    '|---|---|---:|---:|---:|---:|---:|',
    ...result.rows.map(({ synchronous, groupCommit, load, turns, peakRssBytes }) =>
      `| ${synchronous} | ${groupCommit ? 'on (shipped)' : 'off'} | ${load.requestsPerSecond.toFixed(0)} | ${turns.map((rate) => rate.toFixed(0)).join(', ')} `
      + `| ${load.p50Ms.toFixed(1)} | ${load.p99Ms.toFixed(1)} | ${mib(peakRssBytes)} |`),
    '',
    `FULL / NORMAL, every write committing alone (before group commit): **${result.ratioBefore.toFixed(2)}x**.`,
    `FULL / NORMAL with group commit (as shipped): **${result.ratioAfter.toFixed(2)}x** (target at least 0.8x).`,
  ].join('\n');
}

const script = process.argv[1];
if (script !== undefined && import.meta.url === pathToFileURL(script).href) {
  console.log(formatDurabilityBench(await runDurabilityBench()));
}
