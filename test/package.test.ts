// Embedding from another project: `npm pack`, install the tarball into an empty project, start a server
// from a plain `node` script, and type-check a TypeScript consumer against the shipped declarations.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
// Children are not measured: their coverage would only slow the report, and lib/ is not src/.
// Node passes NODE_V8_COVERAGE on to children unless the env sets it, so it is set empty: off.
const CHILD_ENV = { ...process.env, NODE_V8_COVERAGE: '' };

function run(command: string, args: string[], cwd: string): string {
  return execFileSync(command, args, { cwd, env: CHILD_ENV, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

// What the embedding script does with nothing but the package: a server on :memory: and port 0,
// then one on a file (so the compiled code finds its migrations), a user registered on each.
const SCRIPT = `
import { runConformance, startServer, StartupError } from 'chat-api';
const results = [];
for (const db of [':memory:', process.argv[2]]) {
  const server = await startServer({ db, port: 0 });
  const res = await fetch(server.url + '/users', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ login: 'embedded', password: 'password1' }) });
  results.push({ url: server.url, status: res.status, login: (await res.json()).login });
  if (db === ':memory:') results.push((await runConformance({ baseUrl: server.url, only: ['§7.9'] })).counts);
  await server.close();
}
const failure = await startServer({ db: '/proc/nope/x.db', port: 0 }).catch((error) => error);
results.push({ startupError: failure instanceof StartupError, message: failure.message });
console.log(JSON.stringify(results));
`;

const CONSUMER = `
import { runConformance, startServer, type ConformanceReport, type RunningServer, type StartOptions } from 'chat-api';
const options: StartOptions = { db: ':memory:', port: 0, basePath: '/api', maxBodyBytes: 1024 };
const server: RunningServer = await startServer(options);
const port: number = server.port;
const report: ConformanceReport = await runConformance({ baseUrl: server.url + '/api', levels: ['core'], only: ['core.service.health'] });
const failed: number = report.counts.fail;
await server.close();
export { port, failed };
`;

const WRONG = `
import { startServer } from 'chat-api';
await startServer({ port: 'eighty' });
`;

const TSCONFIG = { compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, types: ['node'] } };

test('the packed tarball installs into another project, starts from plain node, and type-checks', { timeout: 300_000 }, (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'chat-package-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));

  // `npm pack` runs `prepare`, which compiles src/ to lib/ (JavaScript and .d.ts).
  const tarball = join(dir, run('npm', ['pack', '--silent', '--pack-destination', dir], ROOT).trim().split('\n').pop()!);
  const listing = run('tar', ['-tzf', tarball], dir).split('\n').filter((line) => line !== '');
  for (const needed of ['package/package.json', 'package/lib/index.js', 'package/lib/index.d.ts', 'package/lib/storage/sqlite/database.js', 'package/sql/migrations/001-users-sessions.sql', 'package/sql/postgres/001-schema.sql']) {
    assert.ok(listing.includes(needed), `the tarball holds ${needed}`);
  }
  const strays = listing.filter((file) => !/^package\/(package\.json|README\.md|lib\/.+\.(js|d\.ts)|sql\/(migrations|postgres)\/\d{3}-[a-z0-9-]+\.sql)$/.test(file));
  assert.deepEqual(strays, [], 'nothing else: no src/, test/, bench/, scripts/ or docs');

  const project = join(dir, 'consumer');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  // The dependencies come from npm's cache (or the registry). No script is needed: better-sqlite3 brings its addon
  // prebuilt, the tarball its compiled lib/ (run under `npx c8`, npm would otherwise refuse the tarball's `prepare`
  // as an install script nobody allowed: npx hands this project's strict-allow-scripts to its children).
  run('npm', ['install', '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund', tarball], project);
  assert.deepEqual(readdirSync(join(project, 'node_modules', 'chat-api')).sort(), ['README.md', 'lib', 'package.json', 'sql']);

  writeFileSync(join(project, 'start.mjs'), SCRIPT);
  const started = spawnSync(process.execPath, ['start.mjs', join(project, 'data', 'chat.db')], { cwd: project, env: CHILD_ENV, encoding: 'utf8' });
  assert.equal(started.status, 0, started.stderr);
  const [memory, conformance, file, failure] = JSON.parse(started.stdout) as [{ url: string; status: number; login: string }, Record<string, number>, { status: number; login: string }, { startupError: boolean; message: string }];
  assert.deepEqual(conformance, { pass: 3, fail: 0, skip: 0 }, 'the conformance kit runs from the package (docs/conformance.md)');
  assert.match(memory.url, /^http:\/\/127\.0\.0\.1:\d+$/);
  assert.deepEqual([memory.status, memory.login, file.status, file.login], [201, 'embedded', 201, 'embedded']);
  assert.equal(failure.startupError, true);
  assert.match(failure.message, /^cannot open the database \/proc\/nope\/x\.db/);

  // One type-check of two files: the consumer must pass, and the wrong one must fail, so the types are
  // real and not `any`. Every error must be in wrong.ts.
  writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ ...TSCONFIG, include: ['consumer.ts', 'wrong.ts'] }));
  writeFileSync(join(project, 'consumer.ts'), CONSUMER);
  writeFileSync(join(project, 'wrong.ts'), WRONG);
  const checked = spawnSync(process.execPath, [TSC, '-p', '.'], { cwd: project, env: CHILD_ENV, encoding: 'utf8' });
  const errors = checked.stdout.split('\n').filter((line) => / error TS\d+:/.test(line));
  assert.notEqual(checked.status, 0);
  assert.deepEqual(errors.filter((line) => !line.startsWith('wrong.ts(')), [], checked.stdout);
  assert.match(errors.join('\n'), /^wrong\.ts\(3,\d+\): error TS2322: Type 'string' is not assignable to type 'number'/m);
});
