// The chats and chat_members tables: a chat with its member list, membership checks and member changes.
import type { ChatAccess, ChatForCallerRow, ChatRow, MemberRow, NewChatRow, NotificationLevel } from '../rows.ts';
import type { Db } from './database.ts';
import { prepareStatements, type Statements } from './statements.ts';

/** A chat as SQL answers it, members as JSON array text (the collection page reads these). */
export interface ChatRecord extends Omit<ChatRow, 'members'> {
  members: string;
}

/**
 * Every chat's member ids in one correlated subquery, so a page of chats costs one query, not one per
 * chat (no N+1). The ORDER BY inside the aggregate (SQLite 3.44+) fixes the order, so the ETag is stable.
 */
const MEMBER_IDS_SQL = '(SELECT json_group_array(cm.user_id ORDER BY cm.user_id <> c.owner_id, cm.added_at, cm.user_id) FROM chat_members cm WHERE cm.chat_id = c.id)';

/** A direct chat's title is stored as '' (docs/protocol.md §14.1) and read as null. */
const CHAT_COLUMNS_SQL = "c.id, c.kind, nullif(c.title, '') AS title, c.owner_id AS ownerId";

export const CHAT_SELECT = `SELECT ${CHAT_COLUMNS_SQL}, ${MEMBER_IDS_SQL} AS members, c.created_at AS createdAt, c.updated_at AS updatedAt FROM chats c`;

/** A chat with one member's read marker: the chat as that member reads it (bind the member's id first). */
export interface ChatForCallerRecord extends ChatRecord {
  lastReadId: string | null;
  unreadCount: number;
  mentionCount: number;
}

/**
 * The caller's chats, found from the member side (index chat_members_by_user), with the caller's marker
 * and kept unread count as plain columns: GET /chats filters and sorts on them at no extra cost.
 */
export const CHAT_FOR_CALLER_SELECT = `SELECT ${CHAT_COLUMNS_SQL}, ${MEMBER_IDS_SQL} AS members, c.created_at AS createdAt, c.updated_at AS updatedAt,`
  + ' me.last_read_id AS lastReadId, me.unread_count AS unreadCount, me.mention_count AS mentionCount FROM chat_members me JOIN chats c ON c.id = me.chat_id';

export const MEMBER_SELECT = 'SELECT cm.chat_id AS chatId, cm.user_id AS userId, u.login, cm.added_at AS addedAt, cm.notification_level AS notificationLevel'
  + ' FROM chat_members cm JOIN users u ON u.id = cm.user_id';

export function chatFromRecord(record: ChatRecord): ChatRow {
  return { ...record, members: JSON.parse(record.members) as string[] };
}

const SQL = {
  insert: 'INSERT INTO chats (id, kind, title, owner_id, direct_key, created_at, updated_at) VALUES (@id, @kind, @title, @ownerId, @directKey, @createdAt, @updatedAt)',
  byDirectKey: `${CHAT_SELECT} WHERE c.direct_key = ?`,
  setLevel: 'UPDATE chat_members SET notification_level = ? WHERE chat_id = ? AND user_id = ?',
  byId: `${CHAT_SELECT} WHERE c.id = ?`,
  forMember: 'SELECT c.id, c.owner_id AS ownerId, c.kind FROM chats c JOIN chat_members cm ON cm.chat_id = c.id AND cm.user_id = ? WHERE c.id = ?',
  forCaller: `${CHAT_FOR_CALLER_SELECT} WHERE me.user_id = ? AND c.id = ?`,
  update: 'UPDATE chats SET title = ?, updated_at = ? WHERE id = ?',
  touch: 'UPDATE chats SET updated_at = ? WHERE id = ?',
  removeMembers: 'DELETE FROM chat_members WHERE chat_id = ?',
  remove: 'DELETE FROM chats WHERE id = ?',
  insertMemberRow: 'INSERT OR IGNORE INTO chat_members (chat_id, user_id, added_at) VALUES (?, ?, ?)',
  deleteMemberRow: 'DELETE FROM chat_members WHERE chat_id = ? AND user_id = ?',
  removeMembersExcept: 'DELETE FROM chat_members WHERE chat_id = ? AND user_id NOT IN (SELECT value FROM json_each(?))',
  member: `${MEMBER_SELECT} WHERE cm.chat_id = ? AND cm.user_id = ?`,
  members: `${MEMBER_SELECT} WHERE cm.chat_id = ? ORDER BY cm.added_at, cm.user_id`,
  setOwner: 'UPDATE chats SET owner_id = ?, updated_at = ? WHERE id = ?',
  peers: 'SELECT DISTINCT other.user_id FROM chat_members mine JOIN chat_members other ON other.chat_id = mine.chat_id WHERE mine.user_id = ? AND other.user_id <> mine.user_id ORDER BY other.user_id',
  unknownUsers: 'SELECT j.value AS id FROM json_each(?) j WHERE NOT EXISTS (SELECT 1 FROM users u WHERE u.id = j.value AND u.erased_at IS NULL) ORDER BY j.key',
};

export class ChatStore {
  private readonly sql: Statements<typeof SQL>;

  constructor(db: Db) {
    this.sql = prepareStatements(db, SQL);
  }

  /** Any chat, visible or not: only for deciding between create, replace and 404 in PUT. */
  findChat(id: string): ChatRow | undefined {
    const record = this.sql.byId.get(id) as ChatRecord | undefined;
    return record && chatFromRecord(record);
  }

  /** The chat if the user is one of its members; the same undefined when it does not exist. */
  findChatForMember(chatId: string, userId: string): ChatAccess | undefined {
    return this.sql.forMember.get(userId, chatId) as ChatAccess | undefined;
  }

  /**
   * The chat as one member reads it, with their marker and unread count, in one statement (on the caller's
   * membership row): what GET /chats/{id} answers; undefined when the user is not a member or there is no chat.
   */
  findChatForCaller(chatId: string, userId: string): ChatForCallerRow | undefined {
    const record = this.sql.forCaller.get(userId, chatId) as ChatForCallerRecord | undefined;
    return record && { ...record, members: JSON.parse(record.members) as string[] };
  }

  /** Throws SQLITE_CONSTRAINT_UNIQUE for a second direct chat of a pair (a unique StoreConstraintError through the store). */
  insertChat(chat: NewChatRow): void {
    this.sql.insert.run({ ...chat, title: chat.title ?? '' });
  }

  /** The direct chat of a pair (index chats_by_direct_key), members or not. */
  findDirectChat(directKey: string): ChatRow | undefined {
    const record = this.sql.byDirectKey.get(directKey) as ChatRecord | undefined;
    return record && chatFromRecord(record);
  }

  setNotificationLevel(chatId: string, userId: string, level: NotificationLevel | null): void {
    this.sql.setLevel.run(level, chatId, userId);
  }

  updateChatTitle(id: string, title: string, updatedAt: number): void {
    this.sql.update.run(title, updatedAt, id);
  }

  /** A member list change is a change of the chat, so its updatedAt moves too. */
  touchChat(id: string, updatedAt: number): void {
    this.sql.touch.run(updatedAt, id);
  }

  /** The chat and its member rows; its messages go first, through the message store, in the same transaction. */
  deleteChat(id: string): void {
    this.sql.removeMembers.run(id);
    this.sql.remove.run(id);
  }

  /** True when the user was not a member yet. Throws SQLITE_CONSTRAINT_FOREIGNKEY for an unknown user (a foreign-key StoreConstraintError through the store). */
  addMember(chatId: string, userId: string, addedAt: number): boolean {
    return this.sql.insertMemberRow.run(chatId, userId, addedAt).changes === 1;
  }

  removeMember(chatId: string, userId: string): boolean {
    return this.sql.deleteMemberRow.run(chatId, userId).changes === 1;
  }

  /** Removes every member not in userIds; answers how many went. */
  keepOnlyMembers(chatId: string, userIds: readonly string[]): number {
    return this.sql.removeMembersExcept.run(chatId, JSON.stringify(userIds)).changes;
  }

  findMember(chatId: string, userId: string): MemberRow | undefined {
    return this.sql.member.get(chatId, userId) as MemberRow | undefined;
  }

  findMembers(chatId: string): MemberRow[] {
    return this.sql.members.all(chatId) as MemberRow[];
  }

  /** The ids of userIds that name no user, in the order given: one query for the whole list. */
  findUnknownUsers(userIds: readonly string[]): string[] {
    return (this.sql.unknownUsers.all(JSON.stringify(userIds)) as { id: string }[]).map((row) => row.id);
  }

  /** Hands the chat to another member (the caller checked they are one); its updatedAt moves. */
  setChatOwner(id: string, ownerId: string, updatedAt: number): void {
    this.sql.setOwner.run(ownerId, updatedAt, id);
  }

  /** Everyone who shares at least one chat with the user, the user not included (index chat_members_by_user, then the chats' rows). */
  findChatPeers(userId: string): string[] {
    return (this.sql.peers.all(userId) as { user_id: string }[]).map((row) => row.user_id);
  }
}
