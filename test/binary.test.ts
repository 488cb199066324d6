// The single executable: copied alone into an empty directory it serves, keeps its data across a restart,
// and leaves no extracted addon behind.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';
import { sqliteAddon } from '../scripts/sqlite-addon.ts';
import { call } from './http/client.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const BINARY = join(ROOT, 'dist', 'chat-server');
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';
const ADDON = sqliteAddon();

/** Why this platform cannot build the executable, or undefined when it can. */
function cannotBuild(): string | undefined {
  if (process.platform === 'win32') return 'scripts/build-binary.ts builds for Linux and macOS only';
  if (!isBuiltin('node:sea')) return `Node ${process.version} has no node:sea (single executables with assets need 20.12 or later)`;
  // A node linked against a shared libnode (some distributions) carries no fuse and cannot become a SEA.
  if (!readFileSync(process.execPath).includes(SEA_FUSE)) return `${process.execPath} was built without single-executable support`;
  return undefined;
}

function newestSource(): number {
  const files = [join(ROOT, 'package.json'), join(ROOT, 'package-lock.json'), join(ROOT, 'scripts', 'build-binary.ts'), ADDON, process.execPath];
  for (const dir of ['src', 'sql']) {
    for (const entry of readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })) {
      if (entry.isFile()) files.push(join(entry.parentPath, entry.name));
    }
  }
  return Math.max(...files.map((file) => statSync(file).mtimeMs));
}

/** dist/chat-server, rebuilt unless it is newer than everything it is made of. */
function buildBinary(): string {
  if (existsSync(BINARY) && statSync(BINARY).mtimeMs > newestSource()) return BINARY;
  const build = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build-binary.ts'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(build.status, 0, `the build failed:\n${build.stdout}${build.stderr}`);
  return BINARY;
}

function tempDir(t: TestContext, prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Starts the executable with only the environment given: no NODE_OPTIONS, no coverage, no node_modules. */
async function start(t: TestContext, binary: string, args: string[], env: Record<string, string>) {
  const child = spawn(binary, args, { cwd: dirname(binary), env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  t.after(() => child.kill('SIGKILL'));
  const exited = once(child, 'exit') as Promise<[number | null, string | null]>;
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => { stderr += chunk; });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: string) => {
      stdout += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(stdout);
      if (match) resolve(match[1]!);
    });
    void exited.then(([code]) => reject(new Error(`the executable exited with ${code} before listening:\n${stdout}${stderr}`)));
  });
  const stop = async (): Promise<number | null> => {
    child.kill('SIGTERM');
    const [code] = await exited;
    return code;
  };
  return { child, url, stop };
}

/** On Linux, the path the process mapped better-sqlite3's addon from, as /proc shows it. */
function mappedAddon(pid: number): string | undefined {
  const line = readFileSync(`/proc/${pid}/maps`, 'utf8').split('\n').find((entry) => entry.includes('better_sqlite3.node'));
  return line?.slice(line.indexOf('/'));
}

test('the single executable runs alone, keeps its data across a restart and removes its extracted addon', { timeout: 300_000 }, async (t) => {
  const reason = cannotBuild();
  if (reason) {
    t.skip(reason);
    return;
  }
  const dir = tempDir(t, 'chat-binary-');
  const binary = join(dir, 'chat-server');
  copyFileSync(buildBinary(), binary);
  assert.deepEqual(readdirSync(dir), ['chat-server'], 'the executable is alone, with no node_modules');
  // A private TMPDIR shows where the addon is extracted, and that nothing is left there.
  const tmp = tempDir(t, 'chat-binary-tmp-');

  const version = spawnSync(binary, ['--version'], { cwd: dir, encoding: 'utf8' });
  // The server's version and the embedded runtime's: the node that built it, this very one.
  assert.equal(version.stdout, `${(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version} (Node.js ${process.version})\n`);
  const help = spawnSync(binary, ['--help'], { cwd: dir, encoding: 'utf8' });
  assert.match(help.stdout, /^Usage: chat-server/);
  assert.match(help.stdout, /--db <value>/);

  const first = await start(t, binary, ['--port', '0', '--scrypt-n', '1024', '--quiet'], { TMPDIR: tmp });
  assert.ok(existsSync(join(dir, 'data', 'chat.db')), 'the database is created at ./data/chat.db beside where it runs');
  if (process.platform === 'linux') {
    const mapped = mappedAddon(first.child.pid!) ?? 'nothing';
    assert.ok(mapped.startsWith(`${tmp}/chat-server-`), `the addon is loaded from the embedded copy, not ${mapped}`);
    assert.match(mapped, / \(deleted\)$/, 'the extracted file is removed as soon as it is loaded');
  }
  const credentials = { login: 'single', password: 'long enough pw' };
  assert.equal((await call(first.url, 'POST', '/users', { json: credentials })).status, 201);
  const login = await call(first.url, 'POST', '/session', { json: credentials });
  assert.equal(login.status, 201);
  const chat = await call(first.url, 'POST', '/chats', { token: login.body.token, json: { data: { title: 'x' } } });
  assert.equal(chat.status, 201);
  const chatId = chat.body.data.id as string;
  const posted = await call(first.url, 'POST', `/chats/${chatId}/messages`, { token: login.body.token, json: { data: { text: 'hi' } } });
  assert.equal(posted.status, 201);
  assert.equal(await first.stop(), 0, 'SIGTERM exits 0');
  assert.deepEqual(readdirSync(tmp), [], 'no extracted addon is left after exit');

  // The same database again, this time configured through the environment.
  const second = await start(t, binary, [], { TMPDIR: tmp, PORT: '0', DB_PATH: 'data/chat.db', SCRYPT_N: '1024', QUIET: '1' });
  const again = await call(second.url, 'POST', '/session', { json: credentials });
  assert.equal(again.status, 201);
  const messages = await call(second.url, 'GET', `/chats/${chatId}/messages`, { token: again.body.token });
  assert.equal(messages.status, 200);
  assert.deepEqual(messages.body.data.map((message: { id: string; text: string }) => [message.id, message.text]), [[posted.body.data.id, 'hi']]);
  // The backup subcommand runs from the executable too, with the embedded addon, while the server runs.
  const backup = spawnSync(binary, ['backup', join(tmp, 'copy.db')], { cwd: dir, encoding: 'utf8', env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', TMPDIR: tmp } });
  assert.equal(backup.status, 0, backup.stderr);
  assert.match(backup.stdout, /^chat-server backup: copied \.\/data\/chat\.db to .*copy\.db \(\d+ pages, integrity ok, \d+ ms\)\n$/);
  rmSync(join(tmp, 'copy.db'));
  assert.equal(await second.stop(), 0);
  assert.deepEqual(readdirSync(tmp), []);

  // --workers 2: the executable forks itself; both processes serve the same file and drain on SIGTERM.
  const third = await start(t, binary, ['--port', '0', '--workers', '2', '--quiet'], { TMPDIR: tmp });
  const tokens = [];
  for (let i = 0; i < 4; i++) {
    const session = await call(third.url, 'POST', '/session', { json: credentials });
    assert.equal(session.status, 201);
    tokens.push(session.body.token as string);
  }
  for (const token of tokens) assert.equal((await call(third.url, 'GET', `/chats/${chatId}/messages`, { token })).status, 200);
  assert.equal(await third.stop(), 0, 'the primary drains its workers and exits 0');
  assert.deepEqual(readdirSync(dir).sort(), ['chat-server', 'data'], 'nothing but the executable and its data directory');
});
