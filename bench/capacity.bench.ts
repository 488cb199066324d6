// Capacity: how many simulated people one server holds (bench/capacity.md). Seeds the people, starts the server
// (src/main.ts, compiled) unless --url names one, forks the load generators, and steps the users up until a step fails.
//   node --import tsx bench/capacity.bench.ts [--steps 2500,5000,10000] [--seconds 60] [--generators 4]
//     [--workers 2] [--postgres] [--server-flags '...'] [--node-flags '...'] [--url http://host:port --roster roster.json [--server-pid PID]]
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { GeneratorAnswer, GeneratorRequest, Post, StepFigures } from './capacity-generator.ts';
import { DEFAULT_SHAPE, seedCapacity, type Roster } from './capacity-seed.ts';
import { formatCapacity, summarizeStep, type StepRow } from './capacity-report.ts';
import { sampleTree, type TreeSample } from './process-tree.ts';
import { runnable } from './server-process.ts';
import { startMain, stop, type Running } from './workers.bench.ts';

export interface CapacityOptions {
  steps: number[];
  seconds: number;
  generators: number;
  workers: number;
  postgres: boolean;
  /** Another server: its URL, the roster of its seeded people, and (to report its CPU and RSS) its process id. */
  url?: string;
  roster?: Roster;
  serverPid?: number;
  /** Further flags for our server, and for the node running it (an A/B of a lever, a CPU profile). */
  serverFlags?: string[];
  nodeFlags?: string[];
}

export interface CapacityResult { options: CapacityOptions; label: string; rows: StepRow[] }

const GENERATOR = fileURLToPath(new URL('./capacity-generator.ts', import.meta.url));
/** After a step's last action, this long for the last posts to reach every stream before counting the lost. */
const DRAIN_MS = 3000;

function ask<T extends GeneratorAnswer['type']>(child: ChildProcess, request: GeneratorRequest, answer: T): Promise<Extract<GeneratorAnswer, { type: T }>> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: GeneratorAnswer): void => {
      if (message.type !== answer) return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve(message as Extract<GeneratorAnswer, { type: T }>);
    };
    const onExit = (code: number | null): void => reject(new Error(`load generator exited (${code})`));
    child.on('message', onMessage);
    child.once('exit', onExit);
    child.send(request);
  });
}

async function startOurs(options: CapacityOptions, seedPath: string): Promise<{ server: Running; cleanup: () => Promise<void> }> {
  const flags = ['--max-streams', String(Math.max(...options.steps) + 1000), ...(options.serverFlags ?? [])];
  if (!options.postgres) return { server: await startMain(seedPath, options.workers, flags, options.nodeFlags), cleanup: async () => {} };
  const { startThrowawayPostgres } = await import('../test/postgres/throwaway-postgres.ts');
  const { urlWithDatabase } = await import('../test/postgres/test-database.ts');
  const { runMigrateCommand } = await import('../src/migrate-command.ts');
  const pg = (await import('pg')).default;
  const cluster = await startThrowawayPostgres({ durable: true });
  const admin = new pg.Client({ connectionString: cluster.url });
  await admin.connect();
  await admin.query('CREATE DATABASE chat_capacity');
  await admin.end();
  const url = urlWithDatabase(cluster.url, 'chat_capacity');
  if (await runMigrateCommand(['--from', seedPath, '--to', url]) !== 0) throw new Error('copying the seeded people into PostgreSQL failed');
  return { server: await startMain(url, options.workers, flags, options.nodeFlags), cleanup: async () => { cluster.stop(); } };
}

export async function runCapacityBench(options: CapacityOptions): Promise<CapacityResult> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-capacity-'));
  const label = options.url ? `server at ${options.url}` : `${options.workers} worker${options.workers > 1 ? 's' : ''}, ${options.postgres ? 'PostgreSQL on this machine' : 'SQLite'}`;
  let server: Running | undefined;
  let cleanup = async (): Promise<void> => {};
  const generators: ChildProcess[] = [];
  try {
    const users = Math.max(...options.steps);
    const seedPath = join(dir, 'capacity.db');
    const roster = options.roster ?? seedCapacity(seedPath, { users, ...DEFAULT_SHAPE });
    let url = options.url;
    let serverPid = options.serverPid;
    if (url === undefined) {
      ({ server, cleanup } = await startOurs(options, seedPath));
      url = server.url;
      serverPid = server.child.pid;
    }
    // Users are dealt round the generators team by team, so each generator's share grows evenly step by step.
    const shares: Roster['users'][] = Array.from({ length: options.generators }, () => []);
    roster.users.slice(0, users).forEach((user, i) => shares[i % options.generators]!.push(user));
    const gen = runnable(GENERATOR);
    for (const share of shares) {
      const child = fork(gen.file, [], { execArgv: gen.execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'], serialization: 'advanced' });
      child.send({ type: 'init', url, users: share, chats: roster.chats } satisfies GeneratorRequest);
      generators.push(child);
    }
    const rows: StepRow[] = [];
    let connected = 0;
    for (const step of options.steps) {
      const adding = step - connected;
      const perGenerator = Math.ceil(adding / options.generators);
      const connects = await Promise.all(generators.map((child) => ask(child, { type: 'connect', count: perGenerator }, 'connected')));
      connected = step;
      const serverBefore: TreeSample | undefined = serverPid ? sampleTree(serverPid) : undefined;
      let rssMax = 0;
      const sampler = setInterval(() => { if (serverPid) rssMax = Math.max(rssMax, sampleTree(serverPid).rssBytes); }, 1000);
      const started = performance.now();
      const ran = await Promise.all(generators.map((child) => ask(child, { type: 'run', seconds: options.seconds }, 'ran')));
      const elapsed = (performance.now() - started) / 1000;
      clearInterval(sampler);
      const serverAfter = serverPid ? sampleTree(serverPid) : undefined;
      await new Promise((resolve) => setTimeout(resolve, DRAIN_MS));
      const figures: StepFigures[] = ran.map((answer) => answer.figures);
      const posts: Post[] = figures.flatMap((f) => f.posts);
      const deleted = figures.flatMap((f) => f.deleted);
      const checks = await Promise.all(generators.map((child) => ask(child, { type: 'check', posts, deleted }, 'checked')));
      const row = summarizeStep({
        users: step, seconds: elapsed, figures, checks, connectFailures: connects.reduce((sum, c) => sum + c.failed, 0),
        connectSeconds: Math.max(...connects.map((c) => c.seconds)),
        server: serverBefore && serverAfter ? { cpuMs: serverAfter.cpuMs - serverBefore.cpuMs, rssBytes: serverAfter.rssBytes, rssMaxBytes: Math.max(rssMax, serverAfter.rssBytes) } : undefined,
      });
      rows.push(row);
      process.stdout.write(`capacity (${label}): ${formatCapacity({ options, label, rows: [row] }, false)}\n`);
      if (!row.passed) break;
    }
    return { options, label, rows };
  } finally {
    await Promise.all(generators.map(async (child) => {
      if (child.exitCode !== null) return;
      child.send({ type: 'stop' } satisfies GeneratorRequest);
      await once(child, 'exit');
    }));
    if (server) await stop(server);
    await cleanup();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The section of `make bench`: one process on SQLite, then --workers 2, then (CAPACITY_POSTGRES=1) one process on
 * PostgreSQL; each ladder stops at its first failing step. CAPACITY_SECONDS sets a step's length (60).
 */
export async function runCapacitySection(): Promise<CapacityResult[]> {
  const seconds = Number(process.env['CAPACITY_SECONDS'] ?? 60);
  const base = { seconds, generators: 4, postgres: false };
  const results = [await runCapacityBench({ ...base, workers: 1, steps: [2500, 5000, 10000, 12500, 15000, 17500] })];
  results.push(await runCapacityBench({ ...base, workers: 2, steps: [10000, 15000, 20000, 25000, 30000] }));
  if (process.env['CAPACITY_POSTGRES'] === '1') results.push(await runCapacityBench({ ...base, workers: 1, postgres: true, steps: [2500, 5000, 10000, 12500] }));
  return results;
}

export function formatCapacitySection(results: CapacityResult[]): string {
  const best = (result: CapacityResult): string => {
    const passed = result.rows.filter((row) => row.passed);
    return passed.length > 0 ? passed[passed.length - 1]!.users.toLocaleString('en') : 'none';
  };
  return [
    'The load generator runs in its own processes on this same machine (their CPU and event-loop delay are in each row: '
      + 'it was not the limit while its loop p99 stays low). A step passes with every action p99 <= 100 ms, delivery p99 <= 200 ms, nothing failed, lost or doubled.',
    `Goals: 15,000 users on one process with RSS <= 600 MiB; 25,000 with --workers 2; 10,000 on PostgreSQL. Largest passing step: ${results.map((r) => `${r.label} **${best(r)}**`).join('; ')}.`,
    '',
    ...results.map((result) => formatCapacity(result, true)).join('\n\n').split('\n'),
  ].join('\n');
}

/** The command line: the options above, each with a default for a run on this machine. */
export function parseCapacityArgs(argv: string[]): CapacityOptions {
  const { values } = parseArgs({ args: argv, options: {
    steps: { type: 'string', default: '2500,5000,10000,12500,15000,20000,25000' }, seconds: { type: 'string', default: '60' },
    generators: { type: 'string', default: '4' }, workers: { type: 'string', default: '1' }, postgres: { type: 'boolean', default: false },
    url: { type: 'string' }, roster: { type: 'string' }, 'server-pid': { type: 'string' }, 'server-flags': { type: 'string' }, 'node-flags': { type: 'string' },
  } });
  if (values.url !== undefined && values.roster === undefined) throw new Error('--url needs --roster (the people seeded on that server: bench/capacity.md)');
  return {
    steps: values.steps.split(',').map(Number), seconds: Number(values.seconds), generators: Number(values.generators),
    workers: Number(values.workers), postgres: values.postgres,
    ...(values.url ? { url: values.url, roster: JSON.parse(readFileSync(values.roster!, 'utf8')) as Roster } : {}),
    ...(values['server-pid'] ? { serverPid: Number(values['server-pid']) } : {}),
    ...(values['server-flags'] ? { serverFlags: values['server-flags'].split(' ').filter(Boolean) } : {}),
    ...(values['node-flags'] ? { nodeFlags: values['node-flags'].split(' ').filter(Boolean) } : {}),
  };
}

const script = process.argv[1];
if (script !== undefined && import.meta.url === pathToFileURL(script).href) {
  const result = await runCapacityBench(parseCapacityArgs(process.argv.slice(2)));
  console.log(formatCapacity(result, true));
}
