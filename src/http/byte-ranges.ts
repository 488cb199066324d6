// Range requests (RFC 9110 §14): which bytes of a representation a GET asks for, and the multipart/byteranges layout.
import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/** An inclusive byte range of the representation (RFC 9110 §14.1.1: first-pos and last-pos). */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * `whole`: answer 200 with everything (no Range, one that is ignored, or an If-Range that does not hold);
 * `unsatisfiable`: 416; `ranges`: 206 with these ranges, in the order asked.
 */
export type RangePlan = { kind: 'whole' } | { kind: 'unsatisfiable' } | { kind: 'ranges'; ranges: ByteRange[] };

/** More ranges than this are ignored (RFC 9110 §14.2 allows it): a few ranges are a resumed or sampled download, hundreds an attack. */
export const MAX_RANGES = 32;

const WHOLE: RangePlan = { kind: 'whole' };
// RFC 9110 §14.1.2: int-range "first-last" / "first-", suffix-range "-length", with OWS around the commas.
const RANGE_SPEC = /^(?:(\d+)-(\d*)|-(\d+))$/;

/** The ranges of one `bytes=` value, or undefined when it does not parse (then the Range field is ignored). */
function parseRangeSpecs(value: string): { first?: number; last?: number; suffix?: number }[] | undefined {
  const equals = value.indexOf('=');
  if (equals === -1 || value.slice(0, equals).trim().toLowerCase() !== 'bytes') return undefined;
  const specs = [];
  for (const item of value.slice(equals + 1).split(',')) {
    const trimmed = item.trim();
    // RFC 9110 §5.6.1: empty list elements are allowed and count for nothing.
    if (trimmed === '') continue;
    const match = RANGE_SPEC.exec(trimmed);
    if (match === null) return undefined;
    const [, first, last, suffix] = match;
    if (suffix !== undefined) specs.push({ suffix: Number(suffix) });
    else if (last === '') specs.push({ first: Number(first) });
    else if (Number(last) < Number(first)) return undefined;
    else specs.push({ first: Number(first), last: Number(last) });
  }
  return specs.length === 0 ? undefined : specs;
}

/** RFC 9110 §13.1.5: If-Range holds only for an entity tag equal, by strong comparison, to the current one; a date never does here (no Last-Modified is sent). */
function ifRangeHolds(headers: IncomingHttpHeaders, etag: string): boolean {
  const value = headers['if-range'];
  return value === undefined || String(value).trim() === etag;
}

/**
 * RFC 9110 §14.2: a GET's Range against a representation of `length` bytes with strong tag `etag`. Another
 * method, an unknown unit, a malformed value, too many ranges, an empty representation or an If-Range that does
 * not hold: the whole. No satisfiable range: 416. Each range is clipped to the length; overlapping ones coalesce.
 */
export function planRanges(headers: IncomingHttpHeaders, method: string, etag: string, length: number): RangePlan {
  const value = headers.range;
  if (method !== 'GET' || value === undefined || length === 0 || !ifRangeHolds(headers, etag)) return WHOLE;
  const specs = parseRangeSpecs(value);
  if (specs === undefined || specs.length > MAX_RANGES) return WHOLE;
  const ranges: ByteRange[] = [];
  for (const spec of specs) {
    if (spec.suffix !== undefined) {
      if (spec.suffix > 0) ranges.push({ start: Math.max(0, length - spec.suffix), end: length - 1 });
    } else if (spec.first! < length) {
      ranges.push({ start: spec.first!, end: Math.min(spec.last ?? length - 1, length - 1) });
    }
  }
  if (ranges.length === 0) return { kind: 'unsatisfiable' };
  return { kind: 'ranges', ranges: coalesceOverlaps(ranges) };
}

/**
 * RFC 9110 §14.6: ranges that overlap are sent as one (at the place of the first), so no byte is sent twice and a
 * body is never longer than the representation; ranges that only touch stay apart, in the order asked.
 */
function coalesceOverlaps(ranges: readonly ByteRange[]): ByteRange[] {
  const merged = ranges.map((range) => ({ ...range }));
  for (let i = 0; i < merged.length; i += 1) {
    for (let j = i + 1; j < merged.length; j += 1) {
      const [a, b] = [merged[i]!, merged[j]!];
      if (a.start > b.end || b.start > a.end) continue;
      merged[i] = { start: Math.min(a.start, b.start), end: Math.max(a.end, b.end) };
      merged.splice(j, 1);
      // The grown range may now reach one it passed: look again from the first.
      i = -1;
      break;
    }
  }
  return merged;
}

// RFC 9110 §14.4: "bytes first-last/complete-length", or "bytes *" and "/complete-length" for a 416.
export function contentRange(range: ByteRange | undefined, length: number): string {
  return range === undefined ? `bytes */${length}` : `bytes ${range.start}-${range.end}/${length}`;
}

/** One piece of a multipart/byteranges body: delimiter and part headers as bytes, or a range of the representation. */
export type BodyPiece = Buffer | ByteRange;

/**
 * RFC 9110 §14.6: the media type, total length and pieces of a multipart/byteranges body for several ranges,
 * each part with its Content-Type and Content-Range. The boundary is random, so no representation's bytes can end a part.
 */
export function layOutByteRanges(ranges: readonly ByteRange[], contentType: string, length: number): { contentType: string; length: number; pieces: BodyPiece[] } {
  const boundary = randomBytes(18).toString('base64url');
  const pieces: BodyPiece[] = [];
  ranges.forEach((range, index) => {
    pieces.push(Buffer.from(`${index === 0 ? '' : '\r\n'}--${boundary}\r\nContent-Type: ${contentType}\r\nContent-Range: ${contentRange(range, length)}\r\n\r\n`, 'latin1'));
    pieces.push(range);
  });
  pieces.push(Buffer.from(`\r\n--${boundary}--\r\n`, 'latin1'));
  const total = pieces.reduce((sum, piece) => sum + (Buffer.isBuffer(piece) ? piece.length : piece.end - piece.start + 1), 0);
  return { contentType: `multipart/byteranges; boundary=${boundary}`, length: total, pieces };
}
