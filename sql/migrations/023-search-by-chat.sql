-- Search narrows message matches to the caller's chats inside the index (docs/performance.md, "Search at scale").
-- A common word matches thousands of messages across the server, and a caller sees those of their few chats: with
-- only the words indexed, every match was joined to its message to test its chat (10-18 ms for 75 visible matches
-- of 15,000 at 10,000 users), the event loop held meanwhile. Each message now also indexes a token naming its chat,
-- and a search asks for its words AND one of the caller's chats' tokens: the index intersects the two lists itself.
-- The membership test stays in the SQL all the same; the token only narrows.
--
-- The token is 'c' and the chat id in hex: one token whatever characters a client-chosen id holds (the tokenizer
-- would split 'a-b' and 'a_b' alike), and no word a person types looks like it; searches match words in the text
-- and attachment names only, never this column.
ALTER TABLE messages ADD COLUMN chat_token TEXT GENERATED ALWAYS AS ('c' || hex(chat_id)) VIRTUAL;

DROP TRIGGER messages_fts_after_insert;
DROP TRIGGER messages_fts_after_delete;
DROP TRIGGER messages_fts_after_update;
DROP TABLE messages_fts;
CREATE VIRTUAL TABLE messages_fts USING fts5(
  text, attachment_names, chat_token,
  content='messages', content_rowid='seq',
  tokenize='unicode61 remove_diacritics 2', prefix='2 3 4'
);
CREATE TRIGGER messages_fts_after_insert AFTER INSERT ON messages BEGIN
  INSERT INTO messages_fts (rowid, text, attachment_names, chat_token) VALUES (new.seq, new.text, new.attachment_names, new.chat_token);
END;
CREATE TRIGGER messages_fts_after_delete AFTER DELETE ON messages BEGIN
  INSERT INTO messages_fts (messages_fts, rowid, text, attachment_names, chat_token) VALUES ('delete', old.seq, old.text, old.attachment_names, old.chat_token);
END;
CREATE TRIGGER messages_fts_after_update AFTER UPDATE OF text, attachment_names, chat_id ON messages
  WHEN new.text IS NOT old.text OR new.attachment_names IS NOT old.attachment_names OR new.chat_id IS NOT old.chat_id BEGIN
  INSERT INTO messages_fts (messages_fts, rowid, text, attachment_names, chat_token) VALUES ('delete', old.seq, old.text, old.attachment_names, old.chat_token);
  INSERT INTO messages_fts (rowid, text, attachment_names, chat_token) VALUES (new.seq, new.text, new.attachment_names, new.chat_token);
END;
INSERT INTO messages_fts (messages_fts) VALUES ('rebuild');
