// The repositories of people: users, their sessions and avatars, the audit log, and a user's records whole (export, erasure).
import type { ParsedQuery } from '../parsers/query.ts';
import type { AvatarBytes, AvatarRow, MessageRow, Page, SessionRow, UserRow, NewUserRow } from './rows.ts';
import type { AuditRow, MembershipRow, ReactionOfUserRow, RevisionOfMessageRow, InviteRow } from './account-rows.ts';

export interface UserRepository {
  /** Rejects with a unique StoreConstraintError when the login is taken in any letter case. */
  insertUser(user: NewUserRow): Promise<void>;
  findUserById(id: string): Promise<UserRow | undefined>;
  /** Logins compare without regard to ASCII case. */
  findUserByLogin(login: string): Promise<UserRow | undefined>;
  /** Rejects with a unique StoreConstraintError when the new login is taken. */
  updateUser(user: UserRow): Promise<void>;
  /** True when the database holds no user yet (the next sign-up is the first account, an admin). */
  hasNoUsers(): Promise<boolean>;
  /**
   * Inserts the first account only while there is none, atomically on every backend (only through a Tx): true
   * when it was inserted, false when another account came first.
   */
  insertFirstUser(user: NewUserRow): Promise<boolean>;
  /** Admins whose account is active: the last one may not be demoted, deactivated or erased. */
  countActiveAdmins(): Promise<number>;
  /**
   * Presence's flush (docs/protocol.md §14.6): in one statement, each user's last_seen_at becomes the later of what it
   * holds and `at`, so flushes of several processes, in any order, never move it back. Unknown and erased accounts are left alone.
   */
  recordLastSeen(seen: readonly (readonly [userId: string, at: number])[]): Promise<void>;
}

export interface AuditRepository {
  /** Written in the transaction of the change it records. */
  appendAudit(entry: AuditRow): Promise<void>;
}

export interface SessionRepository {
  insertSession(session: SessionRow): Promise<void>;
  findSessionByTokenHash(tokenHash: Buffer): Promise<SessionRow | undefined>;
  findSessionById(id: string): Promise<SessionRow | undefined>;
  /**
   * Which of these sessions still hold (exist, expiresAt and maxExpiresAt after now), each with the earlier of the
   * two: until then it holds unless it is ended (which a `session.ended` tells). One query for all.
   */
  findLiveSessions(ids: readonly string[], now: number): Promise<Map<string, number>>;
  extendSession(id: string, expiresAt: number): Promise<void>;
  /**
   * A request used the session (at most once a minute, resources/session/authenticate.ts): its idle expiry and
   * lastUsedAt, and its user's lastSeenAt, in one write.
   */
  recordSessionUse(id: string, userId: string, expiresAt: number, now: number): Promise<void>;
  deleteSession(id: string): Promise<void>;
  /** Ends every session of a user but one (after a password change); answers the ids of those that went. */
  deleteOtherSessions(userId: string, keepId: string): Promise<string[]>;
  /** Ends every session of a user (deactivation); answers the ids of those that went. */
  deleteUserSessions(userId: string): Promise<string[]>;
  deleteExpiredSessions(now: number): Promise<number>;
}

export interface AvatarRepository {
  insertAvatar(row: AvatarRow & { bytes: Buffer }): Promise<void>;
  findAvatarById(id: string): Promise<AvatarRow | undefined>;
  findAvatarBytes(id: string): Promise<AvatarBytes | undefined>;
  /** A user whose current avatar it was has none afterwards (avatarId null). */
  deleteAvatar(id: string): Promise<void>;
}

/**
 * What the server holds about one user, read whole: their sessions page, their export and their erasure
 * (docs/protocol.md §3.5-§3.7). Reads are in a stable order (ids, or join order), and none answers an erased account.
 */
export interface AccountRepository {
  /**
   * A page of the user's sessions. Fields id, createdAt, lastUsedAt, expiresAt, userAgent, address; `current`
   * (1 for currentId, else 0) is for sorting only.
   */
  listSessions(userId: string, currentId: string, query: ParsedQuery): Promise<Page<SessionRow>>;
  /** Every session of the user, oldest first. */
  findSessionsOfUser(userId: string): Promise<SessionRow[]>;
  findAvatarsOfUser(userId: string): Promise<AvatarRow[]>;
  /** The chats the user is a member of, in the order they joined them. */
  findMembershipsOfUser(userId: string): Promise<MembershipRow[]>;
  /** Every message the user wrote, in any chat, oldest first. */
  findMessagesOfAuthor(userId: string): Promise<MessageRow[]>;
  /** The earlier texts of the user's messages (not the current ones), by message then n. */
  findRevisionsOfAuthor(userId: string): Promise<RevisionOfMessageRow[]>;
  /** Every reaction the user made, oldest first. */
  findReactionsOfUser(userId: string): Promise<ReactionOfUserRow[]>;
  /** Every invite the user made, revoked and used up ones too, oldest first. */
  findInvitesOfUser(userId: string): Promise<InviteRow[]>;
  /** The user row and whatever still hangs on it (sessions, avatars, memberships): call after moving their chats and messages. */
  deleteUser(id: string): Promise<void>;
  /**
   * Keeps the row only as the author of the messages left behind: its login freed (set to one no sign-up can
   * take), password, avatars, sessions and invites gone, erasedAt set, so every read of users leaves it out.
   */
  eraseUserKeepingRow(id: string, erasedAt: number): Promise<void>;
}
