// The bytes of an attachment (docs/protocol.md §15.6): read chunk by chunk from the database as the client takes them.
import type { Reply } from '../context.ts';
import { contentDisposition } from '../../http/content-disposition.ts';
import { contentRange, layOutByteRanges, planRanges, type BodyPiece, type ByteRange } from '../../http/byte-ranges.ts';
import { HttpError } from '../../http/http-error.ts';
import { isNotModified } from '../../http/conditional.ts';
import type { IncomingHttpHeaders } from 'node:http';
import type { AttachmentRow, Store } from '../../storage/store.ts';
import { OPAQUE_TYPE } from './save.ts';

// The bytes behind an id never change: a year, and no revalidation (RFC 8246), but only in the member's own cache.
const CACHE_CONTROL = 'private, max-age=31536000, immutable';
// Uploaded bytes opened as a document by themselves run nothing and reach nothing.
const CONTENT_SECURITY_POLICY = "default-src 'none'; sandbox";

/** The strong ETag of an attachment's bytes: their SHA-256 (RFC 9110 §8.8.3), the same whatever the id or name. */
export function attachmentEtag(row: Pick<AttachmentRow, 'sha256'>): string {
  return `"${row.sha256}"`;
}

/** Reads bytes start..end (inclusive) of a content, one stored chunk at a time. */
async function* readRange(storage: Store, row: AttachmentRow, range: ByteRange): AsyncGenerator<Buffer> {
  const size = row.chunkBytes;
  for (let n = Math.floor(range.start / size); n * size <= range.end; n += 1) {
    const chunk = await storage.attachments.readChunk(row.contentId, n);
    if (chunk === undefined) throw new Error(`attachment ${row.id}: chunk ${n} of its content is gone`);
    const from = Math.max(range.start - n * size, 0);
    const to = Math.min(range.end - n * size + 1, chunk.length);
    yield from === 0 && to === chunk.length ? chunk : chunk.subarray(from, to);
  }
}

async function* readPieces(storage: Store, row: AttachmentRow, pieces: readonly BodyPiece[]): AsyncGenerator<Buffer> {
  for (const piece of pieces) {
    if (Buffer.isBuffer(piece)) yield piece;
    else yield* readRange(storage, row, piece);
  }
}

/**
 * GET and HEAD: 200 with every byte, 206 with one range (Content-Range) or several (multipart/byteranges), 416
 * for ranges that all lie past the end, 304 for a matching If-None-Match (send.ts, before any range).
 */
export function attachmentReply(storage: Store, row: AttachmentRow, headers: IncomingHttpHeaders, method: string): Reply {
  const etag = attachmentEtag(row);
  const image = row.contentType !== OPAQUE_TYPE;
  const common = {
    'ETag': etag,
    'Cache-Control': CACHE_CONTROL,
    'Content-Security-Policy': CONTENT_SECURITY_POLICY,
    'Content-Disposition': contentDisposition(image ? 'inline' : 'attachment', row.name),
    'Accept-Ranges': 'bytes',
  };
  // RFC 9110 §13.2.2: If-None-Match is evaluated before Range; a match is a 304 of the whole (send.ts answers it).
  const plan = isNotModified(headers, etag) ? { kind: 'whole' as const } : planRanges(headers, method, etag, row.size);
  if (plan.kind === 'unsatisfiable') {
    throw new HttpError('ERR_RANGE_NOT_SATISFIABLE', `No range lies within the ${row.size} bytes of attachment ${row.id}`, { headers: { 'Content-Range': contentRange(undefined, row.size) } });
  }
  const whole: ByteRange = { start: 0, end: row.size - 1 };
  if (plan.kind === 'whole') {
    return { status: 200, headers: common, stream: { contentType: row.contentType, length: row.size, chunks: () => readRange(storage, row, whole) } };
  }
  if (plan.ranges.length === 1) {
    const range = plan.ranges[0]!;
    return {
      status: 206,
      headers: { ...common, 'Content-Range': contentRange(range, row.size) },
      stream: { contentType: row.contentType, length: range.end - range.start + 1, chunks: () => readRange(storage, row, range) },
    };
  }
  const layout = layOutByteRanges(plan.ranges, row.contentType, row.size);
  return { status: 206, headers: common, stream: { contentType: layout.contentType, length: layout.length, chunks: () => readPieces(storage, row, layout.pieces) } };
}
