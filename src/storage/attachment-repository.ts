// Files of messages (docs/protocol.md §15): uploads, their chunks by sha256, and what references them.
import type { AttachmentRow } from './rows.ts';

/**
 * Files of messages (docs/protocol.md §15). A content is written in chunks as it arrives (startContent, appendChunks,
 * each its own short write, so an upload never holds the database), then finished under its sha256: identical bytes
 * are stored once, and a content goes with the last attachment that refers to it (the backends' triggers).
 */
export interface AttachmentRepository {
  /** A new content that receives chunks; it has no sha256 and no reference yet. */
  startContent(contentId: string, chunkBytes: number, createdAt: number): Promise<void>;
  /** Chunks first, first + 1, ... of a started content (numbered from 0), in one write: one commit, one sync. */
  appendChunks(contentId: string, first: number, chunks: readonly Buffer[]): Promise<void>;
  /**
   * Only through a Tx, with the insertAttachment that refers to it: the content is complete. Answers the id under
   * which these bytes are stored: this one's, or an earlier content's with the same sha256 (this copy is then dropped).
   */
  finishContent(contentId: string, sha256: string, size: number): Promise<string>;
  /** An upload that failed: its chunks go (only a content no attachment refers to). */
  dropContent(contentId: string): Promise<void>;
  /** Chunk n of a content, or undefined when it is gone (its last reference was deleted meanwhile). */
  readChunk(contentId: string, n: number): Promise<Buffer | undefined>;
  insertAttachment(row: Omit<AttachmentRow, 'messageId' | 'chunkBytes'>): Promise<void>;
  findAttachment(id: string): Promise<AttachmentRow | undefined>;
  /** The attachments among these ids, in the order of the ids (unknown ids are left out). */
  findAttachments(ids: readonly string[]): Promise<AttachmentRow[]>;
  /** Gives unused attachments to a message, in the order given; answers how many were unused and taken. */
  attachToMessage(messageId: string, ids: readonly string[]): Promise<number>;
  /** The bytes of every attachment the user uploaded that still exists (the quota, --attachment-quota). */
  bytesUsedBy(userId: string): Promise<number>;
  /** Unused uploads made before cutoff, and contents whose upload never finished by then; answers how many attachments went. */
  deleteUnused(cutoff: number): Promise<number>;
  /**
   * Account erasure (docs/protocol.md §13): every attachment the user uploaded goes (so do contents nobody else
   * refers to), and their messages show none any more. Answers how many attachments went.
   */
  deleteUserAttachments(userId: string): Promise<number>;
}
