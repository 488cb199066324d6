// Image recognition: minimal PNG, JPEG, GIF and WebP headers built by hand, truncations, and random bytes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { readImageInfo, type ImageInfo } from '../../src/parsers/image-info.ts';

const u16be = (value: number): number[] => [value >> 8, value & 0xff];
const u16le = (value: number): number[] => [value & 0xff, value >> 8];
const u24le = (value: number): number[] => [value & 0xff, (value >> 8) & 0xff, value >> 16];
const u32be = (value: number): number[] => [value >>> 24, (value >> 16) & 0xff, (value >> 8) & 0xff, value & 0xff];
const u32le = (value: number): number[] => u32be(value).reverse();
const ascii = (text: string): number[] => [...Buffer.from(text, 'latin1')];

/** An image header and the number of leading bytes readImageInfo needs from it. */
interface Sample {
  bytes: Buffer;
  needed: number;
}

function png(width: number, height: number): Sample {
  const ihdr = [...u32be(13), ...ascii('IHDR'), ...u32be(width), ...u32be(height), 8, 6, 0, 0, 0, 0, 0, 0, 0];
  return { bytes: Buffer.from([0x89, ...ascii('PNG\r\n\x1a\n'), ...ihdr]), needed: 24 };
}

/** SOI, APP0 (JFIF), optional fill bytes and a standalone RST0, DQT, then a frame header. */
function jpeg(width: number, height: number, frameMarker = 0xc0): Sample {
  const app0 = [0xff, 0xe0, ...u16be(16), ...ascii('JFIF\0'), 1, 1, 0, 0, 1, 0, 1, 0, 0];
  const dqt = [0xff, 0xff, 0xff, 0xd0, 0xff, 0xdb, ...u16be(67), 0, ...Array<number>(64).fill(1)];
  const head = [0xff, 0xd8, ...app0, ...dqt];
  const sof = [0xff, frameMarker, ...u16be(11), 8, ...u16be(height), ...u16be(width), 1, 1, 0x11, 0];
  return { bytes: Buffer.from([...head, ...sof, 0xff, 0xd9]), needed: head.length + 9 };
}

function gif(width: number, height: number, version = 'GIF89a'): Sample {
  return { bytes: Buffer.from([...ascii(version), ...u16le(width), ...u16le(height), 0xf0, 0, 0]), needed: 10 };
}

function riff(chunk: string, data: number[]): Buffer {
  return Buffer.from([...ascii('RIFF'), ...u32le(data.length + 12), ...ascii('WEBP'), ...ascii(chunk), ...u32le(data.length), ...data]);
}

function webpLossy(width: number, height: number): Sample {
  return { bytes: riff('VP8 ', [0x10, 0x02, 0x00, 0x9d, 0x01, 0x2a, ...u16le(width), ...u16le(height), 0, 0]), needed: 30 };
}

function webpLossless(width: number, height: number): Sample {
  const bits = ((width - 1) | ((height - 1) << 14) | (1 << 28)) >>> 0;
  return { bytes: riff('VP8L', [0x2f, ...u32le(bits), 0, 0, 0]), needed: 25 };
}

function webpExtended(width: number, height: number): Sample {
  return { bytes: riff('VP8X', [0x10, 0, 0, 0, ...u24le(width - 1), ...u24le(height - 1)]), needed: 30 };
}

const valid: { what: string; input: Sample; expected: ImageInfo }[] = [
  { what: 'a 1x1 PNG', input: png(1, 1), expected: { contentType: 'image/png', width: 1, height: 1 } },
  { what: 'a wide PNG', input: png(70000, 3), expected: { contentType: 'image/png', width: 70000, height: 3 } },
  { what: 'a baseline JPEG', input: jpeg(640, 480), expected: { contentType: 'image/jpeg', width: 640, height: 480 } },
  { what: 'a progressive JPEG (SOF2)', input: jpeg(65535, 1, 0xc2), expected: { contentType: 'image/jpeg', width: 65535, height: 1 } },
  { what: 'a lossless arithmetic JPEG (SOF15)', input: jpeg(3, 2, 0xcf), expected: { contentType: 'image/jpeg', width: 3, height: 2 } },
  { what: 'a GIF89a', input: gif(320, 200), expected: { contentType: 'image/gif', width: 320, height: 200 } },
  { what: 'a GIF87a', input: gif(1, 65535, 'GIF87a'), expected: { contentType: 'image/gif', width: 1, height: 65535 } },
  { what: 'a lossy WebP', input: webpLossy(16383, 7), expected: { contentType: 'image/webp', width: 16383, height: 7 } },
  { what: 'a lossy WebP ignores the scaling bits', input: webpLossy(0xc000 | 100, 0x4000 | 50), expected: { contentType: 'image/webp', width: 100, height: 50 } },
  { what: 'a lossless WebP', input: webpLossless(16384, 1), expected: { contentType: 'image/webp', width: 16384, height: 1 } },
  { what: 'an extended WebP', input: webpExtended(1 << 24, 2), expected: { contentType: 'image/webp', width: 1 << 24, height: 2 } },
];

for (const { what, input, expected } of valid) {
  test(`reads ${what}`, () => {
    assert.deepEqual(readImageInfo(input.bytes), expected);
    assert.deepEqual(readImageInfo(input.bytes.subarray(0, input.needed)), expected, 'the header alone is enough');
    for (let length = 0; length < input.needed; length += 1) {
      assert.equal(readImageInfo(input.bytes.subarray(0, length)), null, `truncated to ${length} bytes`);
    }
  });
}

const withByte = (sample: Sample, at: number, value: number): Buffer => {
  const bytes = Buffer.from(sample.bytes);
  bytes[at] = value;
  return bytes;
};

const invalid: { what: string; input: Buffer }[] = [
  { what: 'an empty buffer', input: Buffer.alloc(0) },
  { what: 'text', input: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>') },
  { what: 'a PNG of zero width', input: png(0, 5).bytes },
  { what: 'a PNG of zero height', input: png(5, 0).bytes },
  { what: 'a PNG wider than 2^31-1', input: png(0x80000000, 5).bytes },
  { what: 'a PNG whose first chunk is not IHDR', input: withByte(png(1, 1), 12, 0x69) },
  { what: 'a PNG with a broken signature', input: withByte(png(1, 1), 7, 0x0d) },
  { what: 'a JPEG of zero height (defined later by DNL)', input: jpeg(5, 0).bytes },
  { what: 'a JPEG whose frame marker is DHT (C4)', input: jpeg(5, 5, 0xc4).bytes },
  { what: 'a JPEG with a segment length under 2', input: Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 1, 0xff, 0xc0]) },
  { what: 'a JPEG reaching SOS before any frame', input: Buffer.from([0xff, 0xd8, 0xff, 0xda, 0, 2, 0xff, 0xc0, 0, 11, 8, 0, 1, 0, 1]) },
  { what: 'a JPEG with a byte where a marker should be', input: Buffer.from([0xff, 0xd8, 0x00, 0xc0, 0, 11, 8, 0, 1, 0, 1]) },
  { what: 'a GIF of zero width', input: gif(0, 5).bytes },
  { what: 'a GIF90a', input: gif(5, 5, 'GIF90a').bytes },
  { what: 'a lossy WebP that is not a key frame', input: withByte(webpLossy(5, 5), 20, 0x11) },
  { what: 'a lossy WebP without the start code', input: withByte(webpLossy(5, 5), 24, 0x02) },
  { what: 'a lossy WebP of zero width', input: webpLossy(0, 5).bytes },
  { what: 'a lossless WebP without its signature', input: withByte(webpLossless(5, 5), 20, 0x2e) },
  { what: 'a lossless WebP of an unknown version', input: withByte(webpLossless(5, 5), 24, 0x20) },
  { what: 'a WebP with an unknown first chunk', input: riff('ALPH', Array<number>(16).fill(1)) },
  { what: 'a RIFF that is not WebP', input: Buffer.from([...ascii('RIFF'), 0, 0, 0, 0, ...ascii('WAVEfmt '), ...Array<number>(16).fill(0)]) },
];

for (const { what, input } of invalid) {
  test(`rejects ${what}`, () => assert.equal(readImageInfo(input), null));
}

test('random bytes never throw and, when recognised, have positive dimensions', () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 64 }), fc.constantFrom(0, 0xff, 0x89, 0x47, 0x52), (bytes, first) => {
      for (const input of [Buffer.from(bytes), Buffer.from([first, ...bytes])]) {
        const info = readImageInfo(input);
        assert.ok(info === null || (info.width > 0 && info.height > 0));
      }
    }),
    { numRuns: 2000 },
  );
});

test('truncated or corrupted valid images never throw', () => {
  const samples = [png(9, 8), jpeg(9, 8), gif(9, 8), webpLossy(9, 8), webpLossless(9, 8), webpExtended(9, 8)];
  fc.assert(
    fc.property(fc.constantFrom(...samples), fc.nat(), fc.nat(), fc.integer({ min: 0, max: 255 }), (sample, cut, at, value) => {
      const bytes = withByte(sample, at % sample.bytes.length, value).subarray(0, cut % (sample.bytes.length + 1));
      const info = readImageInfo(bytes);
      assert.ok(info === null || (info.width > 0 && info.height > 0));
    }),
    { numRuns: 2000 },
  );
});
