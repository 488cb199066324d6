// Read markers (chat_members.last_read_id, unread_count): read and set a member's marker; the counts are kept by triggers.
import type { ReadMarkerRow } from '../rows.ts';
import type { Db } from './database.ts';

export class ReadMarkerStore {
  private readonly marker;
  private readonly set;

  constructor(db: Db) {
    this.marker = db.prepare('SELECT chat_id AS chatId, user_id AS userId, last_read_id AS lastReadId, unread_count AS unreadCount, mention_count AS mentionCount FROM chat_members WHERE chat_id = ? AND user_id = ?');
    // The count after the new marker, from scratch: a range of messages_by_chat from the marker on, so moving
    // the marker to the newest message (the common case, "read everything") costs nothing whatever the chat's
    // size, and "mark as unread" costs what it marks. Every id is > '' (a NULL marker: the whole chat).
    // The mentions after it likewise (docs/protocol.md §14.2), from the member's own mention rows.
    this.set = db.prepare(`UPDATE chat_members SET last_read_id = @lastReadId, unread_count = (
      SELECT count(*) FROM messages m WHERE m.chat_id = @chatId AND m.id > coalesce(@lastReadId, '') AND m.author_id <> @userId
    ), mention_count = (
      SELECT count(*) FROM message_mentions mm JOIN messages m ON m.id = mm.message_id
      WHERE mm.user_id = @userId AND mm.chat_id = @chatId AND mm.message_id > coalesce(@lastReadId, '') AND m.author_id <> @userId
    ) WHERE chat_id = @chatId AND user_id = @userId`);
  }

  /** The member's marker, or undefined when the user is not a member. */
  findMarker(chatId: string, userId: string): ReadMarkerRow | undefined {
    return this.marker.get(chatId, userId) as ReadMarkerRow | undefined;
  }

  /** Moves the marker (forward or back) and recounts; the caller checked that lastReadId is a message of the chat. */
  setMarker(chatId: string, userId: string, lastReadId: string | null): ReadMarkerRow {
    this.set.run({ chatId, userId, lastReadId });
    return this.findMarker(chatId, userId)!;
  }
}
