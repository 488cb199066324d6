-- Two versions of each chat (docs/performance.md, "Kept reads"): of its messages, and of who its members are. A
-- page of a chat's history is the same for every member and a membership is one row, so a server keeps each while
-- its version holds, whatever else is written meanwhile (a read marker, a post in another chat), where one change
-- stamp for the whole file retired them at every write. Triggers move them in the transaction of the write, so
-- every connection and process sees them move exactly when the write commits.
--
-- A version is the next value of one counter, never a count of the chat's own changes: a chat deleted and made
-- again under the same id (clients may choose ids) starts from a value no kept entry of the old chat can carry.
CREATE TABLE chat_version_counter (
  only INTEGER PRIMARY KEY CHECK (only = 1),
  n INTEGER NOT NULL
) STRICT;
INSERT INTO chat_version_counter (only, n) VALUES (1, 0);

ALTER TABLE chat_stats ADD COLUMN messages_version INTEGER NOT NULL DEFAULT 0;
ALTER TABLE chat_stats ADD COLUMN members_version INTEGER NOT NULL DEFAULT 0;

DROP TRIGGER chat_stats_after_chat_insert;
CREATE TRIGGER chat_stats_after_chat_insert AFTER INSERT ON chats BEGIN
  UPDATE chat_version_counter SET n = n + 1;
  INSERT INTO chat_stats (chat_id, message_count, messages_version, members_version)
    VALUES (new.id, 0, (SELECT n FROM chat_version_counter), (SELECT n FROM chat_version_counter));
END;

-- What a page of a chat's history reads: its messages (reactions, attachments and mentions are columns of them)
-- and the count in chat_stats, which moves with them.
CREATE TRIGGER chat_version_after_message_insert AFTER INSERT ON messages BEGIN
  UPDATE chat_version_counter SET n = n + 1;
  UPDATE chat_stats SET messages_version = (SELECT n FROM chat_version_counter) WHERE chat_id = new.chat_id;
END;
-- An update of what a page shows (newest_so_far, written after each insert, is not).
CREATE TRIGGER chat_version_after_message_update
  AFTER UPDATE OF id, chat_id, author_id, text, reply_to, created_at, updated_at, edited_at, reactions, mentions, attachments ON messages BEGIN
  UPDATE chat_version_counter SET n = n + 1;
  UPDATE chat_stats SET messages_version = (SELECT n FROM chat_version_counter) WHERE chat_id IN (new.chat_id, old.chat_id);
END;
CREATE TRIGGER chat_version_after_message_delete AFTER DELETE ON messages BEGIN
  UPDATE chat_version_counter SET n = n + 1;
  UPDATE chat_stats SET messages_version = (SELECT n FROM chat_version_counter) WHERE chat_id = old.chat_id;
END;

-- What a membership reads: the member's row (not its read marker or counts, which every post moves) and the chat's
-- owner and kind.
CREATE TRIGGER chat_version_after_member_insert AFTER INSERT ON chat_members BEGIN
  UPDATE chat_version_counter SET n = n + 1;
  UPDATE chat_stats SET members_version = (SELECT n FROM chat_version_counter) WHERE chat_id = new.chat_id;
END;
CREATE TRIGGER chat_version_after_member_move AFTER UPDATE OF chat_id, user_id ON chat_members BEGIN
  UPDATE chat_version_counter SET n = n + 1;
  UPDATE chat_stats SET members_version = (SELECT n FROM chat_version_counter) WHERE chat_id IN (new.chat_id, old.chat_id);
END;
CREATE TRIGGER chat_version_after_member_delete AFTER DELETE ON chat_members BEGIN
  UPDATE chat_version_counter SET n = n + 1;
  UPDATE chat_stats SET members_version = (SELECT n FROM chat_version_counter) WHERE chat_id = old.chat_id;
END;
CREATE TRIGGER chat_version_after_chat_update AFTER UPDATE OF owner_id, kind ON chats BEGIN
  UPDATE chat_version_counter SET n = n + 1;
  UPDATE chat_stats SET members_version = (SELECT n FROM chat_version_counter) WHERE chat_id = new.id;
END;
