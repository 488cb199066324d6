// One user's records read whole, and the writes of their erasure: docs/protocol.md §3.5-§3.7.
import type { ParsedQuery } from '../../parsers/query.ts';
import type { AvatarRow, MessageRow, Page, SessionRow } from '../rows.ts';
import type { InviteRow, MembershipRow, ReactionOfUserRow, RevisionOfMessageRow } from '../account-rows.ts';
import { AVATAR_COLUMNS } from './avatar-store.ts';
import { INVITE_SELECT } from './invite-store.ts';
import type { Db } from './database.ts';
import { PageRunner } from './list-page.ts';
import { MESSAGE_SELECT } from './message-store.ts';
import { SESSION_COLUMNS } from './session-store.ts';
import type { SqlColumns } from './query-sql.ts';
import { prepareStatements, type Statements } from './statements.ts';

export const SESSION_LIST_COLUMNS: SqlColumns = {
  idField: 'id',
  columns: {
    id: 's.id', createdAt: 's.created_at', lastUsedAt: 's.last_used_at', expiresAt: 's.expires_at', userAgent: 's.user_agent', address: 's.address',
    // Not a query field: 1 for the caller's own session (SESSION_LIST_SELECT binds its id), for sorting only.
    current: 's.is_current',
  },
};

/** A user's sessions with `is_current`: bind the caller's session id, then scope by `s.user_id = ?`. */
const SESSION_LIST_SELECT = `SELECT ${SESSION_COLUMNS} FROM (SELECT *, (id = ?) AS is_current FROM sessions) s`;

/** The login an erased account's row keeps: unique, and no sign-up can take it (a space is never part of a login). */
function makeErasedLogin(id: string): string {
  return `(erased ${id})`;
}

const SQL = {
  sessions: `SELECT ${SESSION_COLUMNS} FROM sessions s WHERE s.user_id = ? ORDER BY s.id`,
  removeSessions: 'DELETE FROM sessions WHERE user_id = ?',
  avatars: `SELECT ${AVATAR_COLUMNS} FROM avatars a WHERE a.user_id = ? ORDER BY a.id`,
  memberships: 'SELECT c.id AS chatId, c.title, c.owner_id AS ownerId, cm.added_at AS addedAt, cm.last_read_id AS lastReadId, cm.unread_count AS unreadCount, cm.mention_count AS mentionCount'
    + ' FROM chat_members cm JOIN chats c ON c.id = cm.chat_id WHERE cm.user_id = ? ORDER BY cm.added_at, c.id',
  messages: `${MESSAGE_SELECT} WHERE m.author_id = ? ORDER BY m.id`,
  revisions: 'SELECT v.message_id AS messageId, v.n AS id, v.text, v.created_at AS createdAt FROM message_revisions v JOIN messages m ON m.id = v.message_id'
    + ' WHERE m.author_id = ? ORDER BY v.message_id, v.n',
  reactions: 'SELECT r.message_id AS messageId, m.chat_id AS chatId, r.emoji, r.user_id AS userId, r.created_at AS createdAt FROM reactions r JOIN messages m ON m.id = r.message_id'
    + ' WHERE r.user_id = ? ORDER BY r.seq',
  invites: `${INVITE_SELECT} WHERE i.created_by = ? ORDER BY i.created_at, i.id`,
  removeUser: 'DELETE FROM users WHERE id = ?',
  removeInvites: 'DELETE FROM invites WHERE created_by = ?',
  removeAvatars: 'DELETE FROM avatars WHERE user_id = ?',
  // No longer an admin or active either, so no count of admins or active users includes it.
  tombstone: "UPDATE users SET login = ?, password_hash = '', avatar_id = NULL, role = 'member', deactivated_at = coalesce(deactivated_at, @at),"
    + ' last_seen_at = NULL, erased_at = @at, updated_at = @at WHERE id = @id',
};

export class AccountStore {
  private readonly sql: Statements<typeof SQL>;
  private readonly pages: PageRunner;

  constructor(db: Db) {
    this.sql = prepareStatements(db, SQL);
    this.pages = new PageRunner(db);
  }

  listSessions(userId: string, currentId: string, query: ParsedQuery): Page<SessionRow> {
    const source = { select: SESSION_LIST_SELECT, selectParams: [currentId], scope: 's.user_id = ?', scopeParams: [userId], columns: SESSION_LIST_COLUMNS };
    return this.pages.listPage<SessionRow>(source, query);
  }

  findSessionsOfUser(userId: string): SessionRow[] {
    return this.sql.sessions.all(userId) as SessionRow[];
  }

  findAvatarsOfUser(userId: string): AvatarRow[] {
    return this.sql.avatars.all(userId) as AvatarRow[];
  }

  findMembershipsOfUser(userId: string): MembershipRow[] {
    return this.sql.memberships.all(userId) as MembershipRow[];
  }

  findMessagesOfAuthor(userId: string): MessageRow[] {
    return this.sql.messages.all(userId) as MessageRow[];
  }

  findRevisionsOfAuthor(userId: string): RevisionOfMessageRow[] {
    return this.sql.revisions.all(userId) as RevisionOfMessageRow[];
  }

  findReactionsOfUser(userId: string): ReactionOfUserRow[] {
    return this.sql.reactions.all(userId) as ReactionOfUserRow[];
  }

  findInvitesOfUser(userId: string): InviteRow[] {
    return this.sql.invites.all(userId) as InviteRow[];
  }

  deleteUser(id: string): void {
    this.sql.removeUser.run(id);
  }

  eraseUserKeepingRow(id: string, erasedAt: number): void {
    this.sql.tombstone.run(makeErasedLogin(id), { at: erasedAt, id });
    this.sql.removeAvatars.run(id);
    this.sql.removeSessions.run(id);
    this.sql.removeInvites.run(id);
  }
}
