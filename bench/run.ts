// `make bench`: runs every benchmark and writes bench/RESULTS.md; each figure stands next to a baseline
// measured in the same run, so the ratios mean something on any machine.
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { ALL_ROUTES } from '../src/resources/all-routes.ts';
import { recordAnswer, type RecordedAnswer } from './baseline-server.ts';
import { createChatFixture, type ChatFixture } from './chat-fixture.ts';
import { formatDurabilityBench, runDurabilityBench } from './durability.bench.ts';
import { runLoad, type LoadOptions, type LoadResult } from './load.ts';
import { formatLoginBench, runLoginBench } from './login.bench.ts';
import { runBothLoginFairnessBenches } from './login-fairness.bench.ts';
import { formatPeersBench, runPeersBench } from './peers.bench.ts';
import { formatRegistrationFloodBench, runRegistrationFloodBench } from './registration-flood.bench.ts';
import { makePng } from './png.ts';
import { startChild } from './server-process.ts';
import { formatSoak, runSoak } from './soak.bench.ts';
import { formatPushBench, PUSH_BENCH_TITLE, runPushBench } from './push.bench.ts';

const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 5);
const CONNECTIONS = 10;
/** Logins take ~0.1-0.3 s of CPU each: a few connections keep the hashing busy without a long queue. */
const LOGIN_CONNECTIONS = 4;
const CHAT_SERVER = new URL('./chat-server.ts', import.meta.url).pathname;
const BYTES_BASELINE = new URL('./baseline-server.ts', import.meta.url).pathname;
const WORK_BASELINE = new URL('./messages-baseline.ts', import.meta.url).pathname;

interface Measured {
  load: LoadResult;
  peakRssBytes: number;
}

interface ScenarioRow {
  scenario: string;
  baselineKind: string;
  ours?: Measured;
  baseline?: Measured;
  note?: string;
}

const hasRoute = (method: string, pattern: string): boolean => ALL_ROUTES.some((route) => route.method === method && route.pattern === pattern);

/**
 * Starts a child server, warms it (for a second, or with `warmupAmount` requests for slow ones such as logins,
 * whose queue would still be draining when the timed run starts), measures, and reports its peak RSS.
 */
async function measure(module: string, options: Record<string, unknown>, load: (url: string) => Omit<LoadOptions, 'durationSeconds'>, warmupAmount?: number): Promise<Measured> {
  const server = await startChild(module, options);
  try {
    const config = load(server.url);
    await runLoad(warmupAmount ? { ...config, amount: warmupAmount } : { ...config, durationSeconds: 1 });
    const result = await runLoad({ ...config, durationSeconds: SECONDS });
    return { load: result, peakRssBytes: (await server.stats()).maxRssBytes };
  } finally {
    await server.stop();
  }
}

function multipartAvatar(): { contentType: string; body: Buffer } {
  const boundary = 'benchBoundary9f3a';
  const field = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="avatar"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`),
    makePng(64, 64, 42),
    Buffer.from(`\r\n${field('x', '0')}${field('y', '0')}${field('width', '32')}${field('height', '32')}--${boundary}--\r\n`),
  ]);
  return { contentType: `multipart/form-data; boundary=${boundary}`, body };
}

async function runScenarios(dir: string): Promise<ScenarioRow[]> {
  // One seeded database (a user, a session, a chat of 1000 messages); every server below runs on a copy of it.
  const seedPath = join(dir, 'seed.db');
  const seeder = await startChild(CHAT_SERVER, { db: seedPath });
  let fixture: ChatFixture;
  const recorded: Record<string, RecordedAnswer> = {};
  const avatar = multipartAvatar();
  const avatarRoute = hasRoute('POST', '/users/:userId/avatar');
  const searchRoute = hasRoute('GET', '/search');
  try {
    fixture = await createChatFixture(seeder.url, { messages: 1000, parallel: 50 });
    const auth = { headers: fixture.headers };
    recorded['health'] = await recordAnswer(await fetch(`${seeder.url}/health`));
    recorded['chat'] = await recordAnswer(await fetch(`${seeder.url}/chats/${fixture.chatId}`, auth));
    recorded['login'] = await recordAnswer(await fetch(`${seeder.url}/session`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ login: fixture.login, password: fixture.password }),
    }));
    if (searchRoute) recorded['search'] = await recordAnswer(await fetch(`${seeder.url}/search?q=fox`, auth));
    if (avatarRoute) {
      recorded['avatar'] = await recordAnswer(await fetch(`${seeder.url}/users/${fixture.userId}/avatar`, {
        method: 'POST', headers: { ...fixture.headers, 'content-type': avatar.contentType }, body: avatar.body,
      }));
    }
    for (const [name, answer] of Object.entries(recorded)) if (answer.status >= 300) throw new Error(`seeding ${name}: ${answer.status}`);
  } finally {
    await seeder.stop();
  }
  let copies = 0;
  const copy = (): string => {
    const path = join(dir, `copy-${copies += 1}.db`);
    copyFileSync(seedPath, path);
    return path;
  };
  const ours = (load: (url: string) => Omit<LoadOptions, 'durationSeconds'>): Promise<Measured> => measure(CHAT_SERVER, { db: copy() }, load);
  const sameBytes = (answer: RecordedAnswer, load: (url: string) => Omit<LoadOptions, 'durationSeconds'>): Promise<Measured> =>
    measure(BYTES_BASELINE, { answers: { '/': answer } }, load);
  const get = (path: string, headers: Record<string, string> = {}) => (url: string) => ({ url: `${url}${path}`, headers, connections: CONNECTIONS });
  const post = (path: string, headers: Record<string, string>, body: string | Buffer, connections = CONNECTIONS) =>
    (url: string) => ({ url: `${url}${path}`, method: 'POST' as const, headers, body, connections });

  const rows: ScenarioRow[] = [];
  const chatPath = `/chats/${fixture.chatId}`;
  rows.push({ scenario: 'GET /health', baselineKind: 'bare node:http, same bytes',
    ours: await ours(get('/health')), baseline: await sameBytes(recorded['health']!, get('/health')) });
  rows.push({ scenario: 'GET /chats/{id} (authenticated)', baselineKind: 'bare node:http, same bytes',
    ours: await ours(get(chatPath, fixture.headers)), baseline: await sameBytes(recorded['chat']!, get(chatPath, fixture.headers)) });

  const page = get(`${chatPath}/messages?limit=50`, fixture.headers);
  const message = post(`${chatPath}/messages`, { ...fixture.headers, 'content-type': 'application/json' }, JSON.stringify({ data: { text: 'a message posted under load' } }));
  rows.push({ scenario: 'GET /chats/{id}/messages?limit=50 (of 1000)', baselineKind: 'bare node:http + SQLite, same work',
    ours: await ours(page), baseline: await measure(WORK_BASELINE, { db: copy() }, page) });
  rows.push({ scenario: 'POST /chats/{id}/messages', baselineKind: 'bare node:http + SQLite, same work, one commit per insert',
    ours: await ours(message), baseline: await measure(WORK_BASELINE, { db: copy() }, message) });

  const credentials = JSON.stringify({ login: fixture.login, password: fixture.password });
  const login = post('/session', { 'content-type': 'application/json' }, credentials, LOGIN_CONNECTIONS);
  rows.push({ scenario: 'POST /session (login, scrypt N=2^17)', baselineKind: 'bare node:http, same scrypt (unbounded), same bytes',
    // Every pending login counts as a failure until its hash is done, so concurrent logins need a higher limit.
    ours: await measure(CHAT_SERVER, { db: copy(), loginMaxFailures: 1_000_000 }, login, LOGIN_CONNECTIONS),
    baseline: await measure(BYTES_BASELINE, { answers: { '/': recorded['login']! }, scrypt: { n: 2 ** 17 } }, login, LOGIN_CONNECTIONS) });

  const avatarPath = `/users/${fixture.userId}/avatar`;
  if (avatarRoute) {
    const upload = post(avatarPath, { ...fixture.headers, 'content-type': avatar.contentType }, avatar.body);
    rows.push({ scenario: `POST /users/{id}/avatar (multipart, ${avatar.body.length} B PNG)`, baselineKind: 'bare node:http, reads the body, same bytes',
      ours: await ours(upload), baseline: await sameBytes(recorded['avatar']!, upload) });
  } else {
    rows.push({ scenario: 'POST /users/{id}/avatar', baselineKind: '-', note: 'not available yet (no such route)' });
  }
  if (searchRoute) {
    const search = get('/search?q=fox', fixture.headers);
    rows.push({ scenario: 'GET /search?q=fox', baselineKind: 'bare node:http, same bytes', ours: await ours(search), baseline: await sameBytes(recorded['search']!, search) });
  } else {
    rows.push({ scenario: 'GET /search', baselineKind: '-', note: 'not available yet (no such route)' });
  }
  return rows;
}

function formatScenarios(rows: ScenarioRow[]): string {
  const mib = (bytes: number): string => (bytes / 2 ** 20).toFixed(0);
  const cells = (measured: Measured | undefined): string => (measured
    ? `${measured.load.requestsPerSecond.toFixed(0)} | ${measured.load.p50Ms} / ${measured.load.p99Ms} | ${mib(measured.peakRssBytes)}`
    : '- | - | -');
  const errors = (row: ScenarioRow): number => [row.ours, row.baseline].reduce((sum, m) => sum + (m ? m.load.errors + m.load.non2xx : 0), 0);
  return [
    `${CONNECTIONS} connections (${LOGIN_CONNECTIONS} for logins), ${SECONDS} s each after a 1 s warm-up, every server in its own child process on a copy of one seeded database (synchronous=FULL).`,
    '',
    '| scenario | ours req/s | ours p50 / p99 ms | ours peak RSS MiB | baseline req/s | baseline p50 / p99 ms | baseline peak RSS MiB | ours / baseline | errors | baseline |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---|',
    ...rows.map((row) => {
      if (row.note) return `| ${row.scenario} | ${row.note} | | | | | | | | |`;
      const ratio = row.ours!.load.requestsPerSecond / row.baseline!.load.requestsPerSecond;
      return `| ${row.scenario} | ${cells(row.ours)} | ${cells(row.baseline)} | **${ratio.toFixed(2)}x** | ${errors(row)} | ${row.baselineKind} |`;
    }),
  ].join('\n');
}

function machine(): string {
  const memory = new Database(':memory:');
  const sqlite = memory.prepare('SELECT sqlite_version()').pluck().get() as string;
  memory.close();
  return [
    `- Date: ${new Date().toISOString()}`,
    `- CPU: ${cpus()[0]?.model ?? 'unknown'}, ${availableParallelism()} cores`,
    `- Memory: ${(totalmem() / 2 ** 30).toFixed(1)} GiB`,
    `- Node ${process.version}, SQLite ${sqlite} (better-sqlite3), ${process.platform} ${process.arch}`,
    '- Load generator: autocannon on the same machine, loopback only (it competes with the server for the cores).',
  ].join('\n');
}

/** Runs one section; a failing or missing benchmark is written down instead of losing the whole report. */
async function section(title: string, run: () => Promise<string>): Promise<string> {
  const started = performance.now();
  process.stdout.write(`bench: ${title}...\n`);
  let body: string;
  try {
    body = await run();
  } catch (error) {
    body = `**Failed:** ${(error as Error).message}`;
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(0);
  process.stdout.write(`bench: ${title} done in ${seconds} s\n`);
  return `## ${title}\n\n${body}\n\n_(${seconds} s)_\n`;
}

/** An optional benchmark module: its figures if it exists, else a note saying it is missing. */
async function optional<T>(module: string, run: (imported: T) => Promise<string>): Promise<string> {
  let imported: T;
  try {
    imported = (await import(module)) as T;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') throw error;
    return `Missing: \`bench/${module.slice(2)}\` does not exist yet.`;
  }
  return run(imported);
}

const started = performance.now();
const dir = mkdtempSync(join(tmpdir(), 'bench-run-'));
const sections: string[] = [];
try {
  sections.push(await section('Scenarios against baselines', async () => formatScenarios(await runScenarios(dir))));
  sections.push(await section('Peers: fastify, bare node:http + SQLite, prebuilt bytes (same file, same work, same bytes)', async () =>
    formatPeersBench(await runPeersBench({ rounds: 5, seconds: Math.min(SECONDS, 3) }), 5, Math.min(SECONDS, 3))));
  sections.push(await section('Memory: idle and under load', async () => {
    const { formatMemoryProbe, runMemoryProbe } = await import('./memory-probe.ts');
    return formatMemoryProbe(await runMemoryProbe({ seconds: Math.min(SECONDS, 4) }));
  }));
  sections.push(await section('Logins off the event loop', async () => formatLoginBench(await runLoginBench({ durationSeconds: SECONDS }))));
  sections.push(await section('Sign-in from another address during a login flood (correct passwords, then wrong ones)', runBothLoginFairnessBenches));
  sections.push(await section('Sign-in during a registration flood', async () => formatRegistrationFloodBench(await runRegistrationFloodBench({ durationSeconds: Math.max(SECONDS, 10) }))));
  sections.push(await section('Durability: synchronous=FULL against NORMAL, group commit', async () => formatDurabilityBench(await runDurabilityBench({ durationSeconds: SECONDS }))));
  sections.push(await section('Multipart parser against busboy', () => optional<typeof import('./multipart.bench.ts')>('./multipart.bench.ts', async ({ runMultipartBench }) => {
    const { rows } = await runMultipartBench();
    return ['| scenario | ours MB/s | busboy MB/s | ours / busboy |', '|---|---:|---:|---:|',
      ...rows.map((row) => `| ${row.scenario} | ${row.oursMBps.toFixed(0)} | ${row.busboyMBps.toFixed(0)} | **${row.ratio.toFixed(2)}x** |`)].join('\n');
  })));
  sections.push(await section('Attachments: a 25 MiB file up and down against a bare node:http server, and the RSS bound', () => optional<typeof import('./attachments.bench.ts')>('./attachments.bench.ts', async ({ runAttachmentsBench, formatAttachmentsBench }) =>
    formatAttachmentsBench(await runAttachmentsBench()))));
  sections.push(await section('History: a page at 1k against 1M messages', () => optional<typeof import('./history.bench.ts')>('./history.bench.ts', async ({ runHistoryBench, formatHistoryBench }) =>
    formatHistoryBench(await runHistoryBench({ durationSeconds: Math.min(SECONDS, 3) })))));
  sections.push(await section('Search at scale: the newest 50 of a prefix in 1,000,000 messages against the naive query', () => optional<typeof import('./search-scale.bench.ts')>('./search-scale.bench.ts', async ({ runSearchScaleBench, formatSearchScaleBench }) =>
    formatSearchScaleBench(await runSearchScaleBench({ seconds: Math.min(SECONDS, 3) })))));
  sections.push(await section('Events: fan-out, idle streams, replay, the cost of the event write', () => optional<typeof import('./events.bench.ts')>('./events.bench.ts', async ({ runEventsBench, formatEventsBench }) =>
    formatEventsBench(await runEventsBench(dir, { durationSeconds: SECONDS })))));
  sections.push(await section('Workers: --workers 2 against 1', () => optional<typeof import('./workers.bench.ts')>('./workers.bench.ts', async ({ runWorkersBench, formatWorkersBench }) =>
    formatWorkersBench(await runWorkersBench(dir, { durationSeconds: SECONDS })))));
  sections.push(await section('Metrics overhead: the page of 50 with --metrics-port on and off', async () => {
    const { formatMetricsBench, runMetricsBench } = await import('./metrics.bench.ts');
    return formatMetricsBench(await runMetricsBench({ durationSeconds: SECONDS }));
  }));
  sections.push(await section('Unread counts and reactions: GET /chats with counts, a page with reactions', () => optional<typeof import('./unread-reactions.bench.ts')>('./unread-reactions.bench.ts', async ({ runUnreadBench, formatUnreadBench }) =>
    formatUnreadBench(await runUnreadBench({ durationSeconds: SECONDS })))));
  sections.push(await section('PostgreSQL backend: the page of 50 and POST message against SQLite, cross-server event latency', () => optional<typeof import('./postgres.bench.ts')>('./postgres.bench.ts', async ({ runPostgresBench, formatPostgresBench }) =>
    formatPostgresBench(await runPostgresBench({ durationSeconds: SECONDS })))));
  sections.push(await section(PUSH_BENCH_TITLE, async () => formatPushBench(await runPushBench())));
  sections.push(await section('Typing and presence: 1,000 streams, 200 users typing', () => optional<typeof import('./typing-presence.bench.ts')>('./typing-presence.bench.ts', async ({ runTypingPresenceBench, formatTypingPresenceBench }) =>
    formatTypingPresenceBench(await runTypingPresenceBench()))));
  sections.push(await section('Capacity: simulated people stepped up until a step fails (bench/capacity.md)', async () => {
    const { formatCapacitySection, runCapacitySection } = await import('./capacity.bench.ts');
    return formatCapacitySection(await runCapacitySection());
  }));
  sections.push(await section('Soak', async () => formatSoak(await runSoak())));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const total = ((performance.now() - started) / 1000).toFixed(0);
const resultsFile = new URL('./RESULTS.md', import.meta.url);
/** Everything below this line in RESULTS.md was measured by hand (before/after studies): a run keeps it. */
const HAND_MARKER = '<!-- make bench rewrites everything above this line and keeps everything below it: measurements made by hand. -->';
const previous = existsSync(resultsFile) ? readFileSync(resultsFile, 'utf8') : '';
const handMeasured = previous.includes(HAND_MARKER) ? previous.slice(previous.indexOf(HAND_MARKER)) : '';
const report = [
  '# Benchmark results',
  '',
  `Written by \`make bench\` (bench/run.ts) in ${total} s. Every ratio compares figures measured in this same run.`,
  '',
  machine(),
  '',
  ...sections,
  ...(handMeasured ? ['', handMeasured.trimEnd(), ''] : []),
].join('\n');
writeFileSync(resultsFile, report);
process.stdout.write(`${report}\n`);
