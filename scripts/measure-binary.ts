// Measures the single executable for docs/binary.md: build time, size, start-up to the first /health answer, idle memory.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildBinary } from './build-binary.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = Number(process.argv[2] ?? 5);
// Long enough for start-up work (JIT, first garbage collections) to settle before memory is read.
const IDLE_MS = 2000;

interface Sample {
  startMs: number;
  cpuMs: number;
  rssMiB: number;
}

function health(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    get(`${url}/health`, { agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    }).on('error', reject);
  });
}

/** CPU time the process has used, user and system: unlike wall time, it barely moves when other work shares the machine. */
function cpuMs(pid: number): number {
  // /proc/<pid>/stat: fields 14 and 15 (utime, stime) in clock ticks, 100 a second on Linux; the name in
  // field 2 may hold spaces, so fields are counted after its closing parenthesis.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function residentMiB(pid: number): number {
  // VmRSS: what the process holds in RAM now, shared pages of the executable included.
  const kib = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kib) / 1024;
}

/** One start: from spawn to the first 200 from /health, then the resident memory once idle. */
async function sample(command: string, args: string[], cwd: string, tmp: string, env: Record<string, string>): Promise<Sample> {
  const started = performance.now();
  const child = spawn(command, [...args, '--port', '0', '--quiet'], { cwd, env: { PATH: process.env['PATH'] ?? '', TMPDIR: tmp, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    let output = '';
    child.stdout.setEncoding('utf8');
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: string) => {
        output += chunk;
        const match = /listening on (http:\/\/\S+)/.exec(output);
        if (match) resolve(match[1]!);
      });
      child.once('exit', (code) => reject(new Error(`${command} exited with ${code}: ${output}`)));
    });
    if ((await health(url)) !== 200) throw new Error(`${url}/health did not answer 200`);
    const startMs = performance.now() - started;
    const cpu = cpuMs(child.pid!);
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
    return { startMs, cpuMs: cpu, rssMiB: residentMiB(child.pid!) };
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    }
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * A first start that creates the database, then RUNS starts on it, as a service restart would. Caches start empty
 * with the first: tsx's lives in TMPDIR, Node's compile cache (`compileCache`, as make run sets it) in it too.
 */
async function measure(label: string, command: string, args: string[], cwd: string, compileCache = false): Promise<string> {
  const tmp = mkdtempSync(join(tmpdir(), 'chat-measure-tmp-'));
  const env: Record<string, string> = compileCache ? { NODE_COMPILE_CACHE: join(tmp, 'node-compile-cache') } : {};
  try {
    const first = await sample(command, args, cwd, tmp, env);
    const samples: Sample[] = [];
    for (let i = 0; i < RUNS; i++) samples.push(await sample(command, args, cwd, tmp, env));
    const starts = samples.map((s) => s.startMs);
    const cpu = median(samples.map((s) => s.cpuMs));
    return `| ${label} | ${first.startMs.toFixed(0)} ms | ${median(starts).toFixed(0)} ms (${Math.min(...starts).toFixed(0)}–${Math.max(...starts).toFixed(0)}) | ${cpu.toFixed(0)} ms | ${median(samples.map((s) => s.rssMiB)).toFixed(1)} MiB |`;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (process.platform !== 'linux') throw new Error('memory is read from /proc: run this on Linux');
const buildStarted = performance.now();
const { path: binary, stripped } = await buildBinary();
const buildSeconds = (performance.now() - buildStarted) / 1000;
const dir = mkdtempSync(join(tmpdir(), 'chat-measure-'));
try {
  copyFileSync(binary, join(dir, 'chat-server'));
  const sourceDb = join(dir, 'source', 'chat.db');
  const rows = [
    await measure('dist/chat-server', join(dir, 'chat-server'), [], dir),
    await measure('node src/main.ts, compile cache on (make run)', process.execPath, [join(ROOT, 'src', 'main.ts'), '--db', join(dir, 'cached', 'chat.db')], ROOT, true),
    await measure('node src/main.ts, no compile cache', process.execPath, [join(ROOT, 'src', 'main.ts'), '--db', join(dir, 'stripped', 'chat.db')], ROOT),
    await measure('node --import tsx src/main.ts', process.execPath, ['--import', 'tsx', join(ROOT, 'src', 'main.ts'), '--db', sourceDb], ROOT),
  ];
  process.stdout.write([
    `Node ${process.version}, ${process.platform} ${process.arch}; median of ${RUNS} starts on an existing database.`,
    `Build: ${buildSeconds.toFixed(1)} s. Size: ${(statSync(binary).size / 2 ** 20).toFixed(1)} MiB (symbols ${stripped ? 'stripped' : 'kept'}).`,
    '',
    '| run | first start (creates the database) | start-up to first /health 200 (min–max) | CPU time by then | idle RSS |',
    '|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n'));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
