// Soak: minutes of mixed load (reads, posts, search, a trickle of logins) at half the measured maximum rate,
// sampling the server's RSS, open file descriptors and WAL size: no errors, memory and fds flat, WAL bounded.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { ALL_ROUTES } from '../src/resources/all-routes.ts';
import { createChatFixture } from './chat-fixture.ts';
import { startChild } from './server-process.ts';

export interface SoakSample {
  atSeconds: number;
  rssBytes: number;
  openFds: number;
  walBytes: number;
  /** No login was being hashed: RSS without scrypt's 128 MiB working buffer. */
  quiet: boolean;
}

export interface SoakResult {
  seconds: number;
  maxRequestsPerSecond: number;
  targetRequestsPerSecond: number;
  achievedRequestsPerSecond: number;
  requests: number;
  logins: number;
  errors: number;
  non2xx: number;
  p99Ms: number;
  eventLoopP99Ms: number;
  eventLoopMaxMs: number;
  mix: string[];
  samples: SoakSample[];
  /** Medians over the first and the last third of the samples; RSS only from samples taken with no login in flight. */
  rssFirstThird: number;
  rssLastThird: number;
  /** Highest RSS seen, hashes included. */
  rssMaxBytes: number;
  fdsFirstThird: number;
  fdsLastThird: number;
  walMaxBytes: number;
  dbBytes: number;
}

const CONNECTIONS = 10;
const SAMPLE_EVERY_MS = 1000;
const LOGINS_PER_SECOND = 2;

function sampleProcess(pid: number, walPath: string, startedAt: number, quiet: boolean): SoakSample {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const rssKib = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  let walBytes = 0;
  try {
    walBytes = statSync(walPath).size;
  } catch {
    walBytes = 0;
  }
  return { atSeconds: (Date.now() - startedAt) / 1000, rssBytes: rssKib * 1024, openFds: readdirSync(`/proc/${pid}/fd`).length, walBytes, quiet };
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

export async function runSoak(options: { seconds?: number } = {}): Promise<SoakResult> {
  const seconds = options.seconds ?? Number(process.env['SOAK_SECONDS'] ?? 180);
  const dir = mkdtempSync(join(tmpdir(), 'bench-soak-'));
  const dbPath = join(dir, 'chat.db');
  // SOAK_PROFILE_DIR=<dir>: the server writes a CPU profile there (bench/stalls.ts reads it for long tasks).
  const profileDir = process.env['SOAK_PROFILE_DIR'];
  const server = await startChild(new URL('./chat-server.ts', import.meta.url).pathname, { db: dbPath },
    profileDir ? ['--cpu-prof', '--cpu-prof-interval=500', `--cpu-prof-dir=${profileDir}`] : []);
  try {
    const fixture = await createChatFixture(server.url, { messages: 200 });
    const auth = fixture.headers;
    const chat = `/chats/${fixture.chatId}`;
    // Posted texts avoid the searched word, so the search answer stays the same size however long the soak runs.
    const requests: autocannon.Request[] = [
      { method: 'GET', path: chat, headers: auth },
      { method: 'GET', path: `${chat}/messages?limit=50`, headers: auth },
      { method: 'POST', path: `${chat}/messages`, headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ data: { text: 'soak message, posted under steady load' } }) },
      { method: 'GET', path: `${chat}/messages?limit=20&sort[id]=DESC`, headers: auth },
      { method: 'GET', path: `/users/${fixture.userId}`, headers: auth },
    ];
    if (ALL_ROUTES.some((route) => route.method === 'GET' && route.pattern === '/search')) requests.push({ method: 'GET', path: '/search?q=fox', headers: auth });
    const mix = requests.map((request) => `${request.method} ${request.path}`);

    const probe = await autocannon({ url: server.url, connections: CONNECTIONS, duration: 5, requests });
    const maxRequestsPerSecond = probe.requests.average;
    const target = Math.max(1, Math.floor(maxRequestsPerSecond / 2));

    await server.resetStats();
    const startedAt = Date.now();
    const pid = server.child.pid!;
    const walPath = `${dbPath}-wal`;
    // Logins one at a time, at most LOGINS_PER_SECOND: the sampler knows when a hash (and its 128 MiB) is running.
    let loginInFlight: Promise<void> | undefined;
    let logins = 0;
    let loginFailures = 0;
    const loginBody = JSON.stringify({ login: fixture.login, password: fixture.password });
    const logInOnce = async (): Promise<void> => {
      try {
        const res = await fetch(`${server.url}/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: loginBody });
        await res.arrayBuffer();
        if (res.status !== 201) loginFailures += 1;
      } catch {
        loginFailures += 1;
      }
      logins += 1;
      loginInFlight = undefined;
    };
    const loginTimer = setInterval(() => { loginInFlight ??= logInOnce(); }, 1000 / LOGINS_PER_SECOND);
    const samples: SoakSample[] = [sampleProcess(pid, walPath, startedAt, true)];
    const sampler = setInterval(() => samples.push(sampleProcess(pid, walPath, startedAt, loginInFlight === undefined)), SAMPLE_EVERY_MS);
    const mixed = await autocannon({ url: server.url, connections: CONNECTIONS, duration: seconds, overallRate: target, requests });
    clearInterval(loginTimer);
    clearInterval(sampler);
    await loginInFlight;
    const loop = await server.stats();

    const third = Math.max(1, Math.floor(samples.length / 3));
    const first = samples.slice(0, third);
    const last = samples.slice(-third);
    const quietRss = (part: SoakSample[]): number => median(part.filter((sample) => sample.quiet).map((sample) => sample.rssBytes));
    return {
      seconds,
      maxRequestsPerSecond,
      targetRequestsPerSecond: target,
      achievedRequestsPerSecond: mixed.requests.average,
      requests: mixed.requests.total,
      logins,
      errors: mixed.errors + mixed.timeouts + loginFailures,
      non2xx: mixed.non2xx,
      p99Ms: mixed.latency.p99,
      eventLoopP99Ms: loop.eventLoopP99Ms,
      eventLoopMaxMs: loop.eventLoopMaxMs,
      mix,
      samples,
      rssFirstThird: quietRss(first),
      rssLastThird: quietRss(last),
      rssMaxBytes: Math.max(...samples.map((sample) => sample.rssBytes)),
      fdsFirstThird: median(first.map((sample) => sample.openFds)),
      fdsLastThird: median(last.map((sample) => sample.openFds)),
      walMaxBytes: Math.max(...samples.map((sample) => sample.walBytes)),
      dbBytes: statSync(dbPath).size,
    };
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export function formatSoak(result: SoakResult): string {
  const mib = (bytes: number): string => (bytes / 2 ** 20).toFixed(1);
  const rssGrowth = result.rssLastThird / result.rssFirstThird;
  const flatMemory = rssGrowth < 1.1;
  const flatFds = result.fdsLastThird <= result.fdsFirstThird + 2;
  const every = Math.max(1, Math.ceil(result.samples.length / 12));
  return [
    `${result.seconds} s of mixed load over ${CONNECTIONS} connections, cycling through: ${result.mix.map((entry) => `\`${entry}\``).join(', ')}; `
      + `plus up to ${LOGINS_PER_SECOND} logins/s (scrypt N=2^17), one at a time, on another connection.`,
    `Maximum rate of the mix (5 s probe): ${result.maxRequestsPerSecond.toFixed(0)} req/s; soak target (half): ${result.targetRequestsPerSecond} req/s; achieved ${result.achievedRequestsPerSecond.toFixed(0)} req/s, p99 ${result.p99Ms} ms; `
      + `server event-loop delay p99 ${result.eventLoopP99Ms.toFixed(1)} ms, max ${result.eventLoopMaxMs.toFixed(0)} ms.`,
    '',
    `- Requests: ${result.requests} mixed + ${result.logins} logins; errors (failed logins included) **${result.errors}**, non-2xx **${result.non2xx}**.`,
    `- RSS, median of the samples in each third taken while no login was hashing (each hash briefly adds scrypt's 128 MiB; highest seen ${mib(result.rssMaxBytes)} MiB): `
      + `first third ${mib(result.rssFirstThird)} MiB, last third ${mib(result.rssLastThird)} MiB (x${rssGrowth.toFixed(2)}): ${flatMemory ? '**flat**' : '**GROWING**'}.`,
    `- Open file descriptors (median): first third ${result.fdsFirstThird}, last third ${result.fdsLastThird}: ${flatFds ? '**flat**' : '**GROWING**'}.`,
    `- WAL: at most ${mib(result.walMaxBytes)} MiB (SQLite checkpoints at 1000 pages and then reuses the file); database file ${mib(result.dbBytes)} MiB at the end.`,
    '',
    '| t (s) | RSS MiB | login hashing | open fds | WAL MiB |',
    '|---:|---:|---|---:|---:|',
    ...result.samples.filter((_, index) => index % every === 0 || index === result.samples.length - 1)
      .map((sample) => `| ${sample.atSeconds.toFixed(0)} | ${mib(sample.rssBytes)} | ${sample.quiet ? '' : 'yes'} | ${sample.openFds} | ${mib(sample.walBytes)} |`),
  ].join('\n');
}

const script = process.argv[1];
if (script !== undefined && import.meta.url === pathToFileURL(script).href) {
  console.log(formatSoak(await runSoak()));
}
