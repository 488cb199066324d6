// Runs the server (or a baseline) in a child process, so load generation does not share its event loop;
// the child reports its event-loop delay and memory on request.
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';

export interface ChildStats {
  eventLoopP99Ms: number;
  eventLoopMaxMs: number;
  rssBytes: number;
  maxRssBytes: number;
  /** User + system CPU time the child has used so far, in microseconds: per-request cost that other load on the machine barely moves. */
  cpuMicros: number;
}

export interface ServerChild {
  url: string;
  child: ChildProcess;
  /** Resets the event-loop histogram. */
  resetStats(): Promise<void>;
  stats(): Promise<ChildStats>;
  stop(): Promise<void>;
}

type Message = { type: 'listening'; url: string } | { type: 'stats'; stats: ChildStats } | { type: 'reset-done' };

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
  const child = fork(fileURLToPath(import.meta.url), [module, JSON.stringify(options)], {
    execArgv: ['--import', 'tsx', ...nodeFlags],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const [message] = (await once(child, 'message')) as [Message];
  if (message.type !== 'listening') throw new Error('child did not start');
  return {
    url: message.url,
    child,
    resetStats: async () => { await ask(child, 'reset', 'reset-done'); },
    stats: async () => (await ask(child, 'stats', 'stats')).stats,
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
        maxRssBytes: usage.maxRSS * 1024,
        cpuMicros: usage.userCPUTime + usage.systemCPUTime,
      } });
    } else if (message === 'stop') {
      void running.close().then(() => process.exit(0));
    }
  });
  process.send!({ type: 'listening', url: running.url });
}

if (process.send && import.meta.url === pathToFileURL(process.argv[1]!).href) void runInChild();
