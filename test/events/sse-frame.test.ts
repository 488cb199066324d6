// A frame's chunk bytes (src/events/sse-frame.ts): framed as an HTTP/1.1 chunk, encoded once, shared, and in memory
// of their own, never a slice of Node's shared buffer pool, which a frame kept in the log tail would hold alive whole
// (bench/RESULTS.md).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chunkOf, formatSseEvent, lazyChunkBytes } from '../../src/events/sse-frame.ts';

test('a frame as a chunk: its size in bytes (not characters) in hexadecimal, the UTF-8, CRLF', () => {
  const text = formatSseEvent('7', 'message.created', JSON.stringify({ text: 'héllo 👋' }));
  const size = Buffer.byteLength(text);
  assert.equal(size - text.length, 3, 'é is two bytes (one unit), the emoji four (two UTF-16 units)');
  assert.equal(chunkOf(text), `${size.toString(16)}\r\n${text}\r\n`);
  assert.equal(chunkOf(''), '0\r\n\r\n');
});

test('a frame\'s chunk bytes are its chunk\'s UTF-8, made once, in an ArrayBuffer of exactly their size', () => {
  const text = formatSseEvent('7', 'message.created', JSON.stringify({ text: 'héllo 👋' }));
  const bytes = lazyChunkBytes(text);
  const first = bytes();
  assert.equal(first.toString('utf8'), chunkOf(text));
  assert.equal(bytes(), first, 'the same Buffer for every stream');
  assert.equal(first.buffer.byteLength, Buffer.byteLength(chunkOf(text)), 'not a slice of a larger pool');
  assert.equal(first.byteOffset, 0);
  // What it replaced: Buffer.from of a short string is cut from the shared pool.
  assert.ok(Buffer.from(text).buffer.byteLength > Buffer.byteLength(text));
});
