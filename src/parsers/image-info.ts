// Recognises PNG, JPEG, GIF and WebP images by their bytes and reads their dimensions, never throwing.

export type ImageContentType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

export interface ImageInfo {
  contentType: ImageContentType;
  width: number;
  height: number;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
// ITU T.81 Table B.1: start-of-frame markers; C4 (DHT), C8 (JPG) and CC (DAC) are not frames.
const JPEG_FRAME_MARKERS = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

const ascii = (bytes: Buffer, start: number, end: number): string => bytes.toString('latin1', start, end);

/**
 * The image type and size read from the header, or null for anything else, a header cut short
 * or a zero dimension. The declared Content-Type is never consulted: only the bytes count.
 */
export function readImageInfo(bytes: Buffer): ImageInfo | null {
  const info = readPng(bytes) ?? readJpeg(bytes) ?? readGif(bytes) ?? readWebp(bytes);
  return info !== null && info.width > 0 && info.height > 0 ? info : null;
}

/** PNG (W3C, 2nd ed.) §5.2, §11.2.2: the signature, then IHDR (length 13) with 31-bit width and height. */
function readPng(bytes: Buffer): ImageInfo | null {
  if (bytes.length < 24 || !PNG_SIGNATURE.equals(bytes.subarray(0, 8))) return null;
  if (bytes.readUInt32BE(8) !== 13 || ascii(bytes, 12, 16) !== 'IHDR') return null;
  const width = bytes.readUInt32BE(16);
  const height = bytes.readUInt32BE(20);
  if (width > 0x7fffffff || height > 0x7fffffff) return null;
  return { contentType: 'image/png', width, height };
}

/** ITU T.81 §B.1.1, B.2.2: walk the marker segments after SOI to the first frame header. */
function readJpeg(bytes: Buffer): ImageInfo | null {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return null;
  let at = 2;
  while (at < bytes.length) {
    if (bytes[at] !== 0xff) return null;
    while (bytes[at] === 0xff) at += 1; // §B.1.1.2: a marker may follow any number of 0xFF fill bytes
    const marker = bytes[at];
    at += 1;
    if (marker === undefined || marker === 0x00 || marker === 0xd9 || marker === 0xda) return null;
    // §B.1.1.3: TEM and RSTn stand alone, without a length.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) continue;
    if (at + 2 > bytes.length) return null;
    const length = bytes.readUInt16BE(at);
    if (length < 2) return null;
    if (JPEG_FRAME_MARKERS.has(marker)) {
      // Lf (2), P (1), Y lines (2), X samples per line (2).
      if (at + 7 > bytes.length) return null;
      return { contentType: 'image/jpeg', width: bytes.readUInt16BE(at + 5), height: bytes.readUInt16BE(at + 3) };
    }
    at += length;
  }
  return null;
}

/** GIF89a spec §17-18: the signature, then the logical screen width and height, little-endian. */
function readGif(bytes: Buffer): ImageInfo | null {
  if (bytes.length < 10) return null;
  const signature = ascii(bytes, 0, 6);
  if (signature !== 'GIF87a' && signature !== 'GIF89a') return null;
  return { contentType: 'image/gif', width: bytes.readUInt16LE(6), height: bytes.readUInt16LE(8) };
}

/** RFC 9649 (WebP): a RIFF 'WEBP' container whose first chunk is 'VP8 ', 'VP8L' or 'VP8X'. */
function readWebp(bytes: Buffer): ImageInfo | null {
  if (bytes.length < 20 || ascii(bytes, 0, 4) !== 'RIFF' || ascii(bytes, 8, 12) !== 'WEBP') return null;
  const chunk = ascii(bytes, 12, 16);
  const data = 20;
  if (chunk === 'VP8 ' && bytes.length >= data + 10) {
    // RFC 6386 §9.1: a key frame (bit 0 of the frame tag clear), start code 9d 01 2a, then
    // 14-bit width and height, each under 2 bits of scaling.
    const isKeyFrame = ((bytes[data] ?? 1) & 1) === 0;
    if (!isKeyFrame || bytes[data + 3] !== 0x9d || bytes[data + 4] !== 0x01 || bytes[data + 5] !== 0x2a) return null;
    return { contentType: 'image/webp', width: bytes.readUInt16LE(data + 6) & 0x3fff, height: bytes.readUInt16LE(data + 8) & 0x3fff };
  }
  if (chunk === 'VP8L' && bytes.length >= data + 5) {
    // RFC 9649, lossless header: signature 0x2f, 14-bit width-1, 14-bit height-1, alpha bit, 3-bit version 0.
    const bits = bytes.readUInt32LE(data + 1);
    if (bytes[data] !== 0x2f || bits >>> 29 !== 0) return null;
    return { contentType: 'image/webp', width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X' && bytes.length >= data + 10) {
    // RFC 9649, extended format: flags and reserved (4 bytes), then 24-bit canvas width-1 and height-1.
    return { contentType: 'image/webp', width: bytes.readUIntLE(data + 4, 3) + 1, height: bytes.readUIntLE(data + 7, 3) + 1 };
  }
  return null;
}
