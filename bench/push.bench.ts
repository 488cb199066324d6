// Web Push at scale (docs/protocol.md §17): one @all message to a chat of 1,000 subscribed members is pushed to all
// of them (each encrypted and signed) while a page of messages is read under load; the figures are the time until the
// last push arrived, and the API's p99 during the fan-out against the same load when quiet, measured in the same run.
// The server is the real executable (src/main.ts) in a child process; the push service is plain node:http on loopback
// in another (bench/push-service-child.ts), so neither shares the load generator's event loop.
//
// A/B of levers: the same seeded database, served in alternating rounds by this tree and by earlier commits:
//   node --import tsx bench/push.bench.ts [rounds] [commit ...]
// With PUSH_PROFILE_DIR=<dir>, every server writes a CPU profile there (bench/stalls.ts <file> lists its stalls).
import { execFileSync, fork, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runLoad, type LoadResult } from './load.ts';
import type { PushServiceMessage } from './push-service-child.ts';
import { runnable } from './server-process.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MEMBERS = 1000;
const LOAD_SECONDS = 5;
/** A fan-out not over by then counts as not pushed. */
const DEADLINE_MS = 30_000;
const PASSWORD = 'a long enough password';

export const PUSH_BENCH_TITLE = 'Web Push: one message to a chat of 1,000 subscribed members';

export interface PushBenchResult {
  tree: string;
  members: number;
  pushed: number;
  /** Pushes that arrived more than once (a subscription pushed twice). */
  doubled: number;
  allPushedMs: number;
  quiet: LoadResult;
  during: LoadResult;
  loadAverage: number;
}

interface Seed {
  db: string;
  ownerToken: string;
  bigChatId: string;
  smallChatId: string;
}

interface PushService {
  origin: string;
  child: ChildProcess;
}

async function startPushService(): Promise<PushService> {
  const child = fork(fileURLToPath(new URL('./push-service-child.ts', import.meta.url)), { execArgv: process.execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const [message] = await once(child, 'message') as [PushServiceMessage];
  if (message.type !== 'listening') throw new Error('push service: no address');
  return { origin: message.origin, child };
}

async function startMain(tree: string, db: string): Promise<{ url: string; child: ChildProcess }> {
  const main = runnable(join(tree, 'src', 'main.ts'));
  // PUSH_PROFILE_DIR=<dir>: the server writes a CPU profile there (bench/stalls.ts reads it).
  const profile = process.env['PUSH_PROFILE_DIR'] ? ['--cpu-prof', '--cpu-prof-dir', process.env['PUSH_PROFILE_DIR']] : [];
  const child = spawn(process.execPath, [...profile, ...main.execArgv, main.file, '--db', db, '--port', '0', '--host', '127.0.0.1', '--quiet', '--registration', 'open',
    '--scrypt-n', '1024', '--hash-queue', '1000', '--login-rate', '0', '--write-rate', '0', '--register-rate', '0', '--push-subject', 'mailto:bench@chat.example', '--push-allow-insecure'],
  { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, NODE_V8_COVERAGE: '' } });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`server exited ${code}: ${out}`)));
  });
  return { url, child };
}

async function stopMain(server: { child: ChildProcess }): Promise<void> {
  server.child.kill('SIGTERM');
  if (server.child.exitCode === null) await once(server.child, 'exit');
}

async function send(url: string, method: string, path: string, body?: unknown, token?: string): Promise<any> {
  const res = await fetch(`${url}${path}`, {
    method, headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** Registers and logs in `count` users, a few at a time; answers their ids and tokens. */
async function makeUsers(url: string, count: number, prefix: string): Promise<{ userId: string; token: string }[]> {
  const users: { userId: string; token: string }[] = [];
  for (let start = 0; start < count; start += 20) {
    users.push(...await Promise.all(Array.from({ length: Math.min(20, count - start) }, async (_, i) => {
      const login = `${prefix}${start + i}`;
      const user = await send(url, 'POST', '/users', { login, password: PASSWORD });
      const session = await send(url, 'POST', '/session', { login, password: PASSWORD });
      return { userId: user.id as string, token: session.token as string };
    })));
  }
  return users;
}

/** The database every run starts from: 1,001 users, 1,000 subscriptions, the big chat, a small chat of 50 messages. */
async function seedDatabase(tree: string, dir: string, pushOrigin: string): Promise<Seed> {
  const db = join(dir, 'seed.db');
  const server = await startMain(tree, db);
  try {
    const [owner] = await makeUsers(server.url, 1, 'owner');
    const members = await makeUsers(server.url, MEMBERS, 'member');
    const p256dh = Buffer.concat([Buffer.from([4]), Buffer.from('6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c2964fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5', 'hex')]).toString('base64url');
    for (let start = 0; start < MEMBERS; start += 50) {
      await Promise.all(members.slice(start, start + 50).map((member, i) => send(server.url, 'POST', '/push-subscriptions', { endpoint: `${pushOrigin}/push/${start + i}`, keys: { p256dh, auth: Buffer.alloc(16, (start + i) % 256).toString('base64url') } }, member.token)));
    }
    const big = await send(server.url, 'POST', '/chats', { data: { title: 'Everyone', members: members.map((member) => member.userId) } }, owner!.token);
    // The API under load: a page of 50 messages of a small chat, the common read (the chat of 1,001 is read once a push).
    const small = await send(server.url, 'POST', '/chats', { data: { title: 'Two of us', members: [members[0]!.userId] } }, owner!.token);
    for (let n = 0; n < 50; n++) await send(server.url, 'POST', `/chats/${small.data.id}/messages`, { data: { text: `message ${n}` } }, owner!.token);
    return { db, ownerToken: owner!.token, bigChatId: big.data.id, smallChatId: small.data.id };
  } finally {
    await stopMain(server);
  }
}

/** One run: a fresh copy of the seed, served by `tree`, measured quiet and during one fan-out. */
async function runOnce(tree: string, seed: Seed, service: PushService, dir: string, run: number): Promise<PushBenchResult> {
  const db = join(dir, `run-${run}.db`);
  for (const suffix of ['', '-wal', '-shm']) if (existsSync(seed.db + suffix)) copyFileSync(seed.db + suffix, db + suffix);
  const server = await startMain(tree, db);
  try {
    const load = { url: `${server.url}/chats/${seed.smallChatId}/messages?limit=50`, connections: 10, headers: { authorization: `Bearer ${seed.ownerToken}` } };
    await runLoad({ ...load, durationSeconds: 1 });
    const quiet = await runLoad({ ...load, durationSeconds: LOAD_SECONDS });
    service.child.send({ type: 'reset', expected: MEMBERS });
    const all = once(service.child, 'message') as Promise<[PushServiceMessage]>;
    const deadline = new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), DEADLINE_MS).unref());
    const finished = Promise.race([all, deadline]);
    // The load under way from half a second before the message until the last push arrived: the fan-out's whole span.
    const during = runLoad({ ...load, durationSeconds: DEADLINE_MS / 1000, until: finished });
    await new Promise((resolve) => setTimeout(resolve, 500));
    const started = performance.now();
    const loadAverage = loadavg()[0]!;
    await send(server.url, 'POST', `/chats/${seed.bigChatId}/messages`, { data: { text: '@all the building is closing early today' } }, seed.ownerToken);
    const allPushedMs = (await finished) ? Math.round(performance.now() - started) : Infinity;
    const duringResult = await during;
    // Anything still under way lands before the count is read: a doubled push would show here.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    service.child.send({ type: 'count' });
    const [count] = await once(service.child, 'message') as [{ arrived: number; distinct: number }];
    return { tree, members: MEMBERS, pushed: count.distinct, doubled: count.arrived - count.distinct, allPushedMs, quiet, during: duringResult, loadAverage };
  } finally {
    await stopMain(server);
    for (const suffix of ['', '-wal', '-shm']) rmSync(db + suffix, { force: true });
  }
}

/** A tree holding `commit`'s files and this tree's node_modules; '.' is this work tree as it is. */
function checkOut(commit: string, dir: string): string {
  if (commit === '.') return ROOT;
  const path = join(dir, `tree-${commit.replace(/[^A-Za-z0-9]/g, '_')}`);
  mkdirSync(path);
  execFileSync('sh', ['-c', `git -C "${ROOT}" archive "${commit}" | tar -x -C "${path}"`]);
  symlinkSync(join(ROOT, 'node_modules'), join(path, 'node_modules'));
  return path;
}

/** `rounds` rounds over the trees (the order turned each round), every run listed. */
export async function runPushBenches(commits: readonly string[] = ['.'], rounds = 1): Promise<PushBenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'push-bench-'));
  const service = await startPushService();
  try {
    const trees = commits.map((commit) => ({ commit, path: checkOut(commit, dir) }));
    const seed = await seedDatabase(trees[0]!.path, dir, service.origin);
    const results: PushBenchResult[] = [];
    let run = 0;
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? trees : [...trees].reverse();
      for (const tree of order) {
        const result = { ...await runOnce(tree.path, seed, service, dir, run++), tree: tree.commit };
        results.push(result);
        process.stderr.write(`${formatRow(result, results.length)}\n`);
      }
    }
    return results;
  } finally {
    service.child.disconnect();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function runPushBench(): Promise<PushBenchResult> {
  return (await runPushBenches(['.'], 1))[0]!;
}

function ratioOf(result: PushBenchResult): number {
  // Under 1 ms, a p99 is counted as 1 ms.
  return Math.max(result.during.exactP99Ms, 1) / Math.max(result.quiet.exactP99Ms, 1);
}

function formatRow(result: PushBenchResult, run: number): string {
  const pushed = `${result.pushed} / ${result.members}${result.doubled > 0 ? ` (${result.doubled} twice)` : ''}`;
  return `| ${run} | ${result.tree} | ${result.loadAverage.toFixed(1)} | ${pushed} | ${result.allPushedMs} ms | ${Math.round(result.quiet.requestsPerSecond)} | ${result.quiet.exactP99Ms.toFixed(2)} | ${Math.round(result.during.requestsPerSecond)} | ${result.during.exactP99Ms.toFixed(2)} | **${ratioOf(result).toFixed(2)}x** |`;
}

export function formatPushBenches(results: readonly PushBenchResult[]): string {
  return [
    `An @all message by the owner of a chat whose ${MEMBERS} other members each have a push subscription (a push service on loopback answering 201, in its own process); GET /chats/{id}/messages?limit=50 of a two-person chat under load (10 connections) quiet (${LOAD_SECONDS} s) and during the fan-out (from 0.5 s before the message until the last push arrived). Goal: all pushed within 10 s, p99 during <= 2x quiet (under 1 ms, the p99 is counted as 1 ms). Load: the 1-minute load average when the message was posted.`,
    '',
    '| run | tree | load | pushed | all pushed after | quiet req/s | quiet p99 ms | during req/s | during p99 ms | p99 during / quiet |',
    '|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...results.map((result, n) => formatRow(result, n + 1)),
    '',
  ].join('\n');
}

export function formatPushBench(result: PushBenchResult): string {
  return formatPushBenches([result]);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [roundsText = '1', ...commits] = process.argv.slice(2);
  const results = await runPushBenches(commits.length > 0 ? commits : ['.'], Number(roundsText));
  process.stdout.write(`## ${PUSH_BENCH_TITLE} (${new Date().toISOString()})\n\n${formatPushBenches(results)}\n`);
}
