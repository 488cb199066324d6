// The attachments, attachment_blobs and attachment_chunks tables: contents in chunks, stored once per sha256.
import type { AttachmentRow } from '../rows.ts';
import { relaxedSync, withoutSync, type Db, type RelaxedSync } from './database.ts';
import { prepareStatements, type Statements } from './statements.ts';

const ATTACHMENT_SELECT = 'SELECT a.id, a.chat_id AS chatId, a.uploader_id AS uploaderId, a.message_id AS messageId, a.blob_id AS contentId, a.name,'
  + ' a.content_type AS contentType, a.size, a.sha256, a.width, a.height, a.created_at AS createdAt, b.chunk_bytes AS chunkBytes'
  + ' FROM attachments a JOIN attachment_blobs b ON b.id = a.blob_id';

const SQL = {
  start: 'INSERT INTO attachment_blobs (id, chunk_bytes, created_at) VALUES (?, ?, ?)',
  append: 'INSERT INTO attachment_chunks (blob_id, n, data) VALUES (?, ?, ?)',
  bySha: 'SELECT id FROM attachment_blobs WHERE sha256 = ?',
  finish: 'UPDATE attachment_blobs SET sha256 = ?, size = ? WHERE id = ?',
  drop: 'DELETE FROM attachment_blobs WHERE id = ? AND refs = 0',
  chunk: 'SELECT data FROM attachment_chunks WHERE blob_id = ? AND n = ?',
  insert: 'INSERT INTO attachments (id, chat_id, uploader_id, blob_id, name, content_type, size, sha256, width, height, created_at)'
    + ' VALUES (@id, @chatId, @uploaderId, @contentId, @name, @contentType, @size, @sha256, @width, @height, @createdAt)',
  byId: `${ATTACHMENT_SELECT} WHERE a.id = ?`,
  attach: 'UPDATE attachments SET message_id = ?, position = ? WHERE id = ? AND message_id IS NULL',
  used: 'SELECT coalesce(sum(size), 0) AS used FROM attachments WHERE uploader_id = ?',
  deleteUnused: 'DELETE FROM attachments WHERE message_id IS NULL AND created_at < ?',
  deleteUnfinished: 'DELETE FROM attachment_blobs WHERE refs = 0 AND created_at < ?',
  clearMessages: "UPDATE messages SET attachments = '[]', attachment_names = '' WHERE id IN (SELECT message_id FROM attachments WHERE uploader_id = ? AND message_id IS NOT NULL)",
  deleteOfUser: 'DELETE FROM attachments WHERE uploader_id = ?',
};

export class AttachmentStore {
  private readonly sql: Statements<typeof SQL>;
  private readonly db: Db;
  private readonly appendAll: (contentId: string, first: number, chunks: readonly Buffer[]) => void;
  /**
   * An upload's chunks commit without waiting for the disk: the transaction that finishes the content and inserts its
   * attachment commits at FULL, which syncs the whole WAL, these chunks with it, before anything is acknowledged. A
   * crash before it loses only chunks of an upload not yet answered (the hourly cleanup removes them). One sync an
   * upload instead of one a batch (docs/attachments.md, "How they are stored").
   */
  private readonly relaxSync: RelaxedSync | undefined;

  constructor(db: Db) {
    this.db = db;
    this.relaxSync = relaxedSync(db);
    this.sql = prepareStatements(db, SQL);
    this.sql.chunk.pluck();
    // A savepoint when a transaction is open already, else a transaction of its own: one commit for the batch.
    this.appendAll = db.transaction((contentId: string, first: number, chunks: readonly Buffer[]) => {
      chunks.forEach((data, index) => this.sql.append.run(contentId, first + index, data));
    });
  }

  startContent(contentId: string, chunkBytes: number, createdAt: number): void {
    this.sql.start.run(contentId, chunkBytes, createdAt);
  }

  appendChunks(contentId: string, first: number, chunks: readonly Buffer[]): void {
    withoutSync(this.db, this.relaxSync, () => this.appendAll(contentId, first, chunks));
  }

  /** Inside the transaction that inserts the attachment: the IMMEDIATE lock makes two identical uploads take turns. */
  finishContent(contentId: string, sha256: string, size: number): string {
    const existing = this.sql.bySha.get(sha256) as { id: string } | undefined;
    if (existing !== undefined) {
      this.sql.drop.run(contentId);
      return existing.id;
    }
    this.sql.finish.run(sha256, size, contentId);
    return contentId;
  }

  dropContent(contentId: string): void {
    this.sql.drop.run(contentId);
  }

  readChunk(contentId: string, n: number): Buffer | undefined {
    return this.sql.chunk.get(contentId, n) as Buffer | undefined;
  }

  insertAttachment(row: Omit<AttachmentRow, 'messageId' | 'chunkBytes'>): void {
    const { id, chatId, uploaderId, contentId, name, contentType, size, sha256, width, height, createdAt } = row;
    this.sql.insert.run({ id, chatId, uploaderId, contentId, name, contentType, size, sha256, width, height, createdAt });
  }

  findAttachment(id: string): AttachmentRow | undefined {
    return this.sql.byId.get(id) as AttachmentRow | undefined;
  }

  findAttachments(ids: readonly string[]): AttachmentRow[] {
    return ids.flatMap((id) => this.findAttachment(id) ?? []);
  }

  attachToMessage(messageId: string, ids: readonly string[]): number {
    let taken = 0;
    ids.forEach((id, position) => {
      taken += this.sql.attach.run(messageId, position, id).changes;
    });
    return taken;
  }

  bytesUsedBy(userId: string): number {
    return (this.sql.used.get(userId) as { used: number }).used;
  }

  /** The triggers of sql/migrations/015 take each content with its last reference. */
  deleteUnused(cutoff: number): number {
    const count = this.sql.deleteUnused.run(cutoff).changes;
    this.sql.deleteUnfinished.run(cutoff);
    return count;
  }

  deleteUserAttachments(userId: string): number {
    this.sql.clearMessages.run(userId);
    return this.sql.deleteOfUser.run(userId).changes;
  }
}
