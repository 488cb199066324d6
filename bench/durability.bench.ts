// What durability costs: POST of a message at 100 connections under synchronous=FULL and NORMAL, each with
// group commit on (as shipped) and off (every write commits alone), all measured in the same run.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createChatFixture } from './chat-fixture.ts';
import { runLoad, type LoadResult } from './load.ts';
import { startChild } from './server-process.ts';

export interface DurabilityRow {
  synchronous: 'FULL' | 'NORMAL';
  groupCommit: boolean;
  load: LoadResult;
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

async function measureVariant(synchronous: 'FULL' | 'NORMAL', groupCommit: boolean, durationSeconds: number): Promise<DurabilityRow> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-durability-'));
  const server = await startChild(new URL('./chat-server.ts', import.meta.url).pathname, { db: join(dir, 'chat.db'), scryptN: 1024, synchronous, groupCommit });
  try {
    const fixture = await createChatFixture(server.url);
    const post = {
      url: `${server.url}/chats/${fixture.chatId}/messages`,
      method: 'POST' as const,
      headers: { ...fixture.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ data: { text: 'a message posted under load' } }),
      connections: CONNECTIONS,
    };
    await runLoad({ ...post, durationSeconds: 1 });
    const load = await runLoad({ ...post, durationSeconds });
    assert.equal(load.errors + load.non2xx, 0, `${synchronous} group commit ${groupCommit}: ${load.errors} errors, ${load.non2xx} non-2xx`);
    return { synchronous, groupCommit, load, peakRssBytes: (await server.stats()).maxRssBytes };
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function runDurabilityBench(options: { durationSeconds?: number } = {}): Promise<DurabilityBenchResult> {
  const duration = options.durationSeconds ?? 5;
  const rows: DurabilityRow[] = [];
  // Each pair back to back, so drift in the machine's load touches FULL and NORMAL alike.
  for (const groupCommit of [false, true]) {
    for (const synchronous of ['NORMAL', 'FULL'] as const) rows.push(await measureVariant(synchronous, groupCommit, duration));
  }
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
    `POST /chats/{id}/messages, ${result.connections} connections, loopback, WAL journal.`,
    '',
    '| synchronous | group commit | req/s | p50 ms | p99 ms | peak RSS MiB |',
    '|---|---|---:|---:|---:|---:|',
    ...result.rows.map(({ synchronous, groupCommit, load, peakRssBytes }) =>
      `| ${synchronous} | ${groupCommit ? 'on (shipped)' : 'off'} | ${load.requestsPerSecond.toFixed(0)} | ${load.p50Ms} | ${load.p99Ms} | ${mib(peakRssBytes)} |`),
    '',
    `FULL / NORMAL, every write committing alone (before group commit): **${result.ratioBefore.toFixed(2)}x**.`,
    `FULL / NORMAL with group commit (as shipped): **${result.ratioAfter.toFixed(2)}x** (target at least 0.8x).`,
  ].join('\n');
}

const script = process.argv[1];
if (script !== undefined && import.meta.url === pathToFileURL(script).href) {
  console.log(formatDurabilityBench(await runDurabilityBench()));
}
