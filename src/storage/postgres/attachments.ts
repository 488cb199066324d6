// Attachments on PostgreSQL: contents in chunks, stored once per sha256 (sql/postgres/009-attachments.sql).
import type { AttachmentRepository, AttachmentRow } from '../store.ts';
import type { Sql } from './connection.ts';
import { LOCK_NAMESPACE } from './migrate.ts';

const ATTACHMENT_SELECT = 'SELECT a.id, a.chat_id AS "chatId", a.uploader_id AS "uploaderId", a.message_id AS "messageId", a.blob_id AS "contentId", a.name,'
  + ' a.content_type AS "contentType", a.size, a.sha256, a.width, a.height, a.created_at AS "createdAt", b.chunk_bytes AS "chunkBytes"'
  + ' FROM attachments a JOIN attachment_blobs b ON b.id = a.blob_id';

/** Bytes of a chunk read per row (see readChunk). */
const READ_SLICE = 32 * 1024;

/** The advisory lock (with a hash of the sha256) that makes two uploads of the same bytes finish one after the other. */
const CONTENT_LOCK = 2;

export class PgAttachments implements AttachmentRepository {
  private readonly sql: Sql;

  constructor(sql: Sql) {
    this.sql = sql;
  }

  async startContent(contentId: string, chunkBytes: number, createdAt: number): Promise<void> {
    await this.sql.run('INSERT INTO attachment_blobs (id, chunk_bytes, created_at) VALUES (?, ?, ?)', [contentId, chunkBytes, createdAt]);
  }

  /** One statement (pg sends each Buffer as a binary parameter, as it is): one commit for the batch. */
  async appendChunks(contentId: string, first: number, chunks: readonly Buffer[]): Promise<void> {
    const rows = chunks.map(() => '(?, ?, ?)').join(', ');
    await this.sql.run(`INSERT INTO attachment_chunks (blob_id, n, data) VALUES ${rows}`, chunks.flatMap((data, index) => [contentId, first + index, data]));
  }

  async finishContent(contentId: string, sha256: string, size: number): Promise<string> {
    await this.sql.run('SELECT pg_advisory_xact_lock(?, hashtext(?))', [LOCK_NAMESPACE + CONTENT_LOCK, sha256]);
    const existing = await this.sql.one<{ id: string }>('SELECT id FROM attachment_blobs WHERE sha256 = ?', [sha256]);
    if (existing !== undefined) {
      await this.dropContent(contentId);
      return existing.id;
    }
    await this.sql.run('UPDATE attachment_blobs SET sha256 = ?, size = ? WHERE id = ?', [sha256, size, contentId]);
    return contentId;
  }

  async dropContent(contentId: string): Promise<void> {
    await this.sql.run('DELETE FROM attachment_blobs WHERE id = ? AND refs = 0', [contentId]);
  }

  /**
   * In slices of READ_SLICE bytes, one row each: the driver reads bytea as hex text, and a 256 KiB chunk would be one
   * 512 KiB string, which V8 keeps among its large objects until a full collection; a slice's 64 KiB of text is an
   * ordinary young object that the next scavenge frees (http/buffer-release.ts). The storage is EXTERNAL, so
   * PostgreSQL reads just the slice's pages.
   */
  async readChunk(contentId: string, n: number): Promise<Buffer | undefined> {
    const slices = await this.sql.rows<{ part: Buffer }>('SELECT substring(c.data FROM s FOR ?) AS part FROM attachment_chunks c CROSS JOIN generate_series(1, length(c.data), ?) AS s'
      + ' WHERE c.blob_id = ? AND c.n = ? ORDER BY s', [READ_SLICE, READ_SLICE, contentId, n]);
    return slices.length === 0 ? undefined : Buffer.concat(slices.map((slice) => slice.part));
  }

  async insertAttachment(row: Omit<AttachmentRow, 'messageId' | 'chunkBytes'>): Promise<void> {
    await this.sql.run('INSERT INTO attachments (id, chat_id, uploader_id, blob_id, name, content_type, size, sha256, width, height, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [row.id, row.chatId, row.uploaderId, row.contentId, row.name, row.contentType, row.size, row.sha256, row.width, row.height, row.createdAt]);
  }

  findAttachment(id: string): Promise<AttachmentRow | undefined> {
    return this.sql.one(`${ATTACHMENT_SELECT} WHERE a.id = ?`, [id]);
  }

  async findAttachments(ids: readonly string[]): Promise<AttachmentRow[]> {
    const rows = await this.sql.rows<AttachmentRow>(`${ATTACHMENT_SELECT} WHERE a.id = ANY(?::text[])`, [ids]);
    return ids.flatMap((id) => rows.find((row) => row.id === id) ?? []);
  }

  async attachToMessage(messageId: string, ids: readonly string[]): Promise<number> {
    return this.sql.count('UPDATE attachments a SET message_id = ?, position = g.position FROM unnest(?::text[]) WITH ORDINALITY AS g(id, position)'
      + ' WHERE a.id = g.id AND a.message_id IS NULL', [messageId, ids]);
  }

  async bytesUsedBy(userId: string): Promise<number> {
    return (await this.sql.one<{ used: number }>('SELECT coalesce(sum(size), 0)::bigint AS used FROM attachments WHERE uploader_id = ?', [userId]))!.used;
  }

  async deleteUnused(cutoff: number): Promise<number> {
    const count = await this.sql.count('DELETE FROM attachments WHERE message_id IS NULL AND created_at < ?', [cutoff]);
    await this.sql.run('DELETE FROM attachment_blobs WHERE refs = 0 AND created_at < ?', [cutoff]);
    return count;
  }

  async deleteUserAttachments(userId: string): Promise<number> {
    await this.sql.run("UPDATE messages SET attachments = '[]', attachment_names = '' WHERE id IN (SELECT message_id FROM attachments WHERE uploader_id = ? AND message_id IS NOT NULL)", [userId]);
    return this.sql.count('DELETE FROM attachments WHERE uploader_id = ?', [userId]);
  }
}
