// A configuration the server cannot use ends the real process with exit code 2 and one line on stderr, never a stack.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openDatabase } from '../src/storage/sqlite/database.ts';
import { serverCopy } from './server-copy.ts';

interface Exit {
  status: number | null;
  stdout: string;
  stderr: string;
}

// Root may write anywhere and bind any port, so the permission cases run the server as nobody.
const AS_ROOT = process.getuid?.() === 0;
const NOBODY = { uid: 65534, gid: 65534 };

/**
 * Runs `node --import tsx src/main.ts ...args` to its end; as nobody, the same server from serverCopy(), since
 * nobody may not be able to enter the directory this clone lives in. The guard only keeps a hang from blocking the suite.
 */
async function runServer(args: string[], options: { unprivileged?: boolean } = {}): Promise<Exit> {
  const unprivileged = options.unprivileged === true && AS_ROOT;
  const copy = unprivileged ? await serverCopy() : undefined;
  const command = copy ? [copy.script] : ['--import', 'tsx', 'src/main.ts'];
  // nobody cannot write root's coverage directory (its complaint would be a second line on stderr).
  // Node passes NODE_V8_COVERAGE on to children unless the env sets it, so it is set empty: off.
  const child = spawn(copy?.node ?? process.execPath, [...command, '--quiet', ...args], {
    ...(unprivileged ? { ...NOBODY, cwd: tmpdir() } : {}),
    env: unprivileged ? { ...process.env, NODE_V8_COVERAGE: '' } : process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString(); });
  child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
  const guard = setTimeout(() => child.kill('SIGKILL'), 60_000);
  return new Promise((resolve) => {
    child.on('close', (status) => {
      clearTimeout(guard);
      resolve({ status, stdout, stderr });
    });
  });
}

function assertConfigError(exit: Exit, message: RegExp): void {
  assert.equal(exit.status, 2, `exit code; stderr: ${exit.stderr}`);
  assert.match(exit.stderr, /^chat-server: [^\n]+\n$/, 'exactly one line');
  assert.match(exit.stderr, message);
  assert.doesNotMatch(exit.stderr, /\bat .+:\d+:\d+/, 'no stack trace');
  assert.doesNotMatch(exit.stdout, /listening/);
}

function tempDir(t: { after(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'chat-startup-'));
  chmodSync(dir, 0o755); // so that nobody can reach what the test puts inside
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test('a database under /proc fails at once instead of hanging (mkdir -p never returns there)', async () => {
  assertConfigError(await runServer(['--db', '/proc/nope/x.db']), /cannot open the database \/proc\/nope\/x\.db: a directory on the way does not exist/);
});

test('with --workers the primary, which migrates the database first, fails the same way', async () => {
  assertConfigError(await runServer(['--workers', '2', '--db', '/proc/nope/x.db']), /cannot open the database \/proc\/nope\/x\.db: a directory on the way does not exist/);
});

test('a missing parent directory that cannot be created: a file in the way', async (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'file'), 'not a directory');
  assertConfigError(await runServer(['--db', join(dir, 'file', 'sub', 'chat.db')]), /file is not a directory/);
});

test('an unwritable database directory', async (t) => {
  const dir = tempDir(t);
  const locked = join(dir, 'locked');
  mkdirSync(locked, { mode: 0o555 });
  assertConfigError(await runServer(['--db', join(locked, 'chat.db')], { unprivileged: true }), /cannot open the database .*locked\/chat\.db: the file cannot be opened or created there/);
  assertConfigError(await runServer(['--db', join(locked, 'new', 'chat.db')], { unprivileged: true }), /cannot open the database .*: permission denied/);
});

test('a database file the server cannot write: read-only, or another user\'s', async (t) => {
  const dir = tempDir(t);
  chmodSync(dir, 0o777); // the server may create its -wal and -shm files: only the database file itself is refused
  const readOnly = join(dir, 'read-only.db');
  openDatabase(readOnly).close();
  chmodSync(readOnly, 0o444);
  assertConfigError(await runServer(['--db', readOnly], { unprivileged: true }), new RegExp(`^chat-server: cannot open the database ${readOnly}: the server cannot write the file \\(check its owner and permissions, and those of its directory\\)\n$`));
  if (!AS_ROOT) return; // only root can make a file another user's
  const rootOwned = join(dir, 'root-owned.db');
  openDatabase(rootOwned).close();
  chmodSync(rootOwned, 0o644);
  assertConfigError(await runServer(['--db', rootOwned], { unprivileged: true }), new RegExp(`^chat-server: cannot open the database ${rootOwned}: the server cannot write the file`));
});

test('a directory given as the database', async (t) => {
  const dir = tempDir(t);
  assertConfigError(await runServer(['--db', dir]), /it is a directory, not a database file/);
});

test('a file that is not SQLite', async (t) => {
  const path = join(tempDir(t), 'notes.db');
  const text = 'These are my notes, not a database.\n'.repeat(200);
  writeFileSync(path, text);
  assertConfigError(await runServer(['--db', path]), /the file is not an SQLite database/);
  assert.equal(readFileSync(path, 'utf8'), text, 'the file is left as it was');
});

test('a database from a newer schema version', async (t) => {
  const path = join(tempDir(t), 'future.db');
  const db = openDatabase(path);
  db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, ?, 0)').run('999-from-the-future.sql');
  db.close();
  assertConfigError(await runServer(['--db', path]), /its schema version 999 is newer than this server's \(\d+\); run a newer chat-server/);
});

test('a port in use', async (t) => {
  const blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  t.after(() => blocker.close());
  const { port } = blocker.address() as AddressInfo;
  assertConfigError(await runServer(['--db', ':memory:', '--port', String(port)]), new RegExp(`cannot listen on 127\\.0\\.0\\.1 port ${port} \\(--port\\): the port is already in use`));
});

test('a port that needs privileges, and an address that is not this machine\'s', async () => {
  const firstFree = Number(readFileSync('/proc/sys/net/ipv4/ip_unprivileged_port_start', 'utf8'));
  assert.ok(firstFree > 1, 'this machine reserves low ports for privileged processes');
  assertConfigError(await runServer(['--db', ':memory:', '--port', '1'], { unprivileged: true }), /cannot listen on 127\.0\.0\.1 port 1 \(--port\): permission denied/);
  // The metrics listener (a second port) is checked the same way.
  assertConfigError(await runServer(['--db', ':memory:', '--port', '0', '--metrics-port', '1'], { unprivileged: true }), /cannot listen on 127\.0\.0\.1 port 1 \(--metrics-port\): permission denied/);
  // 192.0.2.0/24 is TEST-NET-1 (RFC 5737): never an address of this machine.
  assertConfigError(await runServer(['--db', ':memory:', '--host', '192.0.2.1', '--port', '0']), /the address is not one of this machine's/);
});

test('a good configuration prints the URL of the HTML page and of /openapi.json on its start-up line', async (t) => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', '--db', ':memory:', '--port', '0', '--base-path', '/api'], { stdio: ['ignore', 'pipe', 'inherit'] });
  t.after(() => child.kill('SIGKILL'));
  let stdout = '';
  const line = await new Promise<string>((resolve) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes('\n')) resolve(stdout.split('\n', 1)[0]!);
    });
  });
  const match = /^chat-server listening on (http:\/\/127\.0\.0\.1:\d+\/api) \(database :memory:\): open (\S+) in a browser; the API is described at (\S+)$/.exec(line);
  assert.ok(match, line);
  assert.equal(match[2], `${match[1]}/`);
  assert.equal(match[3], `${match[1]}/openapi.json`);
  const page = await fetch(match[2]!, { headers: { accept: 'text/html' } });
  assert.equal(page.status, 200);
  assert.match(await page.text(), /<form [^>]*action="\/api\/session"/);
  const openapi = await fetch(match[3]!);
  assert.equal(openapi.status, 200);
  assert.equal((await openapi.json() as { openapi: string }).openapi, '3.1.0');
});
