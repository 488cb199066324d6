// Test helper: run the real server executable (src/main.ts) in a child process and learn its URL from stdout.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Resolves when the process has exited (at once if it already has). */
  exited: Promise<void>;
  /** Sends a signal and waits for the exit. */
  kill(signal: NodeJS.Signals): Promise<void>;
  /** What the server wrote to stderr so far. */
  stderr(): string;
}

export interface SpawnOptions {
  /** The child's soft limit on open files (bash's `ulimit -n`), for the tests of descriptor planning. */
  fileLimit?: number;
}

/** Starts `node --import tsx src/main.ts --port 0 ...args` and resolves once it printed "listening on <url>". */
export async function spawnServer(args: readonly string[], options: SpawnOptions = {}): Promise<ServerProcess> {
  const argv = ['--import', 'tsx', MAIN, '--port', '0', '--host', '127.0.0.1', '--write-rate', '0', '--register-rate', '0', '--registration', 'open', ...args];
  const [command, commandArgs] = options.fileLimit === undefined ? [process.execPath, argv]
    : ['bash', ['-c', `ulimit -n ${options.fileLimit} && exec "$0" "$@"`, process.execPath, ...argv]];
  const child = spawn(command, commandArgs, { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = once(child, 'exit').then(() => undefined);
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk; });
  const url = await new Promise<string>((resolve, reject) => {
    let stdout = '';
    const onData = (chunk: string): void => {
      stdout += chunk;
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
      if (!match) return;
      child.stdout!.off('data', onData);
      child.off('exit', onExit);
      resolve(match[1]!);
    };
    const onExit = (code: number | null): void => reject(new Error(`server exited (${code}) before listening: ${stderr}`));
    child.stdout!.setEncoding('utf8').on('data', onData);
    child.once('exit', onExit);
  });
  // Keep draining stdout so a chatty server never blocks on a full pipe.
  child.stdout!.resume();
  return {
    url,
    child,
    exited,
    stderr: () => stderr,
    kill: async (signal) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}
