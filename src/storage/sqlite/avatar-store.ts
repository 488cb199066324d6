// The avatars table: images with their thumbnail zone, listed per user.
import type { AvatarBytes, AvatarRow } from '../rows.ts';
import type { Db } from './database.ts';

export const AVATAR_COLUMNS = 'a.id, a.user_id AS userId, a.content_type AS contentType, a.image_width AS imageWidth, a.image_height AS imageHeight, a.x, a.y, a.width, a.height, a.etag, a.created_at AS createdAt';

/**
 * The avatars of users for a page of a list (scope: `a.user_id = ?`), joined to their user so
 * AVATAR_IS_CURRENT can tell the user's current avatar from the others.
 */
export const AVATAR_LIST_SELECT = `SELECT ${AVATAR_COLUMNS} FROM avatars a JOIN users u ON u.id = a.user_id`;
/** 1 for the user's current avatar, else 0 (IS, not =, so a user without one gives 0, never NULL). */
export const AVATAR_IS_CURRENT = '(u.avatar_id IS a.id)';

export class AvatarStore {
  private readonly insert;
  private readonly byId;
  private readonly bytes;
  private readonly remove;

  constructor(db: Db) {
    this.insert = db.prepare('INSERT INTO avatars (id, user_id, content_type, image_width, image_height, x, y, width, height, bytes, etag, created_at) VALUES (@id, @userId, @contentType, @imageWidth, @imageHeight, @x, @y, @width, @height, @bytes, @etag, @createdAt)');
    this.byId = db.prepare(`SELECT ${AVATAR_COLUMNS} FROM avatars a WHERE a.id = ?`);
    this.bytes = db.prepare('SELECT user_id AS userId, bytes, content_type AS contentType, etag FROM avatars WHERE id = ?');
    this.remove = db.prepare('DELETE FROM avatars WHERE id = ?');
  }

  insertAvatar(row: AvatarRow & { bytes: Buffer }): void {
    this.insert.run(row);
  }

  findAvatarById(id: string): AvatarRow | undefined {
    return this.byId.get(id) as AvatarRow | undefined;
  }

  findAvatarBytes(id: string): AvatarBytes | undefined {
    return this.bytes.get(id) as AvatarBytes | undefined;
  }

  /** The user's avatar_id is reset to NULL by the foreign key (ON DELETE SET NULL). */
  deleteAvatar(id: string): void {
    this.remove.run(id);
  }
}
