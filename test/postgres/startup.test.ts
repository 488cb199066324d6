// A PostgreSQL database the server cannot use ends the process with exit 2 and one line, the password never shown.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function run(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, '--port', '0', '--quiet', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => { stdout += chunk; });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk; });
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}

test('an unreachable PostgreSQL, by flag or by DATABASE_URL, is exit 2 with one line and no password', async () => {
  const port = await closedPort();
  const url = `postgres://chat:hunter2-secret@127.0.0.1:${port}/chat`;
  for (const result of [await run(['--db', url]), await run([], { DATABASE_URL: url, DB_PATH: ':memory:' }), await run(['--workers', '2', '--db', url])]) {
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /^chat-server: cannot open the database postgres:\/\/chat:\*\*\*@127\.0\.0\.1:\d+\/chat: connection refused[^\n]*\n$/);
    assert.doesNotMatch(result.stderr + result.stdout, /hunter2/);
  }
});
