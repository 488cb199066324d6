// The served OpenAPI document passes Redocly's recommended lint rules with no error (`redocly lint`).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { call, withServer } from '../http/client.ts';

const REDOCLY = fileURLToPath(new URL('../../node_modules/@redocly/cli/bin/cli.js', import.meta.url));

interface LintReport {
  totals: { errors: number; warnings: number };
  problems: { ruleId: string; severity: string; message: string }[];
}

test('redocly lint (recommended rules) finds no error and no warning in /openapi.json', async (t) => {
  const server = await withServer(t, { basePath: '/api' });
  const res = await call(server, 'GET', '/api/openapi.json');
  assert.equal(res.status, 200);
  const dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'openapi.json');
  writeFileSync(file, res.text);
  // No telemetry and no update check: the tests talk to nothing but loopback.
  const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
  // redocly exits 1 when it finds errors; the report on stdout says which, so read it either way.
  const stdout = await new Promise<string>((resolve) => {
    execFile(process.execPath, [REDOCLY, 'lint', file, '--extends=recommended', '--format=json'], { cwd: dir, env, timeout: 120_000 }, (_error, out) => resolve(out));
  });
  const report = JSON.parse(stdout) as LintReport;
  assert.deepEqual(report.problems.filter((problem) => problem.severity === 'error'), []);
  assert.equal(report.totals.errors, 0);
  assert.deepEqual(report.problems, [], 'no warning either');
});
