// The users table: registration, lookup by id or login, profile updates.
import type { UserRow } from '../rows.ts';
import type { Db } from './database.ts';

const COLUMNS = 'id, login, password_hash AS passwordHash, avatar_id AS avatarId, created_at AS createdAt, updated_at AS updatedAt';

export class UserStore {
  private readonly insert;
  private readonly byId;
  private readonly byLogin;
  private readonly update;

  constructor(db: Db) {
    this.insert = db.prepare('INSERT INTO users (id, login, password_hash, avatar_id, created_at, updated_at) VALUES (@id, @login, @passwordHash, @avatarId, @createdAt, @updatedAt)');
    this.byId = db.prepare(`SELECT ${COLUMNS} FROM users WHERE id = ?`);
    this.byLogin = db.prepare(`SELECT ${COLUMNS} FROM users WHERE login = ?`);
    this.update = db.prepare('UPDATE users SET login = @login, password_hash = @passwordHash, avatar_id = @avatarId, updated_at = @updatedAt WHERE id = @id');
  }

  /** Throws SQLITE_CONSTRAINT_UNIQUE (a unique StoreConstraintError through the store) when the login is taken in any letter case. */
  insertUser(user: UserRow): void {
    this.insert.run(user);
  }

  findUserById(id: string): UserRow | undefined {
    return this.byId.get(id) as UserRow | undefined;
  }

  /** Logins compare without regard to ASCII case (the column is COLLATE NOCASE). */
  findUserByLogin(login: string): UserRow | undefined {
    return this.byLogin.get(login) as UserRow | undefined;
  }

  updateUser(user: UserRow): void {
    this.update.run(user);
  }
}
