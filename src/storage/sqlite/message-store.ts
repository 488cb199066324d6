// The messages table: posting, reading, editing and deleting the messages of a chat.
import { NO_ATTACHMENTS, type MessageRow } from '../rows.ts';
import type { NewMessage } from '../store.ts';
import { attachmentNamesOf } from '../attachment-names.ts';
import type { Db } from './database.ts';
import { prepareStatements, type Statements } from './statements.ts';

export const MESSAGE_SELECT = 'SELECT m.id, m.chat_id AS chatId, m.author_id AS authorId, m.text, m.reply_to AS replyTo, m.created_at AS createdAt, m.updated_at AS updatedAt,'
  + ' m.edited_at AS editedAt, m.reactions, m.mentions, m.attachments FROM messages m';

export { CHAT_MESSAGE_COUNT_SQL } from '../history-source.ts';

const SQL = {
  insert: 'INSERT INTO messages (id, chat_id, author_id, text, reply_to, created_at, updated_at, mentions, attachments, attachment_names)'
    + ' VALUES (@id, @chatId, @authorId, @text, @replyTo, @createdAt, @updatedAt, @mentions, @attachments, @attachmentNames)',
  byId: `${MESSAGE_SELECT} WHERE m.id = ?`,
  inChat: `${MESSAGE_SELECT} WHERE m.chat_id = ? AND m.id = ?`,
  // seq is the order of insertion, whatever the ids say; a null messageId (a new message) may reply to any.
  earlierInChat: 'SELECT 1 AS found FROM messages m WHERE m.chat_id = @chatId AND m.id = @replyTo AND (@messageId IS NULL OR m.seq < (SELECT seq FROM messages WHERE id = @messageId))',
  update: 'UPDATE messages SET text = @text, reply_to = @replyTo, updated_at = @updatedAt, edited_at = @editedAt, mentions = @mentions WHERE id = @id',
  detachReplies: 'UPDATE messages SET reply_to = NULL, updated_at = ? WHERE reply_to = ?',
  replies: `${MESSAGE_SELECT} WHERE m.reply_to = ? ORDER BY m.id`,
  remove: 'DELETE FROM messages WHERE id = ?',
  removeAll: 'DELETE FROM messages WHERE chat_id = ?',
};

export class MessageStore {
  private readonly sql: Statements<typeof SQL>;

  constructor(db: Db) {
    this.sql = prepareStatements(db, SQL);
  }

  insertMessage(message: NewMessage): void {
    const { id, chatId, authorId, text, replyTo, createdAt, updatedAt, mentions, attachments = NO_ATTACHMENTS } = message;
    this.sql.insert.run({ id, chatId, authorId, text, replyTo, createdAt, updatedAt, mentions, attachments, attachmentNames: attachmentNamesOf(attachments) });
  }

  /** Any message, in any chat: the caller checks that the reader may see its chat. */
  findMessage(id: string): MessageRow | undefined {
    return this.sql.byId.get(id) as MessageRow | undefined;
  }

  findMessageInChat(chatId: string, id: string): MessageRow | undefined {
    return this.sql.inChat.get(chatId, id) as MessageRow | undefined;
  }

  /**
   * True when `replyTo` is a message of the chat posted before `messageId` (any message of the chat
   * when messageId is null, for a new one). Replies thus always point back in time and never form a cycle.
   */
  isEarlierMessageInChat(chatId: string, replyTo: string, messageId: string | null): boolean {
    return this.sql.earlierInChat.get({ chatId, replyTo, messageId }) !== undefined;
  }

  /** A change of the text also keeps the text it replaces as a revision (trigger of sql/migrations/007). */
  updateMessage(message: Pick<MessageRow, 'id' | 'text' | 'replyTo' | 'updatedAt' | 'editedAt' | 'mentions'>): void {
    const { id, text, replyTo, updatedAt, editedAt, mentions } = message;
    this.sql.update.run({ id, text, replyTo, updatedAt, editedAt, mentions });
  }

  /** The messages that reply to this one (index messages_by_reply). */
  findReplies(id: string): MessageRow[] {
    return this.sql.replies.all(id) as MessageRow[];
  }

  /**
   * Deletes one message. Its replies lose their replyTo (the schema would null it too, ON DELETE SET NULL),
   * and since that changes them, their updatedAt moves. Run inside a transaction.
   */
  deleteMessage(id: string, now: number): void {
    this.sql.detachReplies.run(now, id);
    this.sql.remove.run(id);
  }

  /** Every message of a chat; replies all live in the same chat, so none is left pointing at a deleted one. */
  deleteChatMessages(chatId: string): number {
    return this.sql.removeAll.run(chatId).changes;
  }
}
