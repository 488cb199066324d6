-- What keeps a page of a long chat history cheap at a million messages (see bench/history.bench.ts).

-- meta.total of GET /chats/{id}/messages: count(*) of one chat walks every entry of the chat in
-- messages_by_chat, O(n) (about 60 ms at a million messages, against 0.1 ms for the page itself).
-- The count is kept here instead, by triggers, so an unfiltered page reads it in O(1).
CREATE TABLE chat_stats (
  chat_id TEXT PRIMARY KEY REFERENCES chats(id) ON DELETE CASCADE,
  message_count INTEGER NOT NULL CHECK (message_count >= 0)
) STRICT, WITHOUT ROWID;

CREATE TRIGGER chat_stats_after_chat_insert AFTER INSERT ON chats BEGIN
  INSERT INTO chat_stats (chat_id, message_count) VALUES (new.id, 0);
END;
CREATE TRIGGER chat_stats_after_message_insert AFTER INSERT ON messages BEGIN
  UPDATE chat_stats SET message_count = message_count + 1 WHERE chat_id = new.chat_id;
END;
-- Also fires for the messages a chat's deletion cascades to; by then the chat_stats row may be gone,
-- and the UPDATE simply matches nothing.
CREATE TRIGGER chat_stats_after_message_delete AFTER DELETE ON messages BEGIN
  UPDATE chat_stats SET message_count = message_count - 1 WHERE chat_id = old.chat_id;
END;
CREATE TRIGGER chat_stats_after_message_move AFTER UPDATE OF chat_id ON messages WHEN new.chat_id IS NOT old.chat_id BEGIN
  UPDATE chat_stats SET message_count = message_count - 1 WHERE chat_id = old.chat_id;
  UPDATE chat_stats SET message_count = message_count + 1 WHERE chat_id = new.chat_id;
END;

INSERT INTO chat_stats (chat_id, message_count)
  SELECT c.id, (SELECT count(*) FROM messages m WHERE m.chat_id = c.id) FROM chats c;

-- The newest page by time (sort=-createdAt, sort[createdAt]=DESC) reads this index backwards instead
-- of sorting the whole chat; id last, because ties of createdAt are broken by id.
CREATE INDEX messages_by_chat_time ON messages(chat_id, created_at, id);
