// Avatar fixtures built in code: tiny valid images of each accepted type, and multipart bodies wire-exact with CRLF.
import { crc32, deflateSync } from 'node:zlib';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** PNG §5.3: length, type, data, CRC-32 of type and data. */
function pngChunk(type: string, data: Buffer): Buffer {
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/**
 * An RGB PNG of width x height (8-bit, every row filter 0, pixels gray). With `size`, a tEXt chunk
 * before IEND pads the file to exactly that many bytes.
 */
export function png(width: number, height: number, size?: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: truecolour
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, 0x80)]);
  const head = Buffer.concat([PNG_SIGNATURE, pngChunk('IHDR', header), pngChunk('IDAT', deflateSync(Buffer.concat(Array(height).fill(row))))]);
  const end = pngChunk('IEND', Buffer.alloc(0));
  if (size === undefined) return Buffer.concat([head, end]);
  const padding = size - head.length - end.length - 12 - 8;
  if (padding < 0) throw new Error(`a ${width}x${height} PNG needs more than ${size} bytes`);
  return Buffer.concat([head, pngChunk('tEXt', Buffer.concat([Buffer.from('Comment\0'), Buffer.alloc(padding, 0x61)])), end]);
}

/** An RGB PNG whose every pixel is colourAt(x, y): for checking what a browser shows of an image. */
export function paintedPng(width: number, height: number, colourAt: (x: number, y: number) => readonly [number, number, number]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = 2;
  const rows = Array.from({ length: height }, (_, y) => Buffer.from([0, ...Array.from({ length: width }, (__, x) => colourAt(x, y)).flat()]));
  return Buffer.concat([PNG_SIGNATURE, pngChunk('IHDR', header), pngChunk('IDAT', deflateSync(Buffer.concat(rows))), pngChunk('IEND', Buffer.alloc(0))]);
}

/**
 * A baseline grayscale JPEG (ITU T.81) of a flat mid-gray: SOI, JFIF APP0, DQT, SOF0, one DC and one AC
 * Huffman table of a single 1-bit code each, SOS, then every 8x8 block as "DC difference 0, end of block"
 * (two 0 bits), the last byte padded with 1 bits (§F.1.2.3), EOI. Small, but a whole file a decoder shows.
 */
export function jpeg(width: number, height: number): Buffer {
  const segment = (marker: number, body: number[] | Buffer): Buffer => {
    const head = Buffer.from([0xff, marker, 0, 0]);
    head.writeUInt16BE(body.length + 2, 2);
    return Buffer.concat([head, Buffer.from(body)]);
  };
  const app0 = segment(0xe0, [0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]);
  const dqt = segment(0xdb, [0x00, ...Array(64).fill(1)]);
  const sof0 = segment(0xc0, [0x08, height >> 8, height & 0xff, width >> 8, width & 0xff, 0x01, 0x01, 0x11, 0x00]);
  const oneCode = (tableClassAndId: number): number[] => [tableClassAndId, 1, ...Array(15).fill(0), 0x00];
  const dht = segment(0xc4, [...oneCode(0x00), ...oneCode(0x10)]);
  const sos = segment(0xda, [0x01, 0x01, 0x00, 0x00, 0x3f, 0x00]);
  const blocks = Math.ceil(width / 8) * Math.ceil(height / 8);
  const bits = blocks * 2;
  const scan = Buffer.alloc(Math.ceil(bits / 8));
  if (bits % 8 !== 0) scan[scan.length - 1] = 0xff >> (bits % 8);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, dqt, sof0, dht, sos, scan, Buffer.from([0xff, 0xd9])]);
}

/**
 * A GIF89a of one frame in colour 0 of a two-colour global table. The LZW data (minimum code size 2, so
 * 3-bit codes) sends a clear code before every two pixels, so the code size never grows; then end of
 * information, in sub-blocks of at most 255 bytes, a block terminator and the trailer.
 */
export function gif(width: number, height: number): Buffer {
  const screen = Buffer.alloc(7);
  screen.writeUInt16LE(width, 0);
  screen.writeUInt16LE(height, 2);
  screen[4] = 0x80; // a global colour table of 2 entries
  const palette = Buffer.from([0, 0, 0, 0xff, 0xff, 0xff]);
  const descriptor = Buffer.alloc(10);
  descriptor[0] = 0x2c;
  descriptor.writeUInt16LE(width, 5);
  descriptor.writeUInt16LE(height, 7);
  const codes: number[] = [];
  for (let pixel = 0; pixel < width * height; pixel += 2) codes.push(4, ...(pixel + 1 < width * height ? [0, 0] : [0]));
  codes.push(5);
  const packed = Buffer.alloc(Math.ceil((codes.length * 3) / 8));
  codes.forEach((code, index) => {
    for (let bit = 0; bit < 3; bit++) if (code & (1 << bit)) packed[(index * 3 + bit) >> 3]! |= 1 << ((index * 3 + bit) & 7);
  });
  const blocks: Buffer[] = [];
  for (let at = 0; at < packed.length; at += 255) {
    const piece = packed.subarray(at, at + 255);
    blocks.push(Buffer.from([piece.length]), piece);
  }
  return Buffer.concat([Buffer.from('GIF89a', 'latin1'), screen, palette, descriptor, Buffer.from([2]), ...blocks, Buffer.from([0, 0x3b])]);
}

/** A lossless WebP (RFC 9649): RIFF, WEBP, a VP8L chunk whose header holds width-1 and height-1 in 14 bits each. */
export function webp(width: number, height: number): Buffer {
  const header = Buffer.alloc(5);
  header[0] = 0x2f;
  header.writeUInt32LE(((width - 1) | ((height - 1) << 14)) >>> 0, 1);
  const chunk = Buffer.concat([Buffer.from('VP8L', 'latin1'), Buffer.from([5, 0, 0, 0]), header, Buffer.from([0])]);
  const size = Buffer.alloc(4);
  size.writeUInt32LE(4 + chunk.length);
  return Buffer.concat([Buffer.from('RIFF', 'latin1'), size, Buffer.from('WEBP', 'latin1'), chunk]);
}

export interface FormPart {
  name: string;
  filename?: string;
  type?: string;
  data: string | Buffer;
}

export const BOUNDARY = '----AvatarBoundary7MA4YWxkTrZu0gW';

/** RFC 7578 / RFC 2046 §5.1.1: each part after `--boundary CRLF`, headers, a blank line, content, CRLF; then the close delimiter. */
export function multipart(parts: readonly FormPart[], boundary = BOUNDARY): Buffer {
  const pieces: Buffer[] = [];
  for (const part of parts) {
    let headers = `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"`;
    if (part.filename !== undefined) headers += `; filename="${part.filename}"`;
    headers += '\r\n';
    if (part.type !== undefined) headers += `Content-Type: ${part.type}\r\n`;
    pieces.push(Buffer.from(`${headers}\r\n`, 'latin1'), Buffer.from(part.data), Buffer.from('\r\n'));
  }
  pieces.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(pieces);
}

export type Zone = { x: number | string; y: number | string; width: number | string; height: number | string };

/** The usual form: the image as `avatar` (a file part) and the zone as decimal text parts. */
export function avatarForm(image: Buffer, zone: Zone, file: { filename?: string; type?: string } = {}): FormPart[] {
  return [
    { name: 'avatar', filename: file.filename ?? 'me.png', type: file.type ?? 'image/png', data: image },
    ...(['x', 'y', 'width', 'height'] as const).map((name) => ({ name, data: String(zone[name]) })),
  ];
}

export const MULTIPART_TYPE = `multipart/form-data; boundary=${BOUNDARY}`;
