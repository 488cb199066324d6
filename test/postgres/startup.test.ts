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

// A module hook that makes `pg` impossible to find, as on an install without optional dependencies.
const WITHOUT_PG = `data:text/javascript,${encodeURIComponent(`import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent('export async function resolve(specifier, context, next) { if (specifier === "pg") throw Object.assign(new Error("Cannot find package pg"), { code: "ERR_MODULE_NOT_FOUND" }); return next(specifier, context); }'));`)}`;

function run(args: string[], env: NodeJS.ProcessEnv = {}, preload: string[] = []): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [...preload, '--import', 'tsx', MAIN, '--port', '0', '--quiet', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
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

test('without the optional pg driver, a PostgreSQL URL is exit 2 naming the missing driver; SQLite still starts', async () => {
  const missing = await run(['--db', 'postgres://chat:hunter2-secret@127.0.0.1:1/chat'], {}, ['--import', WITHOUT_PG]);
  assert.equal(missing.code, 2, missing.stderr);
  assert.match(missing.stderr, /^chat-server: [^\n]*the PostgreSQL driver is not installed[^\n]*\n$/);
  assert.doesNotMatch(missing.stderr, /hunter2/);
  const sqlite = spawn(process.execPath, ['--import', WITHOUT_PG, '--import', 'tsx', MAIN, '--port', '0', '--db', ':memory:'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve) => {
    let out = '';
    sqlite.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      if (out.includes('\n')) resolve(out);
    });
  });
  sqlite.kill('SIGTERM');
  assert.match(line, /listening on http:\/\/127\.0\.0\.1:\d+/);
});
