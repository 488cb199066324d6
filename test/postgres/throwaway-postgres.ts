// A throwaway PostgreSQL for tests: Debian's server binaries, initdb -A trust in a temp dir, pg_ctl on a free loopback
// port, the socket in the temp dir, everything removed when stopped (also when the process ends on a signal).
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ThrowawayPostgres {
  /** postgres://postgres@127.0.0.1:<port>/postgres: the superuser, no password (trust on loopback only). */
  url: string;
  port: number;
  /** Fast shutdown, then the data directory is removed. Idempotent. */
  stop(): void;
  /** Stops the server but keeps its data (start() brings it back), for outage tests. */
  pause(): void;
  start(): void;
}

const IS_ROOT = process.getuid?.() === 0;

/** The newest installed server's bin directory, e.g. /usr/lib/postgresql/15/bin, or undefined. */
function findBinDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).filter((name) => /^\d+$/.test(name) && existsSync(join(root, name, 'bin', 'initdb')));
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  return newest === undefined ? undefined : join(root, newest, 'bin');
}

/** A fresh CI machine has no PostgreSQL: install Debian's package (root, or through sudo). */
function ensureInstalled(): string {
  const found = findBinDir();
  if (found) return found;
  const sudo = IS_ROOT ? [] : ['sudo'];
  const run = (args: string[]): void => {
    const [command, ...rest] = [...sudo, ...args];
    execFileSync(command!, rest, { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  };
  run(['apt-get', 'update', '-qq']);
  run(['apt-get', 'install', '-y', '-qq', '--no-install-recommends', 'postgresql', 'postgresql-contrib']);
  const installed = findBinDir();
  if (!installed) throw new Error('throwaway-postgres: postgresql was installed but no /usr/lib/postgresql/*/bin/initdb is there');
  return installed;
}

/** A port nobody listens on now: listen on 0, read it, close (the server then binds it; a race is retried). */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Runs a server binary; as root through runuser, because initdb and postgres refuse to run as root. */
function runAsPostgres(binDir: string, tool: string, args: string[]): { status: number | null; output: string } {
  const command = IS_ROOT ? 'runuser' : join(binDir, tool);
  const fullArgs = IS_ROOT ? ['-u', 'postgres', '--', join(binDir, tool), ...args] : args;
  const result = spawnSync(command, fullArgs, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  return { status: result.status, output: `${result.stdout ?? ''}${result.stderr ?? ''}` };
}

const live = new Set<ThrowawayPostgres>();
let hooked = false;

/** Stops every server this process started when it exits, even on Ctrl-C or SIGTERM. */
function stopAllOnExit(): void {
  if (hooked) return;
  hooked = true;
  const stopAll = (): void => { for (const server of live) server.stop(); };
  process.once('exit', stopAll);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      stopAll();
      process.kill(process.pid, signal);
    });
  }
}

export interface ThrowawayOptions {
  /** true keeps PostgreSQL's durable defaults (fsync, synchronous_commit): for benchmarks against SQLite's FULL sync. */
  durable?: boolean;
}

export async function startThrowawayPostgres(options: ThrowawayOptions = {}): Promise<ThrowawayPostgres> {
  const binDir = ensureInstalled();
  const dir = mkdtempSync(join(tmpdir(), 'chat-pg-'));
  if (IS_ROOT) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  const log = join(dir, 'server.log');
  const removeDir = (): void => rmSync(dir, { recursive: true, force: true });
  // Locale C: the same byte order of text as SQLite's BINARY collation (the schema also says COLLATE "C").
  const init = runAsPostgres(binDir, 'initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--locale', 'C', '--no-sync']);
  if (init.status !== 0) {
    removeDir();
    throw new Error(`throwaway-postgres: initdb failed: ${init.output}`);
  }
  let port = 0;
  // Test data need not survive a crash: no fsync makes CREATE DATABASE and commits cheap.
  const durability = options.durable ? '' : ' -c fsync=off -c synchronous_commit=off -c full_page_writes=off';
  const serverOptions = (): string => `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=400${durability}`;
  const startServer = (): { status: number | null; output: string } => runAsPostgres(binDir, 'pg_ctl', ['-D', data, '-l', log, '-w', '-t', '60', '-o', serverOptions(), 'start']);
  let started = { status: 1 as number | null, output: '' };
  for (let attempt = 0; attempt < 5 && started.status !== 0; attempt++) {
    port = await freePort();
    started = startServer();
  }
  if (started.status !== 0) {
    removeDir();
    throw new Error(`throwaway-postgres: pg_ctl start failed: ${started.output}`);
  }
  let stopped = false;
  const server: ThrowawayPostgres = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    stop() {
      if (stopped) return;
      stopped = true;
      live.delete(server);
      runAsPostgres(binDir, 'pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      removeDir();
    },
    pause() {
      const result = runAsPostgres(binDir, 'pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
      if (result.status !== 0) throw new Error(`throwaway-postgres: stop failed: ${result.output}`);
    },
    start() {
      const result = startServer();
      if (result.status !== 0) throw new Error(`throwaway-postgres: start failed: ${result.output}`);
    },
  };
  live.add(server);
  stopAllOnExit();
  return server;
}
