// One uploaded file on its way into the database: hashed, counted and written in chunks as it arrives (docs/protocol.md §15.3).
import { createHash, type Hash } from 'node:crypto';
import type { FileSink } from '../../parsers/multipart-stream.ts';
import { inspectImage, type ImageInfo } from '../../parsers/image-info.ts';
import { BufferRelease, RELEASE_EVERY } from '../../http/buffer-release.ts';
import { newId } from '../../storage/ids.ts';
import type { Store } from '../../storage/store.ts';
import { attachmentTooLarge, quotaExceeded } from './limits.ts';

/** Bytes of one stored chunk: small enough that a download holds only one, large enough that a 25 MiB file is 100 rows. */
export const CHUNK_BYTES = 256 * 1024;
/**
 * Chunks written together, in one commit: every commit is a sync to disk (synchronous=FULL, PostgreSQL's
 * synchronous_commit), and a sync per 256 KiB held an upload to a fifth of a bare server's speed (bench/RESULTS.md).
 * 4 chunks, 1 MiB held while the batch fills (PostgreSQL's driver builds one more copy of it to send).
 */
export const CHUNKS_PER_WRITE = 4;

// 12 bytes tell every image signature apart (WebP's is the longest).
const SIGNATURE_BYTES = 12;

export interface WriterLimits {
  /** The field the errors name (`file`, `data.content`). */
  field: string;
  maxBytes: number;
  /** The uploader's quota and what their other uploads use of it (this request's earlier files included). */
  quota: number;
  used: number;
  /** Images are checked whole (parsers/image-info.ts, as avatars are) up to this size and pixel count. */
  maxImageBytes: number;
  maxImagePixels: number;
}

/** A file whose bytes are all stored under contentId, not yet finished (AttachmentRepository.finishContent). */
export interface ReceivedFile {
  name: string;
  contentId: string;
  size: number;
  sha256: string;
  /** Set when the bytes are one whole PNG, JPEG, GIF or WebP image within the image limits. */
  image: ImageInfo | undefined;
}

/**
 * The sink of one file: at most one batch of CHUNKS_PER_WRITE chunks is held (the buffer being filled), and each
 * full batch is written before the next bytes are taken. A file that starts like an image is also kept whole up to maxImageBytes,
 * so the avatar checks can walk it; past that it is stored as a plain file.
 */
export class ContentWriter implements FileSink {
  readonly contentId: string;
  private readonly name: string;
  private readonly storage: Store;
  private readonly limits: WriterLimits;
  private readonly hash: Hash = createHash('sha256');
  private readonly batch = Buffer.allocUnsafe(CHUNK_BYTES * CHUNKS_PER_WRITE);
  // The request's own chunks, read from the socket, are garbage once copied here.
  private readonly release = new BufferRelease(2 * RELEASE_EVERY);
  private filled = 0;
  private chunks = 0;
  private size = 0;
  /** The bytes so far while they may be an image; undefined once they cannot be. */
  private imageBytes: Buffer[] | undefined = [];
  private result: ReceivedFile | undefined;

  private constructor(storage: Store, name: string, limits: WriterLimits, contentId: string) {
    this.storage = storage;
    this.name = name;
    this.limits = limits;
    this.contentId = contentId;
  }

  /** Starts the content in the database (a row with no sha256 yet, removed by the hourly cleanup should the process die). */
  static async open(storage: Store, name: string, limits: WriterLimits, now: number): Promise<ContentWriter> {
    const contentId = newId(now);
    await storage.attachments.startContent(contentId, CHUNK_BYTES, now);
    return new ContentWriter(storage, name, limits, contentId);
  }

  async write(data: Buffer): Promise<void> {
    this.size += data.length;
    if (this.size > this.limits.maxBytes) throw attachmentTooLarge(this.limits.field, this.limits.maxBytes);
    if (this.limits.used + this.size > this.limits.quota) throw quotaExceeded(this.limits.field, this.limits.quota, this.limits.used);
    this.hash.update(data);
    this.release.note(data.length);
    this.keepForImageCheck(data);
    for (let offset = 0; offset < data.length;) {
      const copied = data.copy(this.batch, this.filled, offset);
      this.filled += copied;
      offset += copied;
      if (this.filled === this.batch.length) await this.flush();
    }
  }

  async end(): Promise<void> {
    if (this.filled > 0) await this.flush();
    this.result = { name: this.name, contentId: this.contentId, size: this.size, sha256: this.hash.digest('hex'), image: this.checkImage() };
  }

  /** What was received, once end() returned. */
  received(): ReceivedFile {
    if (this.result === undefined) throw new Error('ContentWriter: the file has not ended');
    return this.result;
  }

  /** Writes what the batch holds as chunks of CHUNK_BYTES (the last one maybe shorter). */
  private async flush(): Promise<void> {
    const chunks: Buffer[] = [];
    for (let start = 0; start < this.filled; start += CHUNK_BYTES) chunks.push(this.batch.subarray(start, Math.min(start + CHUNK_BYTES, this.filled)));
    // Both drivers have copied the bytes once the write resolves, so the one buffer is filled again.
    await this.storage.attachments.appendChunks(this.contentId, this.chunks, chunks);
    this.chunks += chunks.length;
    this.filled = 0;
  }

  private keepForImageCheck(data: Buffer): void {
    if (this.imageBytes === undefined) return;
    if (this.size > this.limits.maxImageBytes) {
      this.imageBytes = undefined;
      return;
    }
    const before = this.size - data.length;
    this.imageBytes.push(Buffer.from(data));
    // Once the signature is in, a file that starts like no image is not kept any longer.
    if (before < SIGNATURE_BYTES && this.size >= SIGNATURE_BYTES && inspectImage(Buffer.concat(this.imageBytes)).kind === 'unknown') this.imageBytes = undefined;
  }

  /** docs/protocol.md §15.3: an image only when the avatar checks pass on the whole file; anything else is a plain file. */
  private checkImage(): ImageInfo | undefined {
    if (this.imageBytes === undefined || this.size === 0) return undefined;
    const check = inspectImage(Buffer.concat(this.imageBytes));
    if (check.kind !== 'image' || check.info.width * check.info.height > this.limits.maxImagePixels) return undefined;
    return check.info;
  }
}
