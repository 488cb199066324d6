// --workers N with --metrics-port: one metrics port, served by the primary, summing what every worker counted.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { parsePrometheus, samplesOf, valueOf } from '../metrics/prometheus-parser.ts';
import { call } from './client.ts';
import { startExecutable } from './executable.ts';

test('with two workers the primary serves one /metrics that adds up both workers', { timeout: 60_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'chat-workers-metrics-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const server = await startExecutable(t, ['--workers', '2', '--metrics-port', '0', '--db', join(dir, 'chat.db'), '--quiet']);
  const metricsUrl = /metrics on (http:\/\/\S+)/.exec(await server.waitForStdout((text) => /metrics on http/.test(text)))![1]!;
  const requests = 40;
  // New connections each time, so the cluster spreads them over both workers.
  for (let i = 0; i < requests; i++) assert.equal((await call(server.url, 'GET', '/health')).status, 200);
  assert.equal((await call(server.url, 'GET', '/metrics')).status, 404, 'no worker serves /metrics on the API port');
  for (;;) {
    const scraped = await call(metricsUrl, 'GET', '');
    assert.equal(scraped.status, 200);
    const metrics = await parsePrometheus(scraped.text);
    const health = valueOf(metrics, 'chat_http_requests_total', { method: 'GET', route: '/health', status: '200' });
    if (health < requests) continue;
    assert.equal(health, requests, 'every request counted once, whichever worker answered it');
    assert.equal(samplesOf(metrics, 'chat_http_requests_total').length, 2, 'the /health and the /metrics 404 series, merged across workers');
    assert.ok(valueOf(metrics, 'chat_process_resident_memory_bytes') > 10_000_000, 'RSS is reported (the sum over the workers)');
    assert.ok(valueOf(metrics, 'chat_event_loop_lag_max_seconds') >= 0);
    break;
  }
});
