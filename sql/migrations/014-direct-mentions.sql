-- Direct chats, @mentions and notification levels (docs/protocol.md §14).

-- kind: 'group' (every chat before this migration) or 'direct'. A direct chat has no title of its own: it is
-- stored as '' (no group title is empty) and read as NULL. direct_key is "<smaller user id>:<larger user id>" of
-- the pair (one id twice: a chat with oneself), NULL for groups; its unique index makes "one direct chat per pair"
-- hold whichever process or server opens it first.
ALTER TABLE chats ADD COLUMN kind TEXT NOT NULL DEFAULT 'group' CHECK (kind IN ('group', 'direct'));
ALTER TABLE chats ADD COLUMN direct_key TEXT;
CREATE UNIQUE INDEX chats_by_direct_key ON chats (direct_key) WHERE direct_key IS NOT NULL;

-- mention_count: the unread messages of others that mention the member, kept by the triggers below exactly as
-- unread_count is (migration 007). notification_level: 'all', 'mentions' or 'none'; NULL is the default of the
-- chat's kind (all in direct chats, mentions in groups), so a member who never chose follows the default.
ALTER TABLE chat_members ADD COLUMN mention_count INTEGER NOT NULL DEFAULT 0 CHECK (mention_count >= 0);
ALTER TABLE chat_members ADD COLUMN notification_level TEXT CHECK (notification_level IN ('all', 'mentions', 'none'));

-- The users a message mentions, as a JSON array of ids in the order of first mention: read with the message in
-- its one query (as reactions are). message_mentions holds the same as rows, for GET /mentions and recounts; the
-- triggers keep it from the column, so the column is the one thing a write sets.
ALTER TABLE messages ADD COLUMN mentions TEXT NOT NULL DEFAULT '[]';

CREATE TABLE message_mentions (
  user_id TEXT NOT NULL,
  message_id TEXT NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
  chat_id TEXT NOT NULL,
  PRIMARY KEY (user_id, message_id)
) STRICT, WITHOUT ROWID;
-- A message's mentions go with it (the cascade), found by this index.
CREATE INDEX message_mentions_by_message ON message_mentions (message_id);

-- A new message mentions its users, and counts for each mentioned member (not its author) whose marker lies
-- before it. Markers of others do not move on insert, so this does not depend on the order of the triggers.
CREATE TRIGGER mentions_after_message_insert AFTER INSERT ON messages WHEN new.mentions <> '[]' BEGIN
  INSERT OR IGNORE INTO message_mentions (user_id, message_id, chat_id) SELECT j.value, new.id, new.chat_id FROM json_each(new.mentions) j;
  UPDATE chat_members SET mention_count = mention_count + 1
    WHERE chat_id = new.chat_id AND user_id <> new.author_id AND user_id IN (SELECT value FROM json_each(new.mentions))
      AND (last_read_id IS NULL OR last_read_id < new.id);
END;

-- An edit that changes who is mentioned: those it drops stop counting, those it adds start, where the message is unread.
CREATE TRIGGER mentions_after_message_update AFTER UPDATE OF mentions ON messages WHEN new.mentions IS NOT old.mentions BEGIN
  UPDATE chat_members SET mention_count = mention_count - 1
    WHERE chat_id = old.chat_id AND user_id <> old.author_id AND (last_read_id IS NULL OR last_read_id < old.id)
      AND user_id IN (SELECT value FROM json_each(old.mentions)) AND user_id NOT IN (SELECT value FROM json_each(new.mentions));
  UPDATE chat_members SET mention_count = mention_count + 1
    WHERE chat_id = new.chat_id AND user_id <> new.author_id AND (last_read_id IS NULL OR last_read_id < new.id)
      AND user_id IN (SELECT value FROM json_each(new.mentions)) AND user_id NOT IN (SELECT value FROM json_each(old.mentions));
  DELETE FROM message_mentions WHERE message_id = old.id AND user_id NOT IN (SELECT value FROM json_each(new.mentions));
  INSERT OR IGNORE INTO message_mentions (user_id, message_id, chat_id) SELECT j.value, new.id, new.chat_id FROM json_each(new.mentions) j;
END;

-- migration 007's delete trigger, again, now also taking a deleted message's mentions off the counts. One trigger,
-- so both counts are fixed against the marker as it was, before the marker moves back (SQLite does not promise an
-- order between two triggers of one event). The mention rows go by the cascade; old.mentions says who they were.
DROP TRIGGER read_markers_after_message_delete;
CREATE TRIGGER read_markers_after_message_delete AFTER DELETE ON messages BEGIN
  UPDATE chat_members SET unread_count = unread_count - 1,
      mention_count = mention_count - (CASE WHEN user_id IN (SELECT value FROM json_each(old.mentions)) THEN 1 ELSE 0 END)
    WHERE chat_id = old.chat_id AND user_id <> old.author_id AND (last_read_id IS NULL OR last_read_id < old.id);
  UPDATE chat_members SET last_read_id = (SELECT max(m.id) FROM messages m WHERE m.chat_id = old.chat_id AND m.id < old.id)
    WHERE chat_id = old.chat_id AND last_read_id = old.id;
END;

-- Posting moves the author's marker to their message (migration 007): everything before it is read, mentions too.
-- "<=" holds before and after that trigger moved the marker, so the order of the two does not matter.
CREATE TRIGGER mentions_after_own_message AFTER INSERT ON messages BEGIN
  UPDATE chat_members SET mention_count = 0
    WHERE chat_id = new.chat_id AND user_id = new.author_id AND mention_count <> 0 AND (last_read_id IS NULL OR last_read_id <= new.id);
END;
