-- Read markers with unread counts, reactions, and the edit history of messages (docs/api.md, "Read markers").

-- Each member's read marker: the id of the last message they have read (NULL: none, everything is unread),
-- and how many messages of others lie after it. The count is kept by the triggers below, so reading it is
-- O(1) whatever the size of the chat; counting at read time walks every unread message (O(n): about 60 ms
-- for a never-read chat of a million messages, for each chat of GET /chats).
ALTER TABLE chat_members ADD COLUMN last_read_id TEXT;
ALTER TABLE chat_members ADD COLUMN unread_count INTEGER NOT NULL DEFAULT 0 CHECK (unread_count >= 0);

-- Members who were there before this migration have read everything so far.
UPDATE chat_members SET last_read_id = (SELECT max(m.id) FROM messages m WHERE m.chat_id = chat_members.chat_id);

-- A new member starts with the marker on the newest message: the history before they joined is not
-- "unread" (O(log n), where counting it would be O(n)).
CREATE TRIGGER read_markers_after_member_insert AFTER INSERT ON chat_members BEGIN
  UPDATE chat_members SET last_read_id = (SELECT max(m.id) FROM messages m WHERE m.chat_id = new.chat_id), unread_count = 0
    WHERE chat_id = new.chat_id AND user_id = new.user_id;
END;

-- A new message is unread for every other member whose marker lies before it; its author's marker moves to it.
-- Message ids sort in creation order, and "after the marker" is by id, as the history is.
CREATE TRIGGER read_markers_after_message_insert AFTER INSERT ON messages BEGIN
  UPDATE chat_members SET unread_count = unread_count + 1
    WHERE chat_id = new.chat_id AND user_id <> new.author_id AND (last_read_id IS NULL OR last_read_id < new.id);
  UPDATE chat_members SET last_read_id = new.id, unread_count = 0
    WHERE chat_id = new.chat_id AND user_id = new.author_id AND (last_read_id IS NULL OR last_read_id < new.id);
END;

-- A deleted message stops being unread for whoever had it after their marker. A marker on the deleted
-- message moves back to the message before it (NULL when there is none): the same place in the history, so
-- the count stays what it was, and the marker always names a message of the chat. One trigger, so the count
-- is fixed before the marker moves. Fires for delete-all and a chat's deletion too, row by row.
CREATE TRIGGER read_markers_after_message_delete AFTER DELETE ON messages BEGIN
  UPDATE chat_members SET unread_count = unread_count - 1
    WHERE chat_id = old.chat_id AND user_id <> old.author_id AND (last_read_id IS NULL OR last_read_id < old.id);
  UPDATE chat_members SET last_read_id = (SELECT max(m.id) FROM messages m WHERE m.chat_id = old.chat_id AND m.id < old.id)
    WHERE chat_id = old.chat_id AND last_read_id = old.id;
END;

-- Reactions: one row per (message, emoji, user). seq orders them: an emoji's place on the message is the seq
-- of its first use. The unique index serves a message's reactions, grouped by emoji, in one range scan.
CREATE TABLE reactions (
  seq INTEGER PRIMARY KEY,
  message_id TEXT NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
  emoji TEXT NOT NULL,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL,
  UNIQUE (message_id, emoji, user_id)
) STRICT;
CREATE INDEX reactions_by_user ON reactions(user_id);

-- Each message carries its reactions' summary, [{emoji, count, userIds}] as JSON text, kept here by the triggers
-- below, so a page of messages reads it as one more column of the one query that reads the page. Computing it
-- at read time (a grouped subquery per message) cost the page of 50 messages with 9 reactions each about 2.5x
-- the SQL time of the page without (bench/unread-reactions.bench.ts); this costs each reaction write one
-- grouped read of that one message's reactions instead. Emojis in order of first use (the seq of the first
-- row of that emoji), users in the order they reacted: the same array for every reader.
ALTER TABLE messages ADD COLUMN reactions TEXT NOT NULL DEFAULT '[]';

CREATE TRIGGER reactions_after_insert AFTER INSERT ON reactions BEGIN
  UPDATE messages SET reactions = (
    SELECT json_group_array(json_object('emoji', g.emoji, 'count', g.n, 'userIds', json(g.users)) ORDER BY g.first)
    FROM (SELECT r.emoji, count(*) AS n, json_group_array(r.user_id ORDER BY r.seq) AS users, min(r.seq) AS first
          FROM reactions r WHERE r.message_id = new.message_id GROUP BY r.emoji) g
  ) WHERE id = new.message_id;
END;
-- Also fires for the reactions a message's deletion cascades to; the UPDATE then matches nothing.
CREATE TRIGGER reactions_after_delete AFTER DELETE ON reactions BEGIN
  UPDATE messages SET reactions = (
    SELECT json_group_array(json_object('emoji', g.emoji, 'count', g.n, 'userIds', json(g.users)) ORDER BY g.first)
    FROM (SELECT r.emoji, count(*) AS n, json_group_array(r.user_id ORDER BY r.seq) AS users, min(r.seq) AS first
          FROM reactions r WHERE r.message_id = old.message_id GROUP BY r.emoji) g
  ) WHERE id = old.message_id;
END;

-- Edit history: when is the text last changed (NULL: never), and every earlier text. The current text lives
-- in messages only, so a message that is never edited costs nothing here.
ALTER TABLE messages ADD COLUMN edited_at INTEGER;

CREATE TABLE message_revisions (
  message_id TEXT NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
  -- 1 for the text the message was posted with, then 2, 3, ... for each later text.
  n INTEGER NOT NULL,
  text TEXT NOT NULL,
  -- When this text became the message's text: the message's createdAt, or the editedAt of that edit.
  created_at INTEGER NOT NULL,
  PRIMARY KEY (message_id, n)
) STRICT, WITHOUT ROWID;

-- Only a real change of the text is an edit (not replyTo, not updatedAt): the text it replaces is kept.
CREATE TRIGGER message_revisions_after_text_update AFTER UPDATE OF text ON messages WHEN new.text IS NOT old.text BEGIN
  INSERT INTO message_revisions (message_id, n, text, created_at)
    VALUES (old.id, (SELECT count(*) FROM message_revisions r WHERE r.message_id = old.id) + 1, old.text, coalesce(old.edited_at, old.created_at));
END;
