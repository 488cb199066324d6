// The four reports of one run: text per section, JUnit XML that parses whatever the server answered, TAP 13, JSON.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { XMLValidator } from 'fast-xml-parser';
import { formatJson, formatJunit, formatTap, formatText, type ConformanceReport } from '../../src/conformance/index.ts';

const REPORT: ConformanceReport = {
  baseUrl: 'http://example.test', startedAt: '2026-11-27T10:00:00.000Z', durationMs: 1234, counts: { pass: 1, fail: 1, skip: 1 },
  results: [
    { id: 'core.chats.create-201', section: '§4.2', rule: 'POST /chats: 201', level: 'core', outcome: 'pass', durationMs: 5 },
    {
      id: 'core.visibility.unknown-404', section: '§4.1', rule: 'A chat that does not exist answers 404 <&">', level: 'core', outcome: 'fail', durationMs: 7,
      message: 'expected status 404, got 200',
      exchanges: [{ method: 'GET', url: 'http://example.test/chats/x', requestHeaders: { Authorization: 'Bearer secret-token' }, status: 200, responseHeaders: { 'content-type': 'application/json', date: 'today' }, responseBody: '{"data":"\u0001<x>"}' }],
    },
    { id: 'features.audit.collection', section: '§13.3', rule: 'GET /audit', level: 'features', outcome: 'skip', durationMs: 0, message: 'needs an admin' },
  ],
};

test('the text report goes by section in the order of the document, shows each failure\'s exchange, and hides the token', () => {
  const text = formatText(REPORT);
  assert.equal(text, [
    'Conformance of http://example.test (docs/protocol.md), 2026-11-27T10:00:00.000Z', '',
    '§4.1  0/1, 1 failed',
    '  FAIL  core.visibility.unknown-404: A chat that does not exist answers 404 <&">',
    '      expected status 404, got 200',
    '      > GET http://example.test/chats/x', '      > Authorization: Bearer [token]', '      < 200', '      < content-type: application/json', '      < {"data":"\u0001<x>"}',
    '§4.2  1/1', '  pass  core.chats.create-201: POST /chats: 201',
    '§13.3  0/1, 1 skipped', '  skip  features.audit.collection: GET /audit', '      (needs an admin)',
    '', '1 passed, 1 failed, 1 skipped in 1.2 s', '',
  ].join('\n'));
});

test('JUnit XML is well-formed with any characters, one suite per section; TAP 13 and JSON carry the same results', () => {
  const junit = formatJunit(REPORT);
  assert.equal(XMLValidator.validate(junit), true);
  assert.match(junit, /<testsuite name="§4\.1" tests="1" failures="1" skipped="0">/);
  assert.match(junit, /<failure message="expected status 404, got 200">expected status 404, got 200\n {6}&gt; GET/);
  assert.ok(!junit.includes('secret-token'));
  const tap = formatTap(REPORT).split('\n');
  assert.deepEqual([tap[0], tap[1], tap[2]], ['TAP version 13', '1..3', 'ok 1 - core.chats.create-201 (§4.2)']);
  assert.equal(tap[3], 'not ok 2 - core.visibility.unknown-404 (§4.1)');
  assert.ok(tap.includes('ok 3 - features.audit.collection (§13.3) # SKIP needs an admin'));
  assert.deepEqual(JSON.parse(formatJson(REPORT)), REPORT);
});
