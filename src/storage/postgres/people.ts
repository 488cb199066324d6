// Users, sessions and avatars on PostgreSQL.
import type { AvatarBytes, AvatarRepository, AvatarRow, SessionRepository, SessionRow, UserRepository, UserRow, NewUserRow } from '../store.ts';
import type { Sql } from './connection.ts';

/** Runs a statement that may break a constraint inside its own savepoint when a transaction is open, so that the
 * transaction survives the error (PostgreSQL aborts the whole transaction otherwise, SQLite only the statement). */
export type Guarded = <T>(statement: () => Promise<T>) => Promise<T>;

const USER_COLUMNS = 'id, login, password_hash AS "passwordHash", avatar_id AS "avatarId", role, deactivated_at AS "deactivatedAt", '
  + 'last_seen_at AS "lastSeenAt", created_at AS "createdAt", updated_at AS "updatedAt", kind, owner_id AS "ownerId"';
const INSERT_USER = 'INSERT INTO users (id, login, password_hash, avatar_id, role, deactivated_at, last_seen_at, created_at, updated_at)';

function userValues(user: NewUserRow): unknown[] {
  return [user.id, user.login, user.passwordHash, user.avatarId, user.role, user.deactivatedAt, user.lastSeenAt, user.createdAt, user.updatedAt];
}

export class PgUsers implements UserRepository {
  private readonly sql: Sql;
  private readonly guarded: Guarded;

  constructor(sql: Sql, guarded: Guarded) {
    this.sql = sql;
    this.guarded = guarded;
  }

  async insertUser(user: NewUserRow): Promise<void> {
    await this.guarded(() => this.sql.run(`${INSERT_USER} VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, userValues(user)));
  }

  async hasNoUsers(): Promise<boolean> {
    return (await this.sql.one('SELECT 1 AS found FROM users LIMIT 1')) === undefined;
  }

  /**
   * Only in a transaction: the table lock (which plain reads and writes of other tables pass) makes two first
   * sign-ups on several servers take turns, so the second sees the first and inserts nothing.
   */
  async insertFirstUser(user: NewUserRow): Promise<boolean> {
    await this.sql.run('LOCK TABLE users IN SHARE ROW EXCLUSIVE MODE');
    if (!(await this.hasNoUsers())) return false;
    await this.insertUser(user);
    return true;
  }

  async countActiveAdmins(): Promise<number> {
    // FOR UPDATE: two transactions demoting the last two admins take turns, and the second counts one.
    const row = await this.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM (SELECT 1 FROM users WHERE role = 'admin' AND deactivated_at IS NULL FOR UPDATE) a");
    return row!.n;
  }

  /** One statement for the whole flush: two arrays, unnested side by side. */
  async recordLastSeen(seen: readonly (readonly [string, number])[]): Promise<void> {
    if (seen.length === 0) return;
    await this.sql.run('UPDATE users u SET last_seen_at = GREATEST(COALESCE(u.last_seen_at, 0), s.at) '
      + 'FROM (SELECT id, max(at) AS at FROM unnest(?::text[], ?::bigint[]) AS v(id, at) GROUP BY id) s WHERE u.id = s.id AND u.erased_at IS NULL',
    [seen.map(([id]) => id), seen.map(([, at]) => at)]);
  }

  findUserById(id: string): Promise<UserRow | undefined> {
    // An erased account's row (it keeps its messages' author) is nobody's to find: docs/protocol.md §3.7.
    return this.sql.one(`SELECT ${USER_COLUMNS} FROM users WHERE id = ? AND erased_at IS NULL`, [id]);
  }

  /** lower() under "C" folds ASCII letters only, as SQLite's NOCASE; the unique index is on lower(login). */
  findUserByLogin(login: string): Promise<UserRow | undefined> {
    // A login tried at sign-in is what the client sent; PostgreSQL text cannot hold NUL, and no login has one.
    if (login.includes('\0')) return Promise.resolve(undefined);
    return this.sql.one(`SELECT ${USER_COLUMNS} FROM users WHERE lower(login) = lower(?) AND erased_at IS NULL`, [login]);
  }

  async updateUser(user: UserRow): Promise<void> {
    await this.guarded(() => this.sql.run('UPDATE users SET login = ?, password_hash = ?, avatar_id = ?, role = ?, deactivated_at = ?, '
      + 'last_seen_at = ?, updated_at = ? WHERE id = ?',
      [user.login, user.passwordHash, user.avatarId, user.role, user.deactivatedAt, user.lastSeenAt, user.updatedAt, user.id]));
  }
}

/** A session row's columns, of the sessions table named `s`. */
export const SESSION_COLUMNS = 's.id, s.token_hash AS "tokenHash", s.user_id AS "userId", s.created_at AS "createdAt", s.expires_at AS "expiresAt", s.max_expires_at AS "maxExpiresAt",'
  + ' s.last_used_at AS "lastUsedAt", s.user_agent AS "userAgent", s.address';
/** A session of a deactivated user holds nothing, even one a login racing the deactivation made (docs/protocol.md §13.4). */
const OF_ACTIVE_USER = 'NOT EXISTS (SELECT 1 FROM users u WHERE u.id = s.user_id AND u.deactivated_at IS NOT NULL)';

export class PgSessions implements SessionRepository {
  private readonly sql: Sql;

  constructor(sql: Sql) {
    this.sql = sql;
  }

  async insertSession(session: SessionRow): Promise<void> {
    await this.sql.run('INSERT INTO sessions (id, token_hash, user_id, created_at, expires_at, max_expires_at, last_used_at, user_agent, address) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [session.id, session.tokenHash, session.userId, session.createdAt, session.expiresAt, session.maxExpiresAt, session.lastUsedAt, session.userAgent, session.address]);
  }

  findSessionByTokenHash(tokenHash: Buffer): Promise<SessionRow | undefined> {
    return this.sql.one(`SELECT ${SESSION_COLUMNS} FROM sessions s WHERE s.token_hash = ? AND ${OF_ACTIVE_USER}`, [tokenHash]);
  }

  findSessionById(id: string): Promise<SessionRow | undefined> {
    return this.sql.one(`SELECT ${SESSION_COLUMNS} FROM sessions s WHERE s.id = ?`, [id]);
  }

  async findLiveSessions(ids: readonly string[], now: number): Promise<Map<string, number>> {
    const rows = await this.sql.rows<{ id: string; until: string }>(`SELECT s.id, least(s.expires_at, s.max_expires_at) AS until FROM sessions s WHERE s.id = ANY(?::text[]) AND s.expires_at > ? AND s.max_expires_at > ? AND ${OF_ACTIVE_USER}`, [ids, now, now]);
    return new Map(rows.map((row) => [row.id, Number(row.until)]));
  }

  async extendSession(id: string, expiresAt: number): Promise<void> {
    await this.sql.run('UPDATE sessions SET expires_at = ? WHERE id = ?', [expiresAt, id]);
  }

  /** One statement writes both rows: the session's expiry and last use, and its user's last sighting. */
  async recordSessionUse(id: string, userId: string, expiresAt: number, now: number): Promise<void> {
    await this.sql.run('WITH used AS (UPDATE sessions SET expires_at = ?, last_used_at = ? WHERE id = ? RETURNING user_id)'
      + ' UPDATE users SET last_seen_at = ? WHERE id = ?', [expiresAt, now, id, now, userId]);
  }

  async deleteSession(id: string): Promise<void> {
    await this.sql.run('DELETE FROM sessions WHERE id = ?', [id]);
  }

  async deleteOtherSessions(userId: string, keepId: string): Promise<string[]> {
    return (await this.sql.rows<{ id: string }>('DELETE FROM sessions WHERE user_id = ? AND id <> ? RETURNING id', [userId, keepId])).map((row) => row.id);
  }

  async deleteUserSessions(userId: string): Promise<string[]> {
    return (await this.sql.rows<{ id: string }>('DELETE FROM sessions WHERE user_id = ? RETURNING id', [userId])).map((row) => row.id);
  }

  deleteExpiredSessions(now: number): Promise<number> {
    return this.sql.count('DELETE FROM sessions WHERE expires_at <= ?', [now]);
  }
}

export const AVATAR_COLUMNS = 'a.id, a.user_id AS "userId", a.content_type AS "contentType", a.image_width AS "imageWidth", a.image_height AS "imageHeight",'
  + ' a.x, a.y, a.width, a.height, a.etag, a.created_at AS "createdAt"';

export class PgAvatars implements AvatarRepository {
  private readonly sql: Sql;

  constructor(sql: Sql) {
    this.sql = sql;
  }

  async insertAvatar(row: AvatarRow & { bytes: Buffer }): Promise<void> {
    await this.sql.run('INSERT INTO avatars (id, user_id, content_type, image_width, image_height, x, y, width, height, bytes, etag, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [row.id, row.userId, row.contentType, row.imageWidth, row.imageHeight, row.x, row.y, row.width, row.height, row.bytes, row.etag, row.createdAt]);
  }

  findAvatarById(id: string): Promise<AvatarRow | undefined> {
    return this.sql.one(`SELECT ${AVATAR_COLUMNS} FROM avatars a WHERE a.id = ?`, [id]);
  }

  findAvatarBytes(id: string): Promise<AvatarBytes | undefined> {
    return this.sql.one('SELECT user_id AS "userId", bytes, content_type AS "contentType", etag FROM avatars WHERE id = ?', [id]);
  }

  /** The user's avatar_id is reset to NULL by the foreign key (ON DELETE SET NULL). */
  async deleteAvatar(id: string): Promise<void> {
    await this.sql.run('DELETE FROM avatars WHERE id = ?', [id]);
  }
}
