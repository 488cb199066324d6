// Chats, members, messages, read markers, reactions and revisions on PostgreSQL (the counts are kept by triggers).
import type {
  ChatAccess, ChatForCallerRow, ChatRepository, ChatRow, MemberRow, MessageRepository, MessageRow, NewChatRow, NotificationLevel, ReactionRepository, ReactionRow,
  ReadMarkerRepository, ReadMarkerRow, RevisionRepository, RevisionRow, NewMessage,
} from '../store.ts';
import { NO_ATTACHMENTS } from '../store.ts';
import type { Sql } from './connection.ts';
import { attachmentNamesOf } from '../attachment-names.ts';
import type { Guarded } from './people.ts';

/** Every chat's member ids, owner first, then by joining time and id: one subquery, no N+1; pg reads text[] as an array. */
const MEMBER_IDS_SQL = "(SELECT coalesce(array_agg(cm.user_id ORDER BY cm.user_id <> c.owner_id, cm.added_at, cm.user_id), '{}') FROM chat_members cm WHERE cm.chat_id = c.id)";

/** A direct chat's title is stored as '' (docs/protocol.md §14.1) and read as null. */
const CHAT_COLUMNS_SQL = `c.id, c.kind, nullif(c.title, '') AS title, c.owner_id AS "ownerId"`;

export const CHAT_SELECT = `SELECT ${CHAT_COLUMNS_SQL}, ${MEMBER_IDS_SQL} AS members, c.created_at AS "createdAt", c.updated_at AS "updatedAt" FROM chats c`;

/** The caller's chats from the member side, with the caller's marker and kept unread count as plain columns. */
export const CHAT_FOR_CALLER_SELECT = `SELECT ${CHAT_COLUMNS_SQL}, ${MEMBER_IDS_SQL} AS members, c.created_at AS "createdAt", c.updated_at AS "updatedAt",`
  + ' me.last_read_id AS "lastReadId", me.unread_count AS "unreadCount", me.mention_count AS "mentionCount" FROM chat_members me JOIN chats c ON c.id = me.chat_id';

export const MEMBER_SELECT = 'SELECT cm.chat_id AS "chatId", cm.user_id AS "userId", u.login, cm.added_at AS "addedAt", cm.notification_level AS "notificationLevel"'
  + ' FROM chat_members cm JOIN users u ON u.id = cm.user_id';

export const MESSAGE_SELECT = 'SELECT m.id, m.chat_id AS "chatId", m.author_id AS "authorId", m.text, m.reply_to AS "replyTo", m.created_at AS "createdAt",'
  + ' m.updated_at AS "updatedAt", m.edited_at AS "editedAt", m.reactions, m.mentions, m.attachments FROM messages m';

export class PgChats implements ChatRepository {
  private readonly sql: Sql;
  private readonly guarded: Guarded;

  constructor(sql: Sql, guarded: Guarded) {
    this.sql = sql;
    this.guarded = guarded;
  }

  findChat(id: string): Promise<ChatRow | undefined> {
    return this.sql.one(`${CHAT_SELECT} WHERE c.id = ?`, [id]);
  }

  findChatForMember(chatId: string, userId: string): Promise<ChatAccess | undefined> {
    return this.sql.one('SELECT c.id, c.owner_id AS "ownerId", c.kind FROM chats c JOIN chat_members cm ON cm.chat_id = c.id AND cm.user_id = ? WHERE c.id = ?', [userId, chatId]);
  }

  /** One statement, on the caller's membership row: the chat with their marker and unread count. */
  findChatForCaller(chatId: string, userId: string): Promise<ChatForCallerRow | undefined> {
    return this.sql.one(`${CHAT_FOR_CALLER_SELECT} WHERE me.user_id = ? AND c.id = ?`, [userId, chatId]);
  }

  /** In a savepoint (guarded): a second direct chat of a pair fails alone, and the transaction may go on to find the first. */
  async insertChat(chat: NewChatRow): Promise<void> {
    await this.guarded(() => this.sql.run('INSERT INTO chats (id, kind, title, owner_id, direct_key, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      [chat.id, chat.kind, chat.title ?? '', chat.ownerId, chat.directKey, chat.createdAt, chat.updatedAt]));
  }

  findDirectChat(directKey: string): Promise<ChatRow | undefined> {
    return this.sql.one(`${CHAT_SELECT} WHERE c.direct_key = ?`, [directKey]);
  }

  async setNotificationLevel(chatId: string, userId: string, level: NotificationLevel | null): Promise<void> {
    await this.sql.run('UPDATE chat_members SET notification_level = ? WHERE chat_id = ? AND user_id = ?', [level, chatId, userId]);
  }

  async updateChatTitle(id: string, title: string, updatedAt: number): Promise<void> {
    await this.sql.run('UPDATE chats SET title = ?, updated_at = ? WHERE id = ?', [title, updatedAt, id]);
  }

  async touchChat(id: string, updatedAt: number): Promise<void> {
    await this.sql.run('UPDATE chats SET updated_at = ? WHERE id = ?', [updatedAt, id]);
  }

  async deleteChat(id: string): Promise<void> {
    await this.sql.run('DELETE FROM chat_members WHERE chat_id = ?', [id]);
    await this.sql.run('DELETE FROM chats WHERE id = ?', [id]);
  }

  async addMember(chatId: string, userId: string, addedAt: number): Promise<boolean> {
    const changed = await this.guarded(() => this.sql.count('INSERT INTO chat_members (chat_id, user_id, added_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING', [chatId, userId, addedAt]));
    return changed === 1;
  }

  async removeMember(chatId: string, userId: string): Promise<boolean> {
    return (await this.sql.count('DELETE FROM chat_members WHERE chat_id = ? AND user_id = ?', [chatId, userId])) === 1;
  }

  keepOnlyMembers(chatId: string, userIds: readonly string[]): Promise<number> {
    return this.sql.count('DELETE FROM chat_members WHERE chat_id = ? AND user_id <> ALL(?::text[])', [chatId, userIds]);
  }

  findMember(chatId: string, userId: string): Promise<MemberRow | undefined> {
    return this.sql.one(`${MEMBER_SELECT} WHERE cm.chat_id = ? AND cm.user_id = ?`, [chatId, userId]);
  }

  findMembers(chatId: string): Promise<MemberRow[]> {
    return this.sql.rows(`${MEMBER_SELECT} WHERE cm.chat_id = ? ORDER BY cm.added_at, cm.user_id`, [chatId]);
  }

  async findUnknownUsers(userIds: readonly string[]): Promise<string[]> {
    const rows = await this.sql.rows<{ id: string }>('SELECT j.id FROM unnest(?::text[]) WITH ORDINALITY AS j(id, n) WHERE NOT EXISTS (SELECT 1 FROM users u WHERE u.id = j.id AND u.erased_at IS NULL) ORDER BY j.n', [userIds]);
    return rows.map((row) => row.id);
  }

  async setChatOwner(id: string, ownerId: string, updatedAt: number): Promise<void> {
    await this.sql.run('UPDATE chats SET owner_id = ?, updated_at = ? WHERE id = ?', [ownerId, updatedAt, id]);
  }

  async findChatPeers(userId: string): Promise<string[]> {
    const rows = await this.sql.rows<{ id: string }>('SELECT DISTINCT other.user_id AS id FROM chat_members mine JOIN chat_members other ON other.chat_id = mine.chat_id'
      + ' WHERE mine.user_id = ? AND other.user_id <> mine.user_id ORDER BY 1', [userId]);
    return rows.map((row) => row.id);
  }
}

export class PgMessages implements MessageRepository {
  private readonly sql: Sql;

  constructor(sql: Sql) {
    this.sql = sql;
  }

  async insertMessage(message: NewMessage): Promise<void> {
    await this.sql.run('INSERT INTO messages (id, chat_id, author_id, text, reply_to, created_at, updated_at, mentions, attachments, attachment_names) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [message.id, message.chatId, message.authorId, message.text, message.replyTo, message.createdAt, message.updatedAt, message.mentions, message.attachments ?? NO_ATTACHMENTS, attachmentNamesOf(message.attachments ?? NO_ATTACHMENTS)]);
  }

  findMessage(id: string): Promise<MessageRow | undefined> {
    return this.sql.one(`${MESSAGE_SELECT} WHERE m.id = ?`, [id]);
  }

  findMessageInChat(chatId: string, id: string): Promise<MessageRow | undefined> {
    return this.sql.one(`${MESSAGE_SELECT} WHERE m.chat_id = ? AND m.id = ?`, [chatId, id]);
  }

  async isEarlierMessageInChat(chatId: string, replyTo: string, messageId: string | null): Promise<boolean> {
    const found = await this.sql.one('SELECT 1 AS found FROM messages m WHERE m.chat_id = ? AND m.id = ? AND (?::text IS NULL OR m.seq < (SELECT seq FROM messages WHERE id = ?))',
      [chatId, replyTo, messageId, messageId]);
    return found !== undefined;
  }

  async updateMessage(message: Pick<MessageRow, 'id' | 'text' | 'replyTo' | 'updatedAt' | 'editedAt' | 'mentions'>): Promise<void> {
    await this.sql.run('UPDATE messages SET text = ?, reply_to = ?, updated_at = ?, edited_at = ?, mentions = ? WHERE id = ?',
      [message.text, message.replyTo, message.updatedAt, message.editedAt, message.mentions, message.id]);
  }

  findReplies(id: string): Promise<MessageRow[]> {
    return this.sql.rows(`${MESSAGE_SELECT} WHERE m.reply_to = ? ORDER BY m.id`, [id]);
  }

  async deleteMessage(id: string, now: number): Promise<void> {
    await this.sql.run('UPDATE messages SET reply_to = NULL, updated_at = ? WHERE reply_to = ?', [now, id]);
    await this.sql.run('DELETE FROM messages WHERE id = ?', [id]);
  }

  deleteChatMessages(chatId: string): Promise<number> {
    return this.sql.count('DELETE FROM messages WHERE chat_id = ?', [chatId]);
  }
}

const MARKER_SELECT = 'SELECT chat_id AS "chatId", user_id AS "userId", last_read_id AS "lastReadId", unread_count AS "unreadCount", mention_count AS "mentionCount"'
  + ' FROM chat_members WHERE chat_id = ? AND user_id = ?';

export class PgReadMarkers implements ReadMarkerRepository {
  private readonly sql: Sql;

  constructor(sql: Sql) {
    this.sql = sql;
  }

  findMarker(chatId: string, userId: string): Promise<ReadMarkerRow | undefined> {
    return this.sql.one(MARKER_SELECT, [chatId, userId]);
  }

  /** Recounts from the new marker on (a range of messages_by_chat); every id is > '' (a NULL marker: the whole chat). */
  /** Undefined when the user left the chat (or it was deleted) since the caller looked: no row was there to move. */
  async setMarker(chatId: string, userId: string, lastReadId: string | null): Promise<ReadMarkerRow | undefined> {
    await this.sql.run(`UPDATE chat_members SET last_read_id = ?, unread_count = (
      SELECT count(*) FROM messages m WHERE m.chat_id = ? AND m.id > coalesce(?::text, '') AND m.author_id <> ?
    ), mention_count = (
      SELECT count(*) FROM message_mentions mm JOIN messages m ON m.id = mm.message_id
      WHERE mm.user_id = ? AND mm.chat_id = ? AND mm.message_id > coalesce(?::text, '') AND m.author_id <> ?
    ) WHERE chat_id = ? AND user_id = ?`, [lastReadId, chatId, lastReadId, userId, userId, chatId, lastReadId, userId, chatId, userId]);
    return this.findMarker(chatId, userId);
  }
}

export const REACTION_SELECT = 'SELECT r.message_id AS "messageId", r.emoji, r.user_id AS "userId", r.created_at AS "createdAt" FROM reactions r';

export class PgReactions implements ReactionRepository {
  private readonly sql: Sql;

  constructor(sql: Sql) {
    this.sql = sql;
  }

  findReaction(messageId: string, emoji: string, userId: string): Promise<ReactionRow | undefined> {
    return this.sql.one(`${REACTION_SELECT} WHERE r.message_id = ? AND r.emoji = ? AND r.user_id = ?`, [messageId, emoji, userId]);
  }

  async addReaction(reaction: ReactionRow): Promise<boolean> {
    const changed = await this.sql.count('INSERT INTO reactions (message_id, emoji, user_id, created_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING',
      [reaction.messageId, reaction.emoji, reaction.userId, reaction.createdAt]);
    return changed === 1;
  }

  async removeReaction(messageId: string, emoji: string, userId: string): Promise<boolean> {
    return (await this.sql.count('DELETE FROM reactions WHERE message_id = ? AND emoji = ? AND user_id = ?', [messageId, emoji, userId])) === 1;
  }
}

/** The earlier texts, then the current one (numbered after them, dated by its editedAt or createdAt). Bind the message id twice. */
export const REVISION_SELECT = 'SELECT v.id, v.text, v."createdAt" FROM ('
  + 'SELECT n AS id, text, created_at AS "createdAt" FROM message_revisions WHERE message_id = ?'
  + ' UNION ALL SELECT (SELECT count(*) FROM message_revisions WHERE message_id = m.id)::integer + 1, m.text, coalesce(m.edited_at, m.created_at)'
  + ' FROM messages m WHERE m.id = ?) v';

export class PgRevisions implements RevisionRepository {
  private readonly sql: Sql;

  constructor(sql: Sql) {
    this.sql = sql;
  }

  findRevision(messageId: string, n: number): Promise<RevisionRow | undefined> {
    return this.sql.one(`${REVISION_SELECT} WHERE v.id = ?`, [messageId, messageId, n]);
  }
}
