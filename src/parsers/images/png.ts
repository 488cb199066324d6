// PNG as a whole (W3C PNG 3rd ed. §5, §11): every chunk with its CRC, IHDR first, IDATs together, IEND last.
import { crc32 } from 'node:zlib';
import { fail, need, type Dimensions } from './image-error.ts';

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

// §11.2.2 Table 11.1: the bit depths each colour type allows.
const BIT_DEPTHS: Record<number, readonly number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };
const CRITICAL = new Set(['IHDR', 'PLTE', 'IDAT', 'IEND']);
const MAX_LENGTH = 0x7fffffff;

/** §5.4: 4-byte length (at most 2^31-1), type of ASCII letters, data, CRC-32 of type and data. */
function readChunk(bytes: Buffer, at: number): { type: string; data: Buffer; next: number } {
  need(bytes, at + 8, 'a chunk header');
  const length = bytes.readUInt32BE(at);
  if (length > MAX_LENGTH) fail(`has a chunk length over 2^31-1 at byte ${at}`);
  const type = bytes.toString('latin1', at + 4, at + 8);
  if (!/^[A-Za-z]{4}$/.test(type)) fail(`has a chunk type that is not four letters at byte ${at + 4}`);
  need(bytes, at + 12 + length, `the ${type} chunk`);
  const data = bytes.subarray(at + 8, at + 8 + length);
  if (crc32(bytes.subarray(at + 4, at + 8 + length)) !== bytes.readUInt32BE(at + 8 + length)) fail(`has a wrong CRC in the ${type} chunk`);
  return { type, data, next: at + 12 + length };
}

/** §11.2.2: width and height 1 to 2^31-1, a valid depth for the colour type, method 0, interlace 0 or 1. */
function readHeader(data: Buffer): Dimensions & { colourType: number } {
  if (data.length !== 13) fail('has an IHDR chunk that is not 13 bytes');
  const width = data.readUInt32BE(0);
  const height = data.readUInt32BE(4);
  if (width === 0 || height === 0 || width > MAX_LENGTH || height > MAX_LENGTH) fail('has a width or height outside 1 to 2^31-1');
  const [depth, colourType, compression, filter, interlace] = data.subarray(8) as unknown as number[];
  if (!BIT_DEPTHS[colourType!]?.includes(depth!)) fail(`has colour type ${colourType} with bit depth ${depth}`);
  if (compression !== 0 || filter !== 0 || (interlace !== 0 && interlace !== 1)) fail('has an unknown compression, filter or interlace method');
  return { width, height, colourType: colourType! };
}

/** The dimensions of a complete PNG (its signature already matched); throws ImageFormatError otherwise. */
export function readPngStructure(bytes: Buffer): Dimensions {
  const first = readChunk(bytes, PNG_SIGNATURE.length);
  if (first.type !== 'IHDR') fail('does not start with an IHDR chunk');
  const header = readHeader(first.data);
  let at = first.next;
  let palette = false;
  let idat: 'before' | 'inside' | 'after' = 'before';
  for (;;) {
    const chunk = readChunk(bytes, at);
    at = chunk.next;
    if (chunk.type === 'IEND') {
      if (chunk.data.length !== 0) fail('has an IEND chunk with data');
      if (idat === 'before') fail('has no IDAT chunk');
      // §5.6: nothing follows IEND; bytes there would be a second file riding along (a polyglot).
      if (at !== bytes.length) fail(`has ${bytes.length - at} bytes after IEND`);
      return { width: header.width, height: header.height };
    }
    if (idat === 'inside' && chunk.type !== 'IDAT') idat = 'after';
    if (chunk.type === 'IDAT') {
      if (idat === 'after') fail('has IDAT chunks that are not consecutive');
      if (header.colourType === 3 && !palette) fail('has an indexed-colour image without a PLTE chunk before IDAT');
      idat = 'inside';
    } else if (chunk.type === 'PLTE') {
      if (palette || idat !== 'before' || header.colourType === 0 || header.colourType === 4) fail('has a misplaced PLTE chunk');
      if (chunk.data.length === 0 || chunk.data.length % 3 !== 0 || chunk.data.length > 768) fail('has a PLTE chunk of a wrong length');
      palette = true;
    } else if (chunk.type === 'IHDR') {
      fail('has a second IHDR chunk');
    } else if (!CRITICAL.has(chunk.type) && (chunk.type.charCodeAt(0) & 0x20) === 0) {
      // §5.4: an unknown critical chunk (upper-case first letter) means the image cannot be shown.
      fail(`has an unknown critical chunk ${chunk.type}`);
    }
  }
}
