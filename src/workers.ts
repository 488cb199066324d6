// --workers N (docs/protocol.md §12.1): N server processes on one port over one database file, through node:cluster. The
// primary migrates the database once, forks the workers, replaces one that dies, relays their event wake-ups
// (a hint only: every worker also reads the log on a timer) and their ephemeral messages, and on SIGTERM drains them all.
import cluster, { type Worker } from 'node:cluster';
import type { Config } from './config.ts';
import { openStore } from './storage/open-store.ts';

const CONFIG_ENV = 'CHAT_SERVER_WORKER_CONFIG';
/** More deaths than this within CRASH_WINDOW_MS is a crash loop: the primary gives up instead of forking forever. */
const MAX_CRASHES = 5;
const CRASH_WINDOW_MS = 10_000;

/** What a worker tells the primary. */
export type WorkerMessage =
  | { type: 'listening'; url: string }
  | { type: 'failed'; message: string }
  | { type: 'events'; onDiskThrough?: number }
  | { type: 'ephemeral'; payload: string };

/**
 * What the primary tells a worker: another worker committed events, on disk through `onDiskThrough`, read the log
 * now; or another worker published on the ephemeral bus (events/ephemeral-bus.ts), with SQLite, whose file carries
 * no notifications.
 */
export type PrimaryMessage = { type: 'wake'; onDiskThrough?: number } | { type: 'ephemeral'; payload: string };

export function isWorkerProcess(): boolean {
  return cluster.isWorker;
}

/** A worker's configuration: the primary's, passed whole, so every worker runs exactly the same one. */
export function workerConfig(): Config {
  return JSON.parse(process.env[CONFIG_ENV] ?? '{}') as Config;
}

export function tellPrimary(message: WorkerMessage): void {
  process.send?.(message);
}

export function onPrimaryMessage(handler: (message: PrimaryMessage) => void): void {
  process.on('message', (message: PrimaryMessage) => handler(message));
}

export interface PrimaryHooks {
  /** Every worker listens: the URL they share. */
  listening(url: string): void;
  /** One line for the operator (a worker died and was replaced, a crash loop). */
  log(line: string): void;
  /** Start-up failed (a worker could not listen): the message, then the primary exits 2. */
  failed(message: string): void;
  /** What opening the database did that the operator should hear of (Store.notices). */
  notice(message: string): void;
}

export interface Primary {
  /** Drains every worker (each finishes its requests and closes the database), then resolves. */
  stop(): Promise<void>;
}

/** Relays a worker's message to every other worker still connected (an id left undefined is not sent: JSON). */
function tellOthers(from: Worker, message: PrimaryMessage): void {
  for (const other of Object.values(cluster.workers ?? {})) if (other && other !== from && other.isConnected()) other.send(message);
}

export async function startPrimary(config: Config, hooks: PrimaryHooks): Promise<Primary> {
  // Connections are handed to the workers in turn by the primary (node:cluster's round-robin, the default on
  // Linux): with SCHED_NONE one busy worker accepts nearly every keep-alive connection and the other idles.
  // Migrations run once, here, before any worker opens the file.
  const migrated = await openStore({ db: config.db });
  await migrated.close();
  for (const notice of migrated.notices) hooks.notice(notice);
  const env = { [CONFIG_ENV]: JSON.stringify(config) };
  const listened = new Set<number>();
  const crashes: number[] = [];
  let stopping = false;
  let started = false;
  let stopped: () => void = () => {};
  const allExited = new Promise<void>((resolve) => { stopped = resolve; });

  const fork = (): Worker => {
    const worker = cluster.fork(env);
    worker.on('message', (message: WorkerMessage) => {
      if (message.type === 'listening') {
        listened.add(worker.id);
        if (!started && listened.size === config.workers) {
          started = true;
          hooks.listening(message.url);
        }
      } else if (message.type === 'failed') {
        if (!started) stopAll().then(() => hooks.failed(message.message), () => hooks.failed(message.message));
      } else if (message.type === 'events') {
        tellOthers(worker, { type: 'wake', onDiskThrough: message.onDiskThrough });
      } else if (message.type === 'ephemeral') {
        tellOthers(worker, { type: 'ephemeral', payload: message.payload });
      }
    });
    return worker;
  };

  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) stopped();
      return;
    }
    if (!started) return;
    const now = Date.now();
    crashes.push(now);
    while (crashes.length > 0 && crashes[0]! < now - CRASH_WINDOW_MS) crashes.shift();
    if (crashes.length > MAX_CRASHES) {
      hooks.log(`chat-server: workers keep dying (${crashes.length} in ${CRASH_WINDOW_MS / 1000} s), giving up`);
      void stopAll().then(() => process.exit(1));
      return;
    }
    hooks.log(`chat-server: worker ${worker.process.pid} ended (${signal ?? `exit code ${code}`}), starting another`);
    fork();
  });

  const stopAll = (): Promise<void> => {
    stopping = true;
    const workers = Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => worker !== undefined);
    if (workers.length === 0) stopped();
    for (const worker of workers) worker.process.kill('SIGTERM');
    return allExited;
  };

  for (let i = 0; i < config.workers; i++) fork();
  return { stop: stopAll };
}
