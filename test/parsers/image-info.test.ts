// Whole-image checks: valid files of each type, each way a file can be cut, corrupted or padded, and random bytes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { crc32 } from 'node:zlib';
import fc from 'fast-check';
import { inspectImage, readImageInfo, type ImageCheck } from '../../src/parsers/image-info.ts';
import { gif, jpeg, png, webp } from '../http/avatar-fixtures.ts';

const u16le = (value: number): number[] => [value & 0xff, value >> 8];
const u24le = (value: number): number[] => [value & 0xff, (value >> 8) & 0xff, value >> 16];
const u32le = (value: number): number[] => [value & 0xff, (value >> 8) & 0xff, (value >> 16) & 0xff, value >>> 24];
const ascii = (text: string): number[] => [...Buffer.from(text, 'latin1')];

/** RIFF/WEBP around chunks, each padded to an even size. */
function riff(...chunks: [string, number[]][]): Buffer {
  const body = chunks.flatMap(([fourCC, data]) => [...ascii(fourCC), ...u32le(data.length), ...data, ...(data.length % 2 ? [0] : [])]);
  return Buffer.from([...ascii('RIFF'), ...u32le(body.length + 4), ...ascii('WEBP'), ...body]);
}

/** A VP8 key frame header (shown, first partition of 0 bytes), start code, 14-bit width and height. */
const vp8 = (width: number, height: number): number[] => [0x10, 0, 0, 0x9d, 0x01, 0x2a, ...u16le(width), ...u16le(height)];
const vp8l = (width: number, height: number): number[] => [0x2f, ...u32le(((width - 1) | ((height - 1) << 14)) >>> 0), 0];
const vp8x = (width: number, height: number, flags = 0): number[] => [flags, 0, 0, 0, ...u24le(width - 1), ...u24le(height - 1)];

/** Replaces one PNG chunk's data at `at` (its length field) and fixes its CRC, as an attacker would. */
function withPngChunkData(bytes: Buffer, at: number, data: Buffer): Buffer {
  const copy = Buffer.from(bytes);
  data.copy(copy, at + 8);
  copy.writeUInt32BE(crc32(copy.subarray(at + 4, at + 8 + data.length)), at + 8 + data.length);
  return copy;
}

function withByte(bytes: Buffer, at: number, value: number): Buffer {
  const copy = Buffer.from(bytes);
  copy[at] = value;
  return copy;
}

const valid: { what: string; input: Buffer; expected: [string, number, number] }[] = [
  { what: 'a 1x1 PNG', input: png(1, 1), expected: ['image/png', 1, 1] },
  { what: 'a PNG padded with a tEXt chunk', input: png(3, 2, 200), expected: ['image/png', 3, 2] },
  { what: 'a baseline JPEG', input: jpeg(640, 480), expected: ['image/jpeg', 640, 480] },
  { what: 'a JPEG with fill bytes before a marker', input: Buffer.concat([jpeg(9, 9).subarray(0, 2), Buffer.from([0xff, 0xff]), jpeg(9, 9).subarray(2)]), expected: ['image/jpeg', 9, 9] },
  { what: 'a GIF', input: gif(320, 200), expected: ['image/gif', 320, 200] },
  { what: 'a lossless WebP', input: webp(300, 200), expected: ['image/webp', 300, 200] },
  { what: 'a lossy WebP', input: riff(['VP8 ', vp8(16, 9)]), expected: ['image/webp', 16, 9] },
  { what: 'an extended WebP with EXIF', input: riff(['VP8X', vp8x(7, 5)], ['VP8L', vp8l(7, 5)], ['EXIF', [1, 2, 3]]), expected: ['image/webp', 7, 5] },
  { what: 'an animated WebP', input: riff(['VP8X', vp8x(7, 5, 0x02)], ['ANIM', [0, 0, 0, 0, 0, 0]], ['ANMF', Array(16).fill(0)]), expected: ['image/webp', 7, 5] },
];

for (const { what, input, expected } of valid) {
  test(`accepts ${what}`, () => {
    const check = inspectImage(input);
    assert.deepEqual(check, { kind: 'image', info: { contentType: expected[0], width: expected[1], height: expected[2] } });
    assert.deepEqual(readImageInfo(input), { contentType: expected[0], width: expected[1], height: expected[2] });
  });
}

const HTML = Buffer.from('<html><script>alert(1)</script></html>');
const onePixel = png(1, 1);
const relabelled = (width: number, height: number): Buffer => {
  const data = Buffer.from(onePixel.subarray(16, 29));
  data.writeUInt32BE(width, 0);
  data.writeUInt32BE(height, 4);
  return withPngChunkData(onePixel, 8, data);
};

const invalid: { what: string; input: Buffer; reason: RegExp }[] = [
  { what: 'a PNG header followed by HTML', input: Buffer.concat([onePixel.subarray(0, 33), HTML]), reason: /cut short|CRC|chunk type/ },
  { what: 'a PNG with HTML appended', input: Buffer.concat([onePixel, HTML]), reason: /bytes after IEND/ },
  { what: 'a PNG relabelled without fixing the CRC', input: withByte(onePixel, 17, 0x10), reason: /wrong CRC in the IHDR/ },
  { what: 'a PNG of zero width', input: relabelled(0, 5), reason: /width or height/ },
  { what: 'a PNG wider than 2^31-1', input: relabelled(0x80000000, 5), reason: /width or height/ },
  { what: 'a PNG without IEND', input: onePixel.subarray(0, onePixel.length - 12), reason: /cut short/ },
  { what: 'a PNG whose first chunk is not IHDR', input: Buffer.concat([onePixel.subarray(0, 8), onePixel.subarray(33)]), reason: /IHDR/ },
  { what: 'a JPEG without a scan', input: Buffer.concat([jpeg(8, 8).subarray(0, 2), Buffer.from([0xff, 0xd9])]), reason: /before its frame and scan/ },
  { what: 'a JPEG cut inside its scan', input: jpeg(64, 64).subarray(0, -4), reason: /cut short/ },
  { what: 'a JPEG with bytes after EOI', input: Buffer.concat([jpeg(8, 8), HTML]), reason: /after EOI/ },
  { what: 'a GIF cut to 10 bytes', input: gif(8, 8).subarray(0, 10), reason: /cut short/ },
  { what: 'a GIF header with the trailer and no image', input: Buffer.concat([gif(8, 8).subarray(0, 19), Buffer.from([0x3b])]), reason: /no image/ },
  { what: 'a GIF with bytes after the trailer', input: Buffer.concat([gif(8, 8), HTML]), reason: /after the trailer/ },
  { what: 'a GIF with an unknown block', input: withByte(gif(8, 8), 19, 0x99), reason: /unknown block/ },
  { what: 'a WebP whose RIFF size is too large', input: Buffer.concat([webp(8, 8), Buffer.from([0, 0])]), reason: /RIFF size/ },
  { what: 'a WebP whose RIFF size is too small', input: webp(8, 8).subarray(0, 20), reason: /RIFF size/ },
  { what: 'a lossy WebP that is not a key frame', input: riff(['VP8 ', [0x11, ...vp8(5, 5).slice(1)]]), reason: /key frame/ },
  { what: 'a lossy WebP without its start code', input: riff(['VP8 ', [0x10, 0, 0, 0x9d, 0x02, 0x2a, 5, 0, 5, 0]]), reason: /start code/ },
  { what: 'a lossless WebP of another version', input: riff(['VP8L', [0x2f, 0, 0, 0, 0x20]]), reason: /version/ },
  { what: 'a simple WebP with a second chunk', input: riff(['VP8L', vp8l(5, 5)], ['VP8L', vp8l(5, 5)]), reason: /after a simple/ },
  { what: 'an extended WebP whose image differs from its canvas', input: riff(['VP8X', vp8x(7, 5)], ['VP8L', vp8l(70, 5)]), reason: /differs from its canvas/ },
  { what: 'an extended WebP without an image', input: riff(['VP8X', vp8x(7, 5)]), reason: /0 image bitstreams/ },
  { what: 'a WebP whose first chunk is ALPH', input: riff(['ALPH', [1, 2, 3, 4]]), reason: /starts with a ALPH/ },
];

for (const { what, input, reason } of invalid) {
  test(`refuses ${what}`, () => {
    const check = inspectImage(input);
    assert.equal(check.kind, 'invalid', JSON.stringify(check));
    assert.match((check as Extract<ImageCheck, { kind: 'invalid' }>).reason, reason);
    assert.equal(readImageInfo(input), null);
  });
}

test('a PNG relabelled 100000x100000 with a fixed CRC is whole: only the pixel limit (over HTTP) refuses it', () => {
  assert.deepEqual(inspectImage(relabelled(100_000, 100_000)), { kind: 'image', info: { contentType: 'image/png', width: 100_000, height: 100_000 } });
});

test('bytes of no known type are unknown, not invalid', () => {
  for (const input of [HTML, Buffer.alloc(0), Buffer.from('GIF90a'), Buffer.from('RIFF\0\0\0\0WAVEfmt '), onePixel.subarray(0, 7)]) {
    assert.deepEqual(inspectImage(input), { kind: 'unknown' });
  }
});

const SAMPLES = [png(9, 8), png(2, 2, 300), jpeg(17, 9), gif(9, 8), webp(9, 8), riff(['VP8 ', vp8(16, 9)]), riff(['VP8X', vp8x(7, 5)], ['VP8L', vp8l(7, 5)])];

test('every strict prefix of a valid image is refused', () => {
  for (const sample of SAMPLES) {
    for (let cut = 0; cut < sample.length; cut++) {
      assert.notEqual(inspectImage(sample.subarray(0, cut)).kind, 'image', `prefix of ${cut} of ${sample.length} bytes`);
    }
  }
});

test('any bytes appended to a valid image are refused', () => {
  fc.assert(
    fc.property(fc.constantFrom(...SAMPLES), fc.uint8Array({ minLength: 1, maxLength: 64 }), (sample, extra) => {
      assert.equal(inspectImage(Buffer.concat([sample, extra])).kind, 'invalid');
    }),
    { numRuns: 500 },
  );
});

test('any change to any byte of a PNG is refused (every chunk carries a CRC)', () => {
  fc.assert(
    fc.property(fc.constantFrom(png(9, 8), png(2, 2, 300)), fc.nat(), fc.integer({ min: 1, max: 255 }), (sample, at, delta) => {
      const index = at % sample.length;
      assert.notEqual(inspectImage(withByte(sample, index, (sample[index]! + delta) & 0xff)).kind, 'image');
    }),
    { numRuns: 2000 },
  );
});

test('random bytes and corrupted images never throw and never yield a zero dimension', () => {
  fc.assert(
    fc.property(fc.constantFrom(...SAMPLES), fc.nat(), fc.nat(), fc.integer({ min: 0, max: 255 }), (sample, cut, at, value) => {
      const bytes = withByte(sample, at % sample.length, value).subarray(0, cut % (sample.length + 1));
      const check = inspectImage(bytes);
      if (check.kind === 'image') assert.ok(check.info.width > 0 && check.info.height > 0);
    }),
    { numRuns: 2000 },
  );
  fc.assert(fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
    inspectImage(Buffer.from(bytes));
  }), { numRuns: 1000 });
});
