// The reactions table: one row per (message, emoji, user); a message's summary is read with the message (MESSAGE_SELECT).
import type { ReactionRow } from '../rows.ts';
import type { Db } from './database.ts';

/** The reactions collection of one message: the page runner adds the client's query to this. */
export const REACTION_SELECT = 'SELECT r.message_id AS messageId, r.emoji, r.user_id AS userId, r.created_at AS createdAt FROM reactions r';

export class ReactionStore {
  private readonly insert;
  private readonly find;
  private readonly remove;

  constructor(db: Db) {
    this.insert = db.prepare('INSERT INTO reactions (message_id, emoji, user_id, created_at) VALUES (@messageId, @emoji, @userId, @createdAt) ON CONFLICT DO NOTHING');
    this.find = db.prepare(`${REACTION_SELECT} WHERE r.message_id = ? AND r.emoji = ? AND r.user_id = ?`);
    this.remove = db.prepare('DELETE FROM reactions WHERE message_id = ? AND emoji = ? AND user_id = ?');
  }

  findReaction(messageId: string, emoji: string, userId: string): ReactionRow | undefined {
    return this.find.get(messageId, emoji, userId) as ReactionRow | undefined;
  }

  /** True when the reaction is new; false when this user had already reacted so (the unique index decides). */
  addReaction(reaction: ReactionRow): boolean {
    return this.insert.run(reaction).changes === 1;
  }

  removeReaction(messageId: string, emoji: string, userId: string): boolean {
    return this.remove.run(messageId, emoji, userId).changes === 1;
  }
}
