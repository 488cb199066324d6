// What recording metrics costs: GET /chats/{id}/messages?limit=50 with --metrics-port set against the same
// server without it, on copies of one seeded database, taking turns A B B A (compare in messages.bench.ts).
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ServerMetrics } from '../src/metrics/server-metrics.ts';
import type { LoadResult } from './load.ts';
import { compare, seed, type MessagesBenchRow } from './messages.bench.ts';
import { startChild, type ServerChild } from './server-process.ts';

const CONNECTIONS = 10;

export async function runMetricsBench(options: { durationSeconds?: number } = {}): Promise<MessagesBenchRow> {
  const duration = options.durationSeconds ?? 5;
  const dir = mkdtempSync(join(tmpdir(), 'bench-metrics-'));
  const children: ServerChild[] = [];
  try {
    const seeded = await seed(join(dir, 'seed.db'));
    for (const copy of ['on.db', 'off.db']) copyFileSync(join(dir, 'seed.db'), join(dir, copy));
    const start = async (file: string, extra: Record<string, unknown>): Promise<ServerChild> => {
      const child = await startChild(new URL('./chat-server.ts', import.meta.url).pathname, { db: join(dir, file), scryptN: 1024, ...extra });
      children.push(child);
      return child;
    };
    const on = await start('on.db', { metricsPort: 0 });
    const off = await start('off.db', {});
    const path = `/chats/${seeded.chatId}/messages?limit=50`;
    const get = { headers: { authorization: `Bearer ${seeded.token}` }, connections: CONNECTIONS };
    // "ours" is the server with metrics, "baseline" the same server without: the ratio is what metrics leave.
    return await compare('GET /chats/{id}/messages?limit=50, metrics on / off', `${on.url}${path}`, `${off.url}${path}`, get, duration);
  } finally {
    await Promise.all(children.filter((child) => child.child.exitCode === null).map((child) => child.stop()));
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Microseconds to record one request (counter and histogram), in this process: the floor of the overhead. */
export function measureRecordingMicros(requests = 500_000): number {
  const metrics = new ServerMetrics();
  const routes = ['/chats/:chatId/messages', '/chats', '/users/:userId', '/session'];
  const started = performance.now();
  for (let i = 0; i < requests; i++) metrics.observeRequest({ method: 'GET', route: routes[i % 4]!, status: '200', durationSeconds: 0.003 });
  return ((performance.now() - started) * 1000) / requests;
}

export function formatMetricsBench(row: MessagesBenchRow, recordingMicros = measureRecordingMicros()): string {
  const latency = (load: LoadResult) => `${load.p50Ms} / ${load.p99Ms}`;
  const overhead = (1 - row.ratio) * 100;
  return [
    `${CONNECTIONS} connections, loopback, the page of 50 messages; metrics on means --metrics-port set (every request counted and timed, the event-loop monitor running), no scrape during the run.`,
    '',
    '| scenario | metrics on req/s | metrics off req/s | ratio | on p50 / p99 ms | off p50 / p99 ms |',
    '|---|---:|---:|---:|---:|---:|',
    `| ${row.scenario} | ${row.ours.requestsPerSecond.toFixed(0)} | ${row.baseline.requestsPerSecond.toFixed(0)} | ${row.ratio.toFixed(3)} | ${latency(row.ours)} | ${latency(row.baseline)} |`,
    '',
    `Overhead: ${overhead.toFixed(1)} % of throughput (goal: at most 3 %). Recording one request takes ${recordingMicros.toFixed(2)} µs in-process,`
      + ` ${((recordingMicros / (1e6 / row.baseline.requestsPerSecond)) * 100).toFixed(2)} % of the time one request takes at the measured rate: a larger gap is load on the machine.`,
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) {
  console.log(formatMetricsBench(await runMetricsBench({ durationSeconds: Number(process.env['BENCH_SECONDS'] ?? 10) })));
}
