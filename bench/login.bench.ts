// While logins run flat out (scrypt N=2^17), an authenticated GET keeps its p99 within 2x and the
// server's event-loop delay p99 stays under 20 ms: hashing runs off the event loop, bounded.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { runLoad, type LoadResult } from './load.ts';
import { startChild } from './server-process.ts';

export interface LoginBenchResult {
  quiet: LoadResult;
  underLogins: LoadResult;
  logins: LoadResult;
  p99Ratio: number;
  eventLoopP99QuietMs: number;
  eventLoopP99UnderLoginsMs: number;
  peakRssBytes: number;
}

async function json(url: string, method: string, body: unknown, token?: string): Promise<any> {
  const res = await fetch(url, { method, headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) });
  return res.json();
}

export async function runLoginBench(options: { durationSeconds?: number } = {}): Promise<LoginBenchResult> {
  const duration = options.durationSeconds ?? 8;
  const dir = mkdtempSync(join(tmpdir(), 'bench-login-'));
  const server = await startChild(new URL('./chat-server.ts', import.meta.url).pathname, { db: join(dir, 'chat.db'), loginMaxFailures: 1_000_000 });
  try {
    const credentials = { login: 'bencher', password: 'a long benchmark password' };
    const user = await json(`${server.url}/users`, 'POST', credentials);
    const { token } = await json(`${server.url}/session`, 'POST', credentials);
    const read = { url: `${server.url}/users/${user.id}`, headers: { authorization: `Bearer ${token}` }, connections: 10, durationSeconds: duration };
    await runLoad({ ...read, durationSeconds: 1 });
    await server.resetStats();
    const quiet = await runLoad(read);
    const quietStats = await server.stats();
    await server.resetStats();
    const [underLogins, logins] = await Promise.all([
      runLoad(read),
      runLoad({ url: `${server.url}/session`, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(credentials), connections: 16, durationSeconds: duration }),
    ]);
    const loadedStats = await server.stats();
    return {
      quiet,
      underLogins,
      logins,
      p99Ratio: underLogins.p99Ms / Math.max(quiet.p99Ms, 1),
      eventLoopP99QuietMs: quietStats.eventLoopP99Ms,
      eventLoopP99UnderLoginsMs: loadedStats.eventLoopP99Ms,
      peakRssBytes: loadedStats.maxRssBytes,
    };
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export function formatLoginBench(result: LoginBenchResult): string {
  const row = (name: string, load: LoadResult) => `| ${name} | ${load.requestsPerSecond.toFixed(0)} | ${load.p50Ms} | ${load.p99Ms} | ${load.errors + load.non2xx} |`;
  return [
    '| scenario | req/s | p50 ms | p99 ms | errors |',
    '|---|---|---|---|---|',
    row('authenticated GET, quiet', result.quiet),
    row('authenticated GET, during logins', result.underLogins),
    row('logins (scrypt N=2^17), flat out', result.logins),
    '',
    `GET p99 during logins / quiet: **${result.p99Ratio.toFixed(2)}x** (target at most 2x; p99 floored at 1 ms).`,
    `Event-loop delay p99: quiet ${result.eventLoopP99QuietMs.toFixed(1)} ms, during logins **${result.eventLoopP99UnderLoginsMs.toFixed(1)} ms** (target under 20 ms).`,
    `Peak RSS of the server: ${(result.peakRssBytes / 2 ** 20).toFixed(0)} MiB.`,
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) {
  console.log(formatLoginBench(await runLoginBench()));
}
