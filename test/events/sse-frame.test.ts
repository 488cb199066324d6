// A frame's bytes (src/events/sse-frame.ts): encoded once, shared, and in memory of their own, never a slice of
// Node's shared buffer pool, which a frame kept in the log tail would hold alive whole (bench/RESULTS.md).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatSseEvent, lazyFrameBytes } from '../../src/events/sse-frame.ts';

test('a frame\'s bytes are its UTF-8, made once, in an ArrayBuffer of exactly their size', () => {
  const text = formatSseEvent('7', 'message.created', JSON.stringify({ text: 'héllo 👋' }));
  const bytes = lazyFrameBytes(text);
  const first = bytes();
  assert.equal(first.toString('utf8'), text);
  assert.equal(bytes(), first, 'the same Buffer for every stream');
  assert.equal(first.buffer.byteLength, Buffer.byteLength(text), 'not a slice of a larger pool');
  assert.equal(first.byteOffset, 0);
  // What it replaced: Buffer.from of a short string is cut from the shared pool.
  assert.ok(Buffer.from(text).buffer.byteLength > Buffer.byteLength(text));
});
