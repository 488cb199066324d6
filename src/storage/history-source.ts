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
