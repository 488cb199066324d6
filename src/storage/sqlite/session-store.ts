// The sessions table: a row per login, found by the SHA-256 of its token, never by the token itself.
import type { SessionRow } from '../rows.ts';
import type { Db } from './database.ts';

const COLUMNS = 'id, token_hash AS tokenHash, user_id AS userId, created_at AS createdAt, expires_at AS expiresAt, max_expires_at AS maxExpiresAt';
/** A session of a deactivated user holds nothing, even one a login racing the deactivation made (docs/protocol.md §13.4). */
const OF_ACTIVE_USER = 'NOT EXISTS (SELECT 1 FROM users u WHERE u.id = sessions.user_id AND u.deactivated_at IS NOT NULL)';

export class SessionStore {
  private readonly insert;
  private readonly byTokenHash;
  private readonly byId;
  private readonly extend;
  private readonly remove;
  private readonly removeOthers;
  private readonly removeAll;
  private readonly removeExpired;
  private readonly live;

  constructor(db: Db) {
    this.insert = db.prepare('INSERT INTO sessions (id, token_hash, user_id, created_at, expires_at, max_expires_at) VALUES (@id, @tokenHash, @userId, @createdAt, @expiresAt, @maxExpiresAt)');
    this.byTokenHash = db.prepare(`SELECT ${COLUMNS} FROM sessions WHERE token_hash = ? AND ${OF_ACTIVE_USER}`);
    this.byId = db.prepare(`SELECT ${COLUMNS} FROM sessions WHERE id = ?`);
    this.extend = db.prepare('UPDATE sessions SET expires_at = ? WHERE id = ?');
    this.remove = db.prepare('DELETE FROM sessions WHERE id = ?');
    this.removeOthers = db.prepare('DELETE FROM sessions WHERE user_id = ? AND id <> ? RETURNING id').pluck();
    this.removeAll = db.prepare('DELETE FROM sessions WHERE user_id = ? RETURNING id').pluck();
    this.removeExpired = db.prepare('DELETE FROM sessions WHERE expires_at <= ?');
    this.live = db.prepare(`SELECT sessions.id FROM json_each(?) j JOIN sessions ON sessions.id = j.value WHERE sessions.expires_at > ? AND sessions.max_expires_at > ? AND ${OF_ACTIVE_USER}`).pluck();
  }

  /** Which of these sessions still hold (exist and have not expired): one query for any number of them. */
  findLiveSessionIds(ids: readonly string[], now: number): Set<string> {
    return new Set(this.live.all(JSON.stringify(ids), now, now) as string[]);
  }

  insertSession(session: SessionRow): void {
    this.insert.run(session);
  }

  findSessionByTokenHash(tokenHash: Buffer): SessionRow | undefined {
    return this.byTokenHash.get(tokenHash) as SessionRow | undefined;
  }

  findSessionById(id: string): SessionRow | undefined {
    return this.byId.get(id) as SessionRow | undefined;
  }

  extendSession(id: string, expiresAt: number): void {
    this.extend.run(expiresAt, id);
  }

  deleteSession(id: string): void {
    this.remove.run(id);
  }

  /** Ends every session of a user but one (after a password change); answers the ids of those that went. */
  deleteOtherSessions(userId: string, keepId: string): string[] {
    return this.removeOthers.all(userId, keepId) as string[];
  }

  /** Ends every session of a user (deactivation); answers the ids of those that went. */
  deleteUserSessions(userId: string): string[] {
    return this.removeAll.all(userId) as string[];
  }

  deleteExpiredSessions(now: number): number {
    return this.removeExpired.run(now).changes;
  }
}
