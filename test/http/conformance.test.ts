// The conformance kit (docs/conformance.md) against this server, in process through the exported runConformance: every
// check passes, on a fresh server as on a closed one that already has users, under a base path, with an admin's token.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatText, runConformance, type ConformanceReport } from '../../src/index.ts';
import { call, withServer } from './client.ts';

/** Every check passed; on failure the readable report says which and shows the exchanges. */
function assertAllPassed(report: ConformanceReport, skipped: readonly string[]): void {
  const failed = report.results.filter((result) => result.outcome === 'fail');
  assert.equal(failed.length, 0, formatText({ ...report, results: failed }));
  assert.deepEqual(report.results.filter((result) => result.outcome === 'skip').map((result) => result.id), skipped);
}

test('every check of the kit passes against this server, signing up on a fresh database (alice becomes its admin)', { timeout: 120_000 }, async (t) => {
  const server = await withServer(t);
  const report = await runConformance({ baseUrl: server.url });
  assert.ok(report.results.length >= 120, `${report.results.length} checks ran`);
  assertAllPassed(report, ['hardening.rates.fields']);
  assert.deepEqual(new Set(report.results.map((result) => result.level)), new Set(['core', 'events', 'features', 'hardening']));
});

test('a closed server under a base path that already has users: the kit creates its users with --admin-token, and counts writes', { timeout: 120_000 }, async (t) => {
  const server = await withServer(t, { registration: 'closed', basePath: '/api', writeRate: 600 });
  const base = `${server.url}/api`;
  const password = 'the owner of this server';
  assert.equal((await call(base, 'POST', '/users', { json: { login: 'owner', password } })).status, 201);
  const session = await call(base, 'POST', '/session', { json: { login: 'owner', password } });
  const report = await runConformance({ baseUrl: base, adminToken: session.body.token });
  assertAllPassed(report, []);
  // The kit cleaned up: none of its chats is left for the admin to see, and the server still serves.
  assert.equal((await call(base, 'GET', '/health')).status, 200);
});

test('an invite-only server that has an admin: one --invite code starts the kit, whose users then invite each other', { timeout: 120_000 }, async (t) => {
  const server = await withServer(t, { registration: 'invite' });
  const password = 'the owner of this server';
  assert.equal((await call(server.url, 'POST', '/users', { json: { login: 'owner', password } })).status, 201);
  const session = await call(server.url, 'POST', '/session', { json: { login: 'owner', password } });
  const invite = await call(server.url, 'POST', '/invites', { token: session.body.token, json: { data: { maxUses: 1 } } });
  assert.equal(invite.status, 201);
  const report = await runConformance({ baseUrl: server.url, invite: invite.body.data.code });
  // Without an admin's token the admin checks cannot run; everything else passes.
  assertAllPassed(report, ['features.audit.collection', 'features.deactivation.by-admin', 'features.moderation.admin-reads-404', 'hardening.rates.fields']);
});

test('--level, --only and --skip choose the checks; skipped ones are reported as skipped', { timeout: 60_000 }, async (t) => {
  const server = await withServer(t);
  const report = await runConformance({ baseUrl: server.url, levels: ['core'], only: ['§7.9', 'core.auth.'], skip: ['core.auth.header-wins', 'core.service.*'] });
  const outcomes = Object.fromEntries(report.results.map((result) => [result.id, result.outcome]));
  assert.equal(outcomes['core.auth.header-wins'], 'skip');
  assert.equal(outcomes['core.service.health'], 'skip');
  assert.equal(outcomes['core.auth.required-401'], 'pass');
  assert.ok(report.results.every((result) => result.id.startsWith('core.auth.') || result.section === '§7.9'), 'nothing else ran');
  assert.equal(report.counts.fail, 0);
});
