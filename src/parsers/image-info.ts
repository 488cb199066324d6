// Recognises PNG, JPEG, GIF and WebP images by their bytes and checks each is one whole, consistent file.
import { readGifStructure } from './images/gif.ts';
import { ImageFormatError, type Dimensions } from './images/image-error.ts';
import { readJpegStructure } from './images/jpeg.ts';
import { PNG_SIGNATURE, readPngStructure } from './images/png.ts';
import { readWebpStructure } from './images/webp.ts';

export type ImageContentType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

export interface ImageInfo {
  contentType: ImageContentType;
  width: number;
  height: number;
}

/**
 * `image`: a whole file of a known type. `invalid`: it starts like one (so the client meant to send an
 * image) but is cut short, corrupt, inconsistent or followed by other bytes. `unknown`: no known type.
 */
export type ImageCheck =
  | { kind: 'image'; info: ImageInfo }
  | { kind: 'invalid'; contentType: ImageContentType; reason: string }
  | { kind: 'unknown' };

const FORMATS: readonly { contentType: ImageContentType; matches(bytes: Buffer): boolean; read(bytes: Buffer): Dimensions }[] = [
  { contentType: 'image/png', matches: (bytes) => bytes.length >= 8 && PNG_SIGNATURE.equals(bytes.subarray(0, 8)), read: readPngStructure },
  { contentType: 'image/jpeg', matches: (bytes) => bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff, read: readJpegStructure },
  { contentType: 'image/gif', matches: (bytes) => /^GIF8[79]a$/.test(bytes.toString('latin1', 0, 6)), read: readGifStructure },
  {
    contentType: 'image/webp',
    matches: (bytes) => bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP',
    read: readWebpStructure,
  },
];

/**
 * Walks the whole structure of the file its signature names (the declared Content-Type is never read):
 * the pixels are not decoded, but every chunk, segment, block and size must be in place and account for
 * every byte. Pure: never throws.
 */
export function inspectImage(bytes: Buffer): ImageCheck {
  const format = FORMATS.find((candidate) => candidate.matches(bytes));
  if (!format) return { kind: 'unknown' };
  try {
    const { width, height } = format.read(bytes);
    return { kind: 'image', info: { contentType: format.contentType, width, height } };
  } catch (error) {
    if (!(error instanceof ImageFormatError)) throw error;
    return { kind: 'invalid', contentType: format.contentType, reason: error.message };
  }
}

/** The type and size of a whole image, or null for anything else. */
export function readImageInfo(bytes: Buffer): ImageInfo | null {
  const check = inspectImage(bytes);
  return check.kind === 'image' ? check.info : null;
}
