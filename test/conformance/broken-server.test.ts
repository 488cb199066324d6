// The kit cannot pass vacuously: against a server that breaks a handful of rules on purpose (broken-server.ts), exactly
// the checks of those rules fail, each with the exchange that shows it, and everything else still passes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatText, runConformance } from '../../src/index.ts';
import { withServer } from '../http/client.ts';
import { startBrokenServer } from './broken-server.ts';

// Which checks each breakage trips, and why (docs/protocol.md sections in brackets).
const EXPECTED_FAILURES = [
  // found-not-404 [§4.1]: every check that reads a missing or hidden chat and expects its 404.
  'core.bodies.id-mismatch-400', 'core.visibility.unknown-404', 'core.visibility.hidden-404', 'core.chats.delete-204',
  'core.members.leave-204', 'core.errors.problem-json', 'core.errors.problem-xml', 'core.conditional.put-stars',
  'features.moderation.admin-reads-404', 'hardening.input.odd-paths',
  // bad-json-500 [§7.2]: unparseable JSON to POST /chats.
  'core.bodies.bad-json-400', 'hardening.errors.no-details',
  // user-without-etag [§7.7].
  'core.conditional.user-etag',
  // resume-loses-one [§9.3, §9.5]: the first replayed event never arrives.
  'events.resume.last-event-id', 'events.resume.header-wins', 'events.resume.no-duplicate', 'events.delete.redacts',
].sort();

test('against a server that breaks four rules, exactly the checks of those rules fail', { timeout: 120_000 }, async (t) => {
  const server = await withServer(t);
  const broken = await startBrokenServer(server.url, ['found-not-404', 'user-without-etag', 'resume-loses-one', 'bad-json-500']);
  t.after(() => broken.close());
  const report = await runConformance({ baseUrl: broken.url });
  const failed = report.results.filter((result) => result.outcome === 'fail');
  assert.deepEqual(failed.map((result) => result.id).sort(), EXPECTED_FAILURES, formatText({ ...report, results: failed }));
  assert.deepEqual(report.results.filter((result) => result.outcome === 'skip').map((result) => result.id), ['hardening.rates.fields']);

  // Each failure says what was due and shows the request and the answer that broke the rule.
  const unknown = failed.find((result) => result.id === 'core.visibility.unknown-404')!;
  assert.match(unknown.message!, /^GET \/chats\/missing-k[0-9a-f]{10}-\d+: expected status 404, got 200$/);
  assert.equal(unknown.exchanges!.at(-1)!.status, 200);
  assert.match(unknown.exchanges!.at(-1)!.url, /\/chats\/missing-/);
  const etag = failed.find((result) => result.id === 'core.conditional.user-etag')!;
  assert.equal(etag.message, 'the ETag of the user: expected to match /^"[^"]+"$/, got undefined');
  const text = formatText(report);
  assert.match(text, /^§4\.1 {2}1\/3, 2 failed$/m);
  assert.match(text, /^ {2}FAIL {2}core\.bodies\.bad-json-400: Unparseable JSON/m);
  assert.match(text, /^ {6}< 500$/m);
});
