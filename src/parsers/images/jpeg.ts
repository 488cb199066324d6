// JPEG as a whole (ITU T.81 Annex B): marker segments from SOI through the scans to EOI, and nothing after.
import { fail, need, type Dimensions } from './image-error.ts';

// Table B.1: start-of-frame markers; C4 (DHT), C8 (JPG) and CC (DAC) are not frames.
const FRAME_MARKERS = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);
const SOI = 0xd8;
const EOI = 0xd9;
const SOS = 0xda;
const TEM = 0x01;
const isRestart = (marker: number): boolean => marker >= 0xd0 && marker <= 0xd7;

/** §B.2.2: frame header Lf, P, Y, X, Nf and three bytes per component; Y = 0 (height from DNL) is refused. */
function readFrame(segment: Buffer): Dimensions {
  if (segment.length < 6) fail('has a frame header that is too short');
  const height = segment.readUInt16BE(1);
  const width = segment.readUInt16BE(3);
  const components = segment[5]!;
  if (components === 0 || segment.length !== 6 + 3 * components) fail('has a frame header whose length does not match its components');
  if (width === 0 || height === 0) fail('has a frame of zero width or height');
  return { width, height };
}

/**
 * §B.1.1.5: entropy-coded data runs to the next marker; inside it 0xFF is followed by 0x00 (a stuffed
 * byte) or a restart marker. Answers where that next marker's 0xFF starts.
 */
function skipEntropyCoded(bytes: Buffer, at: number): number {
  for (;;) {
    const next = bytes.indexOf(0xff, at);
    if (next === -1 || next + 1 >= bytes.length) fail('is cut short inside a scan (no EOI)');
    const after = bytes[next + 1]!;
    if (after === 0x00 || isRestart(after)) at = next + 2;
    else return next;
  }
}

/** The frame size of a complete JPEG (its SOI already matched); throws ImageFormatError otherwise. */
export function readJpegStructure(bytes: Buffer): Dimensions {
  let at = 2;
  let frame: Dimensions | undefined;
  let scans = 0;
  for (;;) {
    need(bytes, at + 2, 'the marker segments (no EOI)');
    if (bytes[at] !== 0xff) fail(`has no marker at byte ${at}`);
    while (bytes[at] === 0xff) at += 1; // §B.1.1.2: any number of 0xFF fill bytes before a marker
    need(bytes, at + 1, 'a marker');
    const marker = bytes[at]!;
    at += 1;
    if (marker === EOI) {
      if (!frame || scans === 0) fail('ends before its frame and scan');
      // Bytes after EOI would be a second file riding along (a polyglot).
      if (at !== bytes.length) fail(`has ${bytes.length - at} bytes after EOI`);
      return frame;
    }
    if (marker === TEM) continue;
    if (marker === SOI || marker === 0x00 || isRestart(marker) || marker < 0xc0 || marker === 0xc8) {
      fail(`has the misplaced or reserved marker 0x${marker.toString(16)} at byte ${at - 1}`);
    }
    need(bytes, at + 2, 'a segment length');
    const length = bytes.readUInt16BE(at);
    if (length < 2) fail(`has a segment length under 2 at byte ${at}`);
    need(bytes, at + length, `the segment of marker 0x${marker.toString(16)}`);
    const segment = bytes.subarray(at + 2, at + length);
    at += length;
    if (FRAME_MARKERS.has(marker)) {
      if (frame) fail('has more than one frame');
      frame = readFrame(segment);
    } else if (marker === SOS) {
      // §B.2.3: Ns, two bytes per component, Ss, Se, Ah/Al.
      if (!frame) fail('has a scan before its frame header');
      const count = segment[0] ?? 0;
      if (count < 1 || count > 4 || segment.length !== 4 + 2 * count) fail('has a scan header whose length does not match its components');
      scans += 1;
      at = skipEntropyCoded(bytes, at);
    }
  }
}
