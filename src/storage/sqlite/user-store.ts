// The users table: registration, lookup by id or login, profile updates, the first account and the admins.
import type { NewUserRow, UserRow } from '../rows.ts';
import type { Db } from './database.ts';
import { prepareStatements, type Statements } from './statements.ts';

const COLUMNS = 'id, login, password_hash AS passwordHash, avatar_id AS avatarId, role, deactivated_at AS deactivatedAt, '
  + 'last_seen_at AS lastSeenAt, created_at AS createdAt, updated_at AS updatedAt, kind, owner_id AS ownerId';
const INSERT_COLUMNS = '(id, login, password_hash, avatar_id, role, deactivated_at, last_seen_at, created_at, updated_at)';
const VALUES = '@id, @login, @passwordHash, @avatarId, @role, @deactivatedAt, @lastSeenAt, @createdAt, @updatedAt';

const SQL = {
  insert: `INSERT INTO users ${INSERT_COLUMNS} VALUES (${VALUES})`,
  // One writer at a time: NOT EXISTS and the insert see the same database.
  insertFirst: `INSERT INTO users ${INSERT_COLUMNS} SELECT ${VALUES} WHERE NOT EXISTS (SELECT 1 FROM users)`,
  // An erased account's row (it keeps its messages' author) is nobody's to find: docs/protocol.md §3.7.
  byId: `SELECT ${COLUMNS} FROM users WHERE id = ? AND erased_at IS NULL`,
  // Logins compare without regard to ASCII case: the column is COLLATE NOCASE.
  byLogin: `SELECT ${COLUMNS} FROM users WHERE login = ? AND erased_at IS NULL`,
  update: 'UPDATE users SET login = @login, password_hash = @passwordHash, avatar_id = @avatarId, role = @role, '
    + 'deactivated_at = @deactivatedAt, last_seen_at = @lastSeenAt, updated_at = @updatedAt WHERE id = @id',
  any: 'SELECT 1 AS found FROM users LIMIT 1',
  activeAdmins: "SELECT count(*) AS n FROM users WHERE role = 'admin' AND deactivated_at IS NULL",
  // One statement for the whole flush: the pairs arrive as one JSON array [[id, at], ...].
  lastSeen: 'UPDATE users SET last_seen_at = max(coalesce(users.last_seen_at, 0), s.at) FROM '
    + "(SELECT json_extract(value, '$[0]') AS id, max(json_extract(value, '$[1]')) AS at FROM json_each(?) GROUP BY 1) AS s WHERE users.id = s.id AND users.erased_at IS NULL",
};

export class UserStore {
  private readonly sql: Statements<typeof SQL>;

  constructor(db: Db) {
    this.sql = prepareStatements(db, SQL);
  }

  /** Throws SQLITE_CONSTRAINT_UNIQUE (a unique StoreConstraintError through the store) when the login is taken in any letter case. */
  insertUser(user: NewUserRow): void {
    this.sql.insert.run(user);
  }

  findUserById(id: string): UserRow | undefined {
    return this.sql.byId.get(id) as UserRow | undefined;
  }

  findUserByLogin(login: string): UserRow | undefined {
    return this.sql.byLogin.get(login) as UserRow | undefined;
  }

  updateUser(user: UserRow): void {
    this.sql.update.run(user);
  }

  hasNoUsers(): boolean {
    return this.sql.any.get() === undefined;
  }

  insertFirstUser(user: NewUserRow): boolean {
    return this.sql.insertFirst.run(user).changes === 1;
  }

  recordLastSeen(seen: readonly (readonly [string, number])[]): void {
    if (seen.length > 0) this.sql.lastSeen.run(JSON.stringify(seen));
  }

  countActiveAdmins(): number {
    return (this.sql.activeAdmins.get() as { n: number }).n;
  }
}
