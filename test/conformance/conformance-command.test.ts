// `chat-server conformance <base-url>`: the options, the four reporters, and the exit codes (0 all passed, 1 a failure,
// 2 bad usage or a server out of reach), run as the executable is run.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { withServer } from '../http/client.ts';
import { startBrokenServer } from './broken-server.ts';

const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));

function runCommand(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, 'conformance', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => { stdout += chunk; });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk; });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

test('bad usage and a server out of reach exit 2 with one line', { timeout: 60_000 }, async () => {
  const none = await runCommand([]);
  assert.equal(none.code, 2);
  assert.match(none.stderr, /^chat-server conformance: usage: chat-server conformance <base-url> /);
  const level = await runCommand(['http://127.0.0.1:1', '--level', 'core,extreme']);
  assert.deepEqual([level.code, level.stderr], [2, 'chat-server conformance: unknown level extreme: the levels are core, events, features, hardening\n']);
  const reporter = await runCommand(['http://127.0.0.1:1', '--reporter', 'html']);
  assert.deepEqual([reporter.code, reporter.stderr], [2, 'chat-server conformance: unknown reporter html: text, junit, json or tap\n']);
  const away = await runCommand(['http://127.0.0.1:1']);
  assert.equal(away.code, 2);
  assert.match(away.stderr, /^chat-server conformance: cannot reach http:\/\/127\.0\.0\.1:1: .*ECONNREFUSED/);
});

test('all passed: exit 0; the JUnit report goes to --output, a skip file skips', { timeout: 60_000 }, async (t) => {
  const server = await withServer(t);
  const dir = mkdtempSync(join(tmpdir(), 'chat-conformance-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'skip.txt'), '# this server has no docs page today\ncore.service.openapi  # nor this\n\n');
  const output = join(dir, 'report.xml');
  const run = await runCommand([server.url, '--only', 'core.service.', '--skip-file', join(dir, 'skip.txt'), '--reporter', 'junit', '--output', output]);
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.equal(run.stdout, `\n2 passed, 0 failed, 1 skipped; the junit report is in ${output}\n`);
  const junit = readFileSync(output, 'utf8');
  assert.match(junit, /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<testsuites name="chat protocol conformance" tests="3" failures="0" skipped="1" /);
  assert.match(junit, /<testsuite name="§7\.9" tests="3" failures="0" skipped="1">/);
  assert.match(junit, /<skipped message="skipped by --skip"\/>/);
  const json = await runCommand([server.url, '--only', 'core.service.health', '--reporter', 'json']);
  assert.equal(json.code, 0);
  const report = JSON.parse(json.stdout);
  assert.deepEqual([report.counts, report.results[0].id, report.results[0].section], [{ pass: 1, fail: 0, skip: 0 }, 'core.service.health', '§7.9']);
});

test('a failure: exit 1, and the TAP and text reports show the rule, the request and the answer', { timeout: 60_000 }, async (t) => {
  const server = await withServer(t);
  const broken = await startBrokenServer(server.url, ['found-not-404']);
  t.after(() => broken.close());
  const tap = await runCommand([broken.url, '--only', 'core.visibility.unknown-404,core.service.health', '--reporter', 'tap']);
  assert.equal(tap.code, 1);
  const lines = tap.stdout.split('\n');
  assert.deepEqual(lines.slice(0, 4), ['TAP version 13', '1..2', 'not ok 1 - core.visibility.unknown-404 (§4.1)', '  ---']);
  assert.ok(lines.some((line) => /^ {2}message: "GET \/chats\/missing-\S+: expected status 404, got 200"$/.test(line)), tap.stdout);
  assert.ok(lines.includes('ok 2 - core.service.health (§7.9)'));
  const text = await runCommand([broken.url, '--only', 'core.visibility.unknown-404']);
  assert.equal(text.code, 1);
  assert.match(text.stdout, /^§4\.1 {2}0\/1, 1 failed\n {2}FAIL {2}core\.visibility\.unknown-404: A chat that does not exist answers 404\n {6}GET \/chats\/missing-\S+: expected status 404, got 200\n {6}> GET http:\/\/127\.0\.0\.1:\d+\/chats\/missing-/m);
  assert.match(text.stdout, /^ {6}> Authorization: Bearer \[token\]$/m);
  assert.match(text.stdout, /^ {6}< \{"data":null\}$/m);
  assert.match(text.stdout, /\n0 passed, 1 failed, 0 skipped in \d+\.\d s\n$/);
});
