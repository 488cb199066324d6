// The users table: registration, lookup by id or login, profile updates.
import type { UserRow } from '../rows.ts';
import type { Db } from './database.ts';
import { prepareStatements, type Statements } from './statements.ts';

const COLUMNS = 'id, login, password_hash AS passwordHash, avatar_id AS avatarId, created_at AS createdAt, updated_at AS updatedAt';

const SQL = {
  insert: 'INSERT INTO users (id, login, password_hash, avatar_id, created_at, updated_at) VALUES (@id, @login, @passwordHash, @avatarId, @createdAt, @updatedAt)',
  // An erased account's row (it keeps its messages' author) is nobody's to find: docs/protocol.md §3.7.
  byId: `SELECT ${COLUMNS} FROM users WHERE id = ? AND erased_at IS NULL`,
  // Logins compare without regard to ASCII case: the column is COLLATE NOCASE.
  byLogin: `SELECT ${COLUMNS} FROM users WHERE login = ? AND erased_at IS NULL`,
  update: 'UPDATE users SET login = @login, password_hash = @passwordHash, avatar_id = @avatarId, updated_at = @updatedAt WHERE id = @id',
};

export class UserStore {
  private readonly sql: Statements<typeof SQL>;

  constructor(db: Db) {
    this.sql = prepareStatements(db, SQL);
  }

  /** Throws SQLITE_CONSTRAINT_UNIQUE (a unique StoreConstraintError through the store) when the login is taken in any letter case. */
  insertUser(user: UserRow): void {
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
}
