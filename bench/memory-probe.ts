// What the server's memory is made of, idle and under load: RSS, V8's heap and external memory when it has just
// started, after 15 s idle (V8's memory reducer gives back the young generation a start-up grew), and after a few
// seconds of each single-request scenario, with the server's CPU per request (`make bench`, or on its own:
// `node --import tsx bench/memory-probe.ts [seconds]`; NODE_FLAGS=... for the server's node).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createChatFixture, fixtureRequests } from './chat-fixture.ts';
import { runLoad } from './load.ts';
import { startChild, type ChildStats, type HeapSpace } from './server-process.ts';

export interface MemoryRow {
  label: string;
  stats: ChildStats;
  spaces: HeapSpace[];
  requestsPerSecond?: number;
  cpuMicrosPerRequest?: number;
}

const MIB = 1048576;
const IDLE_SECONDS = 15;
/** The goals are in MB (10^6 bytes). */
const GOALS = { idle: 60e6, load: 150e6 };

export async function runMemoryProbe(options: { seconds: number; flags?: string[] }): Promise<MemoryRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-memory-'));
  try {
    const db = join(dir, 'chat.db');
    const module = new URL('./chat-server.ts', import.meta.url).pathname;
    const seeder = await startChild(module, { db });
    const fixture = await createChatFixture(seeder.url, { messages: 1000, parallel: 50 });
    await seeder.stop();
    const server = await startChild(module, { db }, options.flags ?? []);
    const rows: MemoryRow[] = [];
    const record = async (label: string, extra: Partial<MemoryRow> = {}): Promise<void> => {
      rows.push({ label, stats: await server.stats(), spaces: await server.heapSpaces(), ...extra });
    };
    try {
      await record('just started');
      await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000));
      await record(`idle ${IDLE_SECONDS} s`);
      for (const [name, request] of Object.entries(fixtureRequests(server.url, fixture))) {
        const before = (await server.stats()).cpuMicros;
        const result = await runLoad({ ...request, durationSeconds: options.seconds, connections: 10 });
        const after = (await server.stats()).cpuMicros;
        await record(`after ${options.seconds} s of ${name}`, { requestsPerSecond: result.requestsPerSecond, cpuMicrosPerRequest: (after - before) / Math.max(1, result.total) });
      }
    } finally {
      await server.stop();
    }
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function formatMemoryProbe(rows: MemoryRow[]): string {
  const mib = (bytes: number): string => (bytes / MIB).toFixed(1);
  const space = (row: MemoryRow, name: string): string => {
    const found = row.spaces.find((candidate) => candidate.name === name);
    return found ? `${mib(found.size)} / ${mib(found.used)}` : '-';
  };
  const idle = rows.find((row) => row.label.startsWith('idle'))!;
  const loaded = rows.filter((row) => row.requestsPerSecond !== undefined);
  const peak = Math.max(...loaded.map((row) => row.stats.rssBytes));
  return [
    'Our server alone (compiled, as `node lib/main.js` runs), on a chat of 1000 messages; each load: 10 connections.',
    '',
    '| moment | RSS MiB | V8 heap MiB | new space MiB (size / used) | old space MiB (size / used) | external MiB | req/s | CPU µs/req |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map((row) => `| ${row.label} | ${mib(row.stats.rssBytes)} | ${mib(row.stats.heapTotalBytes)} | ${space(row, 'new_space')} | ${space(row, 'old_space')} | ${mib(row.stats.externalBytes)} | `
      + `${row.requestsPerSecond?.toFixed(0) ?? '-'} | ${row.cpuMicrosPerRequest?.toFixed(0) ?? '-'} |`),
    '',
    `Idle RSS after ${IDLE_SECONDS} s: **${(idle.stats.rssBytes / 1e6).toFixed(1)} MB** (goal ≤ 60 MB: ${idle.stats.rssBytes <= GOALS.idle ? 'met' : 'NOT met'}). `
      + `Largest RSS after a load: **${(peak / 1e6).toFixed(1)} MB** (goal ≤ 150 MB: ${peak <= GOALS.load ? 'met' : 'NOT met'}); the soak below gives RSS over minutes of mixed load.`,
  ].join('\n');
}

const script = process.argv[1];
if (script !== undefined && import.meta.url === pathToFileURL(script).href) {
  const flags = (process.env['NODE_FLAGS'] ?? '').split(' ').filter(Boolean);
  console.log(formatMemoryProbe(await runMemoryProbe({ seconds: Number(process.argv[2] ?? 4), flags })));
}
