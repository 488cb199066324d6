// Runs src/main.ts as a child process on an in-memory database and collects what it prints.
import { spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import type { TestContext } from 'node:test';

export interface Executable {
  url: string;
  /** Resolves with everything printed on stdout so far, as soon as done() accepts it. */
  waitForStdout(done: (text: string) => boolean): Promise<string>;
  waitForStderr(done: (text: string) => boolean): Promise<string>;
}

/** Collects a stream's text and wakes waiters on each chunk: waiting is on output, never on time. */
function collect(stream: Readable): (done: (text: string) => boolean) => Promise<string> {
  let text = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => { text += chunk; });
  return (done) => new Promise((resolve) => {
    const check = (): void => {
      if (!done(text)) return;
      stream.off('data', check);
      resolve(text);
    };
    stream.on('data', check);
    check();
  });
}

/** Starts the server with `args` (port 0, :memory:, fast hashing) and resolves once it listens. */
export async function startExecutable(t: TestContext, args: string[]): Promise<Executable> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', '--port', '0', '--db', ':memory:', '--scrypt-n', '1024', '--registration', 'open', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  t.after(() => child.kill('SIGKILL'));
  const waitForStdout = collect(child.stdout);
  const waitForStderr = collect(child.stderr);
  const exited = new Promise<never>((_resolve, reject) => child.once('exit', (code) => reject(new Error(`the server exited with ${code}`))));
  const listening = /listening on (http:\/\/\S+)/;
  const stdout = await Promise.race([waitForStdout((text) => listening.test(text)), exited]);
  return { url: listening.exec(stdout)![1]!, waitForStdout, waitForStderr };
}
