// The presence rule (src/events/presence-rule.ts, docs/protocol.md §14.6), at each boundary.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AWAY_MS, computePresence, ONLINE_MS, STREAM_GRACE_MS } from '../../src/events/presence-rule.ts';

const NOW = Date.UTC(2026, 10, 21, 9, 30);

test('an open stream is online, whatever else is known', () => {
  assert.equal(computePresence({ streamOpen: true, lastActivity: null, leftAt: NOW - 1, now: NOW }), 'online');
  assert.equal(computePresence({ streamOpen: true, lastActivity: NOW - AWAY_MS * 2, leftAt: null, now: NOW }), 'online');
});

test('without a stream, the last request: online under 2 minutes, away under 30, then offline; none is offline', () => {
  const at = (idle: number) => computePresence({ streamOpen: false, lastActivity: NOW - idle, leftAt: null, now: NOW });
  assert.equal(computePresence({ streamOpen: false, lastActivity: null, leftAt: null, now: NOW }), 'offline');
  assert.equal(at(0), 'online');
  assert.equal(at(ONLINE_MS - 1), 'online');
  assert.equal(at(ONLINE_MS), 'away');
  assert.equal(at(AWAY_MS - 1), 'away');
  assert.equal(at(AWAY_MS), 'offline');
});

test('after the last stream closed: online for the grace, then requests before the close do not count, later ones do', () => {
  const leftAt = NOW - STREAM_GRACE_MS;
  assert.equal(computePresence({ streamOpen: false, lastActivity: leftAt - 1, leftAt: NOW - STREAM_GRACE_MS + 1, now: NOW }), 'online', 'within the grace');
  assert.equal(computePresence({ streamOpen: false, lastActivity: leftAt - 1, leftAt, now: NOW }), 'offline');
  assert.equal(computePresence({ streamOpen: false, lastActivity: leftAt, leftAt, now: NOW }), 'offline');
  assert.equal(computePresence({ streamOpen: false, lastActivity: leftAt + 1, leftAt, now: NOW }), 'online');
});
