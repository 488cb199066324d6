// A chat's history as a page source, the same on both backends but for the SELECT of its messages.
import type { PageSource } from './page-sql.ts';
import type { SqlColumns } from './query-sql.ts';
import type { MessageBounds } from './store.ts';

/** A history's fields, the same columns on both backends. */
export const MESSAGE_COLUMNS: SqlColumns = {
  idField: 'id',
  columns: {
    id: 'm.id',
    chatId: 'm.chat_id',
    authorId: 'm.author_id',
    text: 'm.text',
    replyTo: 'm.reply_to',
    createdAt: 'm.created_at',
    updatedAt: 'm.updated_at',
    editedAt: 'm.edited_at',
  },
  // docs/protocol.md §14.2: `mentions=<userId>` finds the messages that mention that user.
  contains: { mentions: 'EXISTS (SELECT 1 FROM message_mentions f WHERE f.message_id = m.id AND f.user_id = ?)' },
};

/** How many messages a chat has, kept by triggers (sql/migrations/005 and the PostgreSQL schema): O(1), where count(*) walks the whole chat. */
export const CHAT_MESSAGE_COUNT_SQL = 'SELECT message_count AS n FROM chat_stats WHERE chat_id = ?';

/**
 * The source of a chat's history (`select`: the backend's SELECT of messages `m`): the chat as scope,
 * after/before as bounds (which narrow the page, not meta.total), and, without filters, the chat's kept count
 * as meta.total: O(1) instead of O(messages). The benchmark explains exactly these statements.
 */
export function historySource(select: string, chatId: string, bounds: MessageBounds = {}): PageSource {
  const conditions: string[] = [];
  const params: unknown[] = [];
  if (bounds.after !== undefined) {
    conditions.push('m.id > ?');
    params.push(bounds.after);
  }
  if (bounds.before !== undefined) {
    conditions.push('m.id < ?');
    params.push(bounds.before);
  }
  return {
    select,
    scope: 'm.chat_id = ?',
    scopeParams: [chatId],
    ...(conditions.length > 0 ? { bounds: { sql: conditions.join(' AND '), params } } : {}),
    columns: MESSAGE_COLUMNS,
    unfilteredTotal: { sql: CHAT_MESSAGE_COUNT_SQL, params: [chatId] },
  };
}

/**
 * The messages that mention a user (docs/protocol.md §14.2), only in the chats they are a member of now: their
 * mention rows (the primary key's user_id prefix), each joined to its message and to the user's membership.
 */
export function mentionsSource(select: string, userId: string): PageSource {
  return {
    select: `${select} JOIN message_mentions mm ON mm.message_id = m.id JOIN chat_members me ON me.chat_id = m.chat_id AND me.user_id = mm.user_id`,
    scope: 'mm.user_id = ?',
    scopeParams: [userId],
    columns: MESSAGE_COLUMNS,
  };
}
