// WebP as a whole (RFC 9649): a RIFF size equal to the file's, chunks that fill it exactly, a consistent image.
import { fail, need, type Dimensions } from './image-error.ts';

interface Chunk {
  fourCC: string;
  data: Buffer;
}

/** RFC 9649 §2.4: FourCC, 32-bit little-endian size, data, one padding byte when the size is odd. */
function readChunks(bytes: Buffer): Chunk[] {
  const chunks: Chunk[] = [];
  let at = 12;
  while (at < bytes.length) {
    need(bytes, at + 8, 'a chunk header');
    const size = bytes.readUInt32LE(at + 4);
    const end = at + 8 + size;
    need(bytes, end + (size & 1), `the ${bytes.toString('latin1', at, at + 4)} chunk`);
    chunks.push({ fourCC: bytes.toString('latin1', at, at + 4), data: bytes.subarray(at + 8, end) });
    at = end + (size & 1);
  }
  return chunks;
}

/** RFC 6386 §9.1 (through RFC 9649 §2.5): a key frame's tag, start code 9d 01 2a, 14-bit width and height. */
function readLossy(data: Buffer): Dimensions {
  if (data.length < 10) fail('has a VP8 chunk too short for a frame header');
  const tag = data.readUIntLE(0, 3);
  if ((tag & 1) !== 0 || ((tag >> 1) & 7) > 3) fail('has a VP8 frame that is not a key frame');
  if ((tag >>> 5) > data.length - 10) fail('has a VP8 first partition longer than its chunk');
  if (data[3] !== 0x9d || data[4] !== 0x01 || data[5] !== 0x2a) fail('has a VP8 frame without its start code');
  return { width: data.readUInt16LE(6) & 0x3fff, height: data.readUInt16LE(8) & 0x3fff };
}

/** RFC 9649 §3.2: signature 0x2f, 14-bit width-1 and height-1, an alpha bit, a 3-bit version that is 0. */
function readLossless(data: Buffer): Dimensions {
  if (data.length < 5 || data[0] !== 0x2f) fail('has a VP8L chunk without its signature');
  const bits = data.readUInt32LE(1);
  if (bits >>> 29 !== 0) fail('has a VP8L version other than 0');
  return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
}

function readBitstream(chunk: Chunk): Dimensions | undefined {
  if (chunk.fourCC === 'VP8 ') return readLossy(chunk.data);
  if (chunk.fourCC === 'VP8L') return readLossless(chunk.data);
  return undefined;
}

/** The canvas of a complete WebP (its RIFF/WEBP header already matched); throws ImageFormatError otherwise. */
export function readWebpStructure(bytes: Buffer): Dimensions {
  const riffSize = bytes.readUInt32LE(4);
  // §2.4: the RIFF size counts everything after its own field; more or fewer bytes is a cut or padded file.
  if (riffSize + 8 !== bytes.length) fail(`has a RIFF size of ${riffSize + 8} bytes but is ${bytes.length} bytes long`);
  const [first, ...rest] = readChunks(bytes);
  if (!first) fail('has no chunk');
  const simple = readBitstream(first);
  if (simple) {
    // §2.5, §2.6: the simple formats are exactly one VP8 or VP8L chunk.
    if (rest.length > 0) fail('has chunks after a simple-format image');
    if (simple.width === 0 || simple.height === 0) fail('has a frame of zero width or height');
    return simple;
  }
  if (first.fourCC !== 'VP8X') fail(`starts with a ${first.fourCC} chunk, not VP8, VP8L or VP8X`);
  // §2.7: flags (1 byte), reserved (3), canvas width-1 and height-1 (24 bits each).
  if (first.data.length < 10) fail('has a VP8X chunk that is too short');
  const canvas = { width: first.data.readUIntLE(4, 3) + 1, height: first.data.readUIntLE(7, 3) + 1 };
  const animated = (first.data[0]! & 0x02) !== 0;
  if (animated) {
    if (!rest.some((chunk) => chunk.fourCC === 'ANIM') || !rest.some((chunk) => chunk.fourCC === 'ANMF')) fail('is marked animated but has no ANIM and ANMF chunks');
    return canvas;
  }
  const frames = rest.map(readBitstream).filter((frame) => frame !== undefined);
  if (frames.length !== 1) fail(`has ${frames.length} image bitstreams instead of one`);
  if (frames[0]!.width !== canvas.width || frames[0]!.height !== canvas.height) fail('has an image whose size differs from its canvas');
  return canvas;
}
