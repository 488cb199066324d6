import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { isoTime } from '../../src/representations/iso-time.ts';

test('isoTime writes exactly what Date#toISOString writes, for any time it can write', () => {
  fc.assert(fc.property(fc.integer({ min: -8.64e15, max: 8.64e15 }), (ms) => {
    assert.equal(isoTime(ms), new Date(ms).toISOString());
  }), { numRuns: 20_000 });
});

test('isoTime at the edges: the epoch, day and year boundaries, years 0000 and 9999 and beyond, non-integers', () => {
  const edges = [0, -1, 1, 86_399_999, 86_400_000, -86_400_000, Date.UTC(2026, 0, 1) - 1, Date.UTC(2024, 1, 29, 23, 59, 59, 999),
    -62_167_219_200_000, -62_167_219_200_001, 253_402_300_799_999, 253_402_300_800_000, 8.64e15, -8.64e15, 1.5, -0.5];
  for (const ms of edges) assert.equal(isoTime(ms), new Date(ms).toISOString(), String(ms));
  // Two calls in turn on different days: the remembered day does not leak into the next one.
  assert.equal(isoTime(Date.UTC(2026, 10, 23, 1, 2, 3, 4)), '2026-11-23T01:02:03.004Z');
  assert.equal(isoTime(Date.UTC(1999, 11, 31, 23, 59, 59, 999)), '1999-12-31T23:59:59.999Z');
  assert.equal(isoTime(Date.UTC(2026, 10, 23, 1, 2, 3, 5)), '2026-11-23T01:02:03.005Z');
});

test('isoTime refuses what toISOString refuses (NaN, beyond ±8.64e15 ms) with the same RangeError', () => {
  for (const ms of [Number.NaN, 8.64e15 + 1, Number.POSITIVE_INFINITY]) assert.throws(() => isoTime(ms), RangeError);
});
