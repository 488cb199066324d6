// The sessions table: a row per login, found by the SHA-256 of its token, never by the token itself.
import type { SessionRow } from '../rows.ts';
import type { Db } from './database.ts';

/** A session row's columns, of the sessions table named `s`. */
export const SESSION_COLUMNS = 's.id, s.token_hash AS tokenHash, s.user_id AS userId, s.created_at AS createdAt, s.expires_at AS expiresAt, s.max_expires_at AS maxExpiresAt,'
  + ' s.last_used_at AS lastUsedAt, s.user_agent AS userAgent, s.address';
/** A session of a deactivated user holds nothing, even one a login racing the deactivation made (docs/protocol.md §13.4). */
const OF_ACTIVE_USER = 'NOT EXISTS (SELECT 1 FROM users u WHERE u.id = s.user_id AND u.deactivated_at IS NOT NULL)';

export class SessionStore {
  private readonly insert;
  private readonly byTokenHash;
  private readonly byId;
  private readonly extend;
  private readonly used;
  private readonly seen;
  private readonly remove;
  private readonly removeOthers;
  private readonly removeAll;
  private readonly removeExpired;
  private readonly live;
  private readonly recordUse;

  constructor(db: Db) {
    this.insert = db.prepare('INSERT INTO sessions (id, token_hash, user_id, created_at, expires_at, max_expires_at, last_used_at, user_agent, address)'
      + ' VALUES (@id, @tokenHash, @userId, @createdAt, @expiresAt, @maxExpiresAt, @lastUsedAt, @userAgent, @address)');
    this.byTokenHash = db.prepare(`SELECT ${SESSION_COLUMNS} FROM sessions s WHERE s.token_hash = ? AND ${OF_ACTIVE_USER}`);
    this.byId = db.prepare(`SELECT ${SESSION_COLUMNS} FROM sessions s WHERE s.id = ?`);
    this.extend = db.prepare('UPDATE sessions SET expires_at = ? WHERE id = ?');
    this.used = db.prepare('UPDATE sessions SET expires_at = ?, last_used_at = ? WHERE id = ?');
    this.seen = db.prepare('UPDATE users SET last_seen_at = ? WHERE id = ?');
    this.recordUse = db.transaction((id: string, userId: string, expiresAt: number, now: number) => {
      this.used.run(expiresAt, now, id);
      this.seen.run(now, userId);
    });
    this.remove = db.prepare('DELETE FROM sessions WHERE id = ?');
    this.removeOthers = db.prepare('DELETE FROM sessions WHERE user_id = ? AND id <> ? RETURNING id').pluck();
    this.removeAll = db.prepare('DELETE FROM sessions WHERE user_id = ? RETURNING id').pluck();
    this.removeExpired = db.prepare('DELETE FROM sessions WHERE expires_at <= ?');
    this.live = db.prepare(`SELECT s.id, min(s.expires_at, s.max_expires_at) AS until FROM json_each(?) j JOIN sessions s ON s.id = j.value WHERE s.expires_at > ? AND s.max_expires_at > ? AND ${OF_ACTIVE_USER}`);
  }

  /** Which of these sessions still hold (exist and have not expired), each with when it expires as of now: one query for any number. */
  findLiveSessions(ids: readonly string[], now: number): Map<string, number> {
    return new Map((this.live.all(JSON.stringify(ids), now, now) as { id: string; until: number }[]).map((row) => [row.id, row.until]));
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

  /** Both rows in one transaction (a savepoint when the caller's is open). */
  recordSessionUse(id: string, userId: string, expiresAt: number, now: number): void {
    this.recordUse(id, userId, expiresAt, now);
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
