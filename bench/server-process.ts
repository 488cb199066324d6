// Runs the server (or a baseline) in a child process, so load generation does not share its event loop;
// the child reports its event-loop delay and memory on request.
//
// Children run compiled JavaScript, as a deployment does (`node lib/main.js`), not TypeScript through tsx: tsx
// wraps every function in a `__name` helper (a few per cent of CPU) and adds about 40 MiB of RSS. The tree the
// module belongs to is compiled once per bench process by tsc (bench/tsconfig.build.json → .bench-build/), ours
// and every peer alike; a tree without that file (an older commit given to ab.bench.ts) runs under tsx.
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { getHeapSpaceStatistics } from 'node:v8';
import { pathToFileURL } from 'node:url';

const BUILD_DIR = '.bench-build';
const built = new Map<string, boolean>();

/** The tree (the directory holding bench/) that `module` belongs to. */
function treeOf(module: string): string {
  let dir = dirname(module);
  while (!existsSync(join(dir, 'bench', 'server-process.ts'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`${module} is not inside a tree with bench/server-process.ts`);
    dir = parent;
  }
  return dir;
}

/** Compiles `tree` into tree/.bench-build once; false when the tree has no bench/tsconfig.build.json. */
function compileTree(tree: string): boolean {
  const known = built.get(tree);
  if (known !== undefined) return known;
  const config = join(tree, 'bench', 'tsconfig.build.json');
  const ok = existsSync(config);
  if (ok) {
    const out = join(tree, BUILD_DIR);
    rmSync(out, { recursive: true, force: true });
    const tsc = createRequire(join(tree, 'package.json')).resolve('typescript/bin/tsc');
    execFileSync(process.execPath, [tsc, '-p', config], { stdio: 'inherit' });
    // Files the sources find next to themselves: migrations and package.json (the version).
    for (const name of ['sql', 'package.json']) symlinkSync(join('..', name), join(out, name));
  }
  built.set(tree, ok);
  return ok;
}

/** How to run `file` (a .ts of a tree) with node: its compiled JavaScript when the tree compiles, else under tsx. */
export function runnable(file: string): { file: string; execArgv: string[] } {
  const tree = treeOf(file);
  if (!compileTree(tree)) return { file, execArgv: ['--import', 'tsx'] };
  return { file: join(tree, BUILD_DIR, relative(tree, file)).replace(/\.ts$/, '.js'), execArgv: [] };
}

export interface ChildStats {
  eventLoopP99Ms: number;
  eventLoopMaxMs: number;
  rssBytes: number;
  maxRssBytes: number;
  /** V8's heap (total reserved) and memory outside it held by JavaScript objects (Buffers): what RSS is made of. */
  heapTotalBytes: number;
  externalBytes: number;
  /** User + system CPU time the child has used so far, in microseconds: per-request cost that other load on the machine barely moves. */
  cpuMicros: number;
}

export interface ServerChild {
  url: string;
  child: ChildProcess;
  /** Resets the event-loop histogram. */
  resetStats(): Promise<void>;
  stats(): Promise<ChildStats>;
  /** V8's heap spaces (new, old, code...): their sizes and what is in use. */
  heapSpaces(): Promise<HeapSpace[]>;
  stop(): Promise<void>;
}

export interface HeapSpace { name: string; size: number; used: number }

type Message = { type: 'listening'; url: string } | { type: 'stats'; stats: ChildStats } | { type: 'reset-done' } | { type: 'heap-spaces'; spaces: HeapSpace[] };

function ask<T extends Message['type']>(child: ChildProcess, request: string, answer: T): Promise<Extract<Message, { type: T }>> {
  return new Promise((resolve) => {
    const onMessage = (message: Message): void => {
      if (message.type !== answer) return;
      child.off('message', onMessage);
      resolve(message as Extract<Message, { type: T }>);
    };
    child.on('message', onMessage);
    child.send(request);
  });
}

/** Starts `module` (a file exporting `start(options): Promise<{ url, close }>`) in a child; nodeFlags such as --cpu-prof go to its node. */
export async function startChild(module: string, options: Record<string, unknown>, nodeFlags: readonly string[] = []): Promise<ServerChild> {
  const runner = runnable(join(treeOf(module), 'bench', 'server-process.ts'));
  const child = fork(runner.file, [runnable(module).file, JSON.stringify(options)], {
    execArgv: [...runner.execArgv, ...nodeFlags],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const [message] = (await once(child, 'message')) as [Message];
  if (message.type !== 'listening') throw new Error('child did not start');
  return {
    url: message.url,
    child,
    resetStats: async () => { await ask(child, 'reset', 'reset-done'); },
    stats: async () => (await ask(child, 'stats', 'stats')).stats,
    heapSpaces: async () => (await ask(child, 'heap-spaces', 'heap-spaces')).spaces,
    stop: async () => {
      child.send('stop');
      await once(child, 'exit');
    },
  };
}

async function runInChild(): Promise<void> {
  const [module, json] = process.argv.slice(2) as [string, string];
  const { start } = (await import(pathToFileURL(module).href)) as { start(options: unknown): Promise<{ url: string; close(): Promise<void> }> };
  const running = await start(JSON.parse(json));
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  process.on('message', (message: string) => {
    if (message === 'reset') {
      histogram.reset();
      process.send!({ type: 'reset-done' });
    } else if (message === 'stats') {
      const usage = process.resourceUsage();
      process.send!({ type: 'stats', stats: {
        eventLoopP99Ms: histogram.percentile(99) / 1e6,
        eventLoopMaxMs: histogram.max / 1e6,
        rssBytes: process.memoryUsage.rss(),
        ...(({ heapTotal, external }) => ({ heapTotalBytes: heapTotal, externalBytes: external }))(process.memoryUsage()),
        maxRssBytes: usage.maxRSS * 1024,
        cpuMicros: usage.userCPUTime + usage.systemCPUTime,
      } });
    } else if (message === 'heap-spaces') {
      process.send!({ type: 'heap-spaces', spaces: getHeapSpaceStatistics().map((space) => ({ name: space.space_name, size: space.space_size, used: space.space_used_size })) });
    } else if (message === 'stop') {
      void running.close().then(() => process.exit(0));
    }
  });
  process.send!({ type: 'listening', url: running.url });
}

if (process.send && import.meta.url === pathToFileURL(process.argv[1]!).href) void runInChild();
