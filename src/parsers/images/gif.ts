// GIF as a whole (GIF89a specification §17-27): screen, colour tables, every block and sub-block, the trailer.
import { fail, need, type Dimensions } from './image-error.ts';

const IMAGE_SEPARATOR = 0x2c;
const EXTENSION_INTRODUCER = 0x21;
const TRAILER = 0x3b;

/** §15: data sub-blocks, each a size byte and that many bytes, ended by a size of 0. */
function skipSubBlocks(bytes: Buffer, at: number): number {
  for (;;) {
    need(bytes, at + 1, 'a data sub-block');
    const size = bytes[at]!;
    at += 1;
    if (size === 0) return at;
    need(bytes, at + size, 'a data sub-block');
    at += size;
  }
}

/** A colour table of 2^(n+1) RGB triplets when the flag's top bit is set (§18, §20). */
function colourTableSize(flags: number): number {
  return (flags & 0x80) === 0 ? 0 : 3 * 2 ** ((flags & 0x07) + 1);
}

/** The logical screen of a complete GIF (its signature already matched) holding at least one image. */
export function readGifStructure(bytes: Buffer): Dimensions {
  need(bytes, 13, 'the logical screen descriptor');
  const width = bytes.readUInt16LE(6);
  const height = bytes.readUInt16LE(8);
  if (width === 0 || height === 0) fail('has a logical screen of zero width or height');
  let at = 13 + colourTableSize(bytes[10]!);
  need(bytes, at, 'the global colour table');
  let images = 0;
  for (;;) {
    need(bytes, at + 1, 'the block list (no trailer)');
    const introducer = bytes[at]!;
    if (introducer === TRAILER) {
      if (images === 0) fail('holds no image');
      // §27: the trailer ends the data stream; bytes after it would be a second file riding along.
      if (at + 1 !== bytes.length) fail(`has ${bytes.length - at - 1} bytes after the trailer`);
      return { width, height };
    }
    if (introducer === EXTENSION_INTRODUCER) {
      need(bytes, at + 2, 'an extension label');
      at = skipSubBlocks(bytes, at + 2);
    } else if (introducer === IMAGE_SEPARATOR) {
      // §20: separator, left, top, width, height (2 bytes each), packed flags; then §22: LZW minimum code size.
      need(bytes, at + 10, 'an image descriptor');
      at += 10 + colourTableSize(bytes[at + 9]!);
      need(bytes, at + 1, 'the image data');
      const codeSize = bytes[at]!;
      if (codeSize < 2 || codeSize > 11) fail(`has an LZW minimum code size of ${codeSize}`);
      at = skipSubBlocks(bytes, at + 1);
      images += 1;
    } else {
      fail(`has an unknown block 0x${introducer.toString(16)} at byte ${at}`);
    }
  }
}
