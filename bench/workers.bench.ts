// --workers 2 against 1 on this machine (docs/protocol.md §12.1): a page of 50 messages and a POST, through the real
// executable path (src/main.ts, node:cluster), on copies of one seeded database, the load generator included.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createChatFixture } from './chat-fixture.ts';
import { runLoad, type LoadResult } from './load.ts';
import { runnable } from './server-process.ts';
import { SERVER_NODE_FLAGS } from '../src/node-flags.ts';

const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));

export interface Running { url: string; child: ChildProcess }

/** src/main.ts (compiled) on `db` with `workers` processes, further server flags and node flags; answers when it listens. */
export async function startMain(db: string, workers: number, extra: readonly string[] = [], nodeFlags: readonly string[] = []): Promise<Running> {
  const main = runnable(MAIN);
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, ...nodeFlags, ...main.execArgv, main.file, '--db', db, '--port', '0', '--host', '127.0.0.1', '--quiet',
    '--workers', String(workers), '--scrypt-n', '1024', '--write-rate', '0', '--register-rate', '0', ...extra], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, NODE_V8_COVERAGE: '' } });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`server exited ${code}: ${out}`)));
  });
  child.stdout!.resume();
  return { url, child };
}

export async function stop(running: Running): Promise<void> {
  running.child.kill('SIGTERM');
  await once(running.child, 'exit');
}

export interface WorkersBenchRow {
  scenario: string;
  one: LoadResult;
  two: LoadResult;
}

export async function runWorkersBench(dir: string, options: { durationSeconds: number }): Promise<WorkersBenchRow[]> {
  const seed = join(dir, 'workers-seed.db');
  const seeder = await startMain(seed, 1);
  const fixture = await createChatFixture(seeder.url, { messages: 1000, parallel: 50 });
  await stop(seeder);
  let copies = 0;
  const measure = async (workers: number, load: (url: string) => Parameters<typeof runLoad>[0]): Promise<LoadResult> => {
    const db = join(dir, `workers-${copies += 1}.db`);
    copyFileSync(seed, db);
    const running = await startMain(db, workers);
    try {
      await runLoad({ ...load(running.url), durationSeconds: 1 });
      return await runLoad({ ...load(running.url), durationSeconds: options.durationSeconds });
    } finally {
      await stop(running);
    }
  };
  const page = (url: string) => ({ url: `${url}/chats/${fixture.chatId}/messages?limit=50`, headers: fixture.headers, connections: 20 });
  const post = (url: string) => ({
    url: `${url}/chats/${fixture.chatId}/messages`, method: 'POST' as const, connections: 20,
    headers: { ...fixture.headers, 'content-type': 'application/json' }, body: JSON.stringify({ data: { text: 'posted by a worker' } }),
  });
  const rows: WorkersBenchRow[] = [];
  for (const [scenario, load] of [['GET a page of 50 messages', page], ['POST a message', post]] as const) {
    // 1, 2, 1, 2: alternating, and the better of each kind, so neither kind alone meets a busy moment.
    const ones = [await measure(1, load)];
    const twos = [await measure(2, load)];
    ones.push(await measure(1, load));
    twos.push(await measure(2, load));
    const best = (results: LoadResult[]): LoadResult => results.reduce((a, b) => (a.requestsPerSecond >= b.requestsPerSecond ? a : b));
    rows.push({ scenario, one: best(ones), two: best(twos) });
  }
  return rows;
}

export function formatWorkersBench(rows: WorkersBenchRow[]): string {
  return [
    '20 connections, on copies of one database (1,000 messages), autocannon on the same 2 cores; best of two alternating runs each.',
    '',
    '| scenario | 1 worker req/s | p99 ms | 2 workers req/s | p99 ms | 2 / 1 |',
    '|---|---:|---:|---:|---:|---:|',
    ...rows.map((row) => `| ${row.scenario} | ${row.one.requestsPerSecond.toFixed(0)} | ${row.one.p99Ms} | ${row.two.requestsPerSecond.toFixed(0)} | ${row.two.p99Ms} | **${(row.two.requestsPerSecond / row.one.requestsPerSecond).toFixed(2)}x** |`),
  ].join('\n');
}
