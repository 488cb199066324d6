// One user's records read whole, and the writes of their erasure, on PostgreSQL: docs/protocol.md §3.5-§3.7.
import type { ParsedQuery } from '../../parsers/query.ts';
import type {
  AccountRepository, AvatarRow, InviteRow, MembershipRow, MessageRow, Page, ReactionOfUserRow, RevisionOfMessageRow, SessionRow,
} from '../store.ts';
import type { Sql } from './connection.ts';
import { listPage } from './collections.ts';
import { MESSAGE_SELECT } from './conversations.ts';
import { AVATAR_COLUMNS, SESSION_COLUMNS } from './people.ts';
import { INVITE_ROW_COLUMNS } from './invites.ts';
import type { SqlColumns } from '../query-sql.ts';

/** A user's sessions with `is_current`: bind the caller's session id, then scope by `s.user_id = ?`. */
const SESSION_LIST_SELECT = `SELECT ${SESSION_COLUMNS} FROM (SELECT *, (CASE WHEN id = ? THEN 1 ELSE 0 END) AS is_current FROM sessions) s`;
const SESSION_LIST_COLUMNS: SqlColumns = {
  idField: 'id',
  columns: {
    id: 's.id', createdAt: 's.created_at', lastUsedAt: 's.last_used_at', expiresAt: 's.expires_at', userAgent: 's.user_agent', address: 's.address',
    current: 's.is_current',
  },
};

/** The login an erased account's row keeps: unique, and no sign-up can take it (a space is never part of a login). */
function makeErasedLogin(id: string): string {
  return `(erased ${id})`;
}

export class PgAccounts implements AccountRepository {
  private readonly sql: Sql;

  constructor(sql: Sql) {
    this.sql = sql;
  }

  listSessions(userId: string, currentId: string, query: ParsedQuery): Promise<Page<SessionRow>> {
    return listPage(this.sql, { select: SESSION_LIST_SELECT, selectParams: [currentId], scope: 's.user_id = ?', scopeParams: [userId], columns: SESSION_LIST_COLUMNS }, query);
  }

  findSessionsOfUser(userId: string): Promise<SessionRow[]> {
    return this.sql.rows(`SELECT ${SESSION_COLUMNS} FROM sessions s WHERE s.user_id = ? ORDER BY s.id`, [userId]);
  }

  findAvatarsOfUser(userId: string): Promise<AvatarRow[]> {
    return this.sql.rows(`SELECT ${AVATAR_COLUMNS} FROM avatars a WHERE a.user_id = ? ORDER BY a.id`, [userId]);
  }

  findMembershipsOfUser(userId: string): Promise<MembershipRow[]> {
    return this.sql.rows('SELECT c.id AS "chatId", c.title, c.owner_id AS "ownerId", cm.added_at AS "addedAt", cm.last_read_id AS "lastReadId", cm.unread_count AS "unreadCount", cm.mention_count AS "mentionCount"'
      + ' FROM chat_members cm JOIN chats c ON c.id = cm.chat_id WHERE cm.user_id = ? ORDER BY cm.added_at, c.id', [userId]);
  }

  findMessagesOfAuthor(userId: string): Promise<MessageRow[]> {
    return this.sql.rows(`${MESSAGE_SELECT} WHERE m.author_id = ? ORDER BY m.id`, [userId]);
  }

  findRevisionsOfAuthor(userId: string): Promise<RevisionOfMessageRow[]> {
    return this.sql.rows('SELECT v.message_id AS "messageId", v.n AS id, v.text, v.created_at AS "createdAt" FROM message_revisions v JOIN messages m ON m.id = v.message_id'
      + ' WHERE m.author_id = ? ORDER BY v.message_id, v.n', [userId]);
  }

  findReactionsOfUser(userId: string): Promise<ReactionOfUserRow[]> {
    return this.sql.rows('SELECT r.message_id AS "messageId", m.chat_id AS "chatId", r.emoji, r.user_id AS "userId", r.created_at AS "createdAt"'
      + ' FROM reactions r JOIN messages m ON m.id = r.message_id WHERE r.user_id = ? ORDER BY r.seq', [userId]);
  }

  findInvitesOfUser(userId: string): Promise<InviteRow[]> {
    return this.sql.rows(`SELECT ${INVITE_ROW_COLUMNS} FROM invites i WHERE i.created_by = ? ORDER BY i.created_at, i.id`, [userId]);
  }

  async deleteUser(id: string): Promise<void> {
    await this.sql.run('DELETE FROM users WHERE id = ?', [id]);
  }

  async eraseUserKeepingRow(id: string, erasedAt: number): Promise<void> {
    // No longer an admin or active either, so no count of admins or active users includes it.
    await this.sql.run("UPDATE users SET login = ?, password_hash = '', avatar_id = NULL, role = 'member', deactivated_at = coalesce(deactivated_at, ?::bigint),"
      + ' last_seen_at = NULL, erased_at = ?, updated_at = ? WHERE id = ?', [makeErasedLogin(id), erasedAt, erasedAt, erasedAt, id]);
    await this.sql.run('DELETE FROM avatars WHERE user_id = ?', [id]);
    await this.sql.run('DELETE FROM sessions WHERE user_id = ?', [id]);
    await this.sql.run('DELETE FROM invites WHERE created_by = ?', [id]);
  }
}
