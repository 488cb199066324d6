-- Full-text search (docs/protocol.md §5): FTS5 indexes over message text, chat titles and logins.
-- External content: each index stores only its tokens and reads the text from its table by seq
-- (the rowid), so nothing is stored twice. Triggers keep every index in step with its table
-- (the pattern of https://sqlite.org/fts5.html §4.4.3: an external content index must be told the
-- OLD values with the 'delete' command).
-- unicode61 with remove_diacritics 2 folds case and diacritics ("creme" finds "Crème");
-- prefix indexes of 2, 3 and 4 characters make the prefix queries the search sends ("cre"*) cheap.

CREATE VIRTUAL TABLE messages_fts USING fts5(
  text,
  content='messages', content_rowid='seq',
  tokenize='unicode61 remove_diacritics 2', prefix='2 3 4'
);
CREATE TRIGGER messages_fts_after_insert AFTER INSERT ON messages BEGIN
  INSERT INTO messages_fts (rowid, text) VALUES (new.seq, new.text);
END;
CREATE TRIGGER messages_fts_after_delete AFTER DELETE ON messages BEGIN
  INSERT INTO messages_fts (messages_fts, rowid, text) VALUES ('delete', old.seq, old.text);
END;
-- Only a change of the text touches the index (not reply_to being cleared, or updated_at).
CREATE TRIGGER messages_fts_after_update AFTER UPDATE OF text ON messages WHEN new.text IS NOT old.text BEGIN
  INSERT INTO messages_fts (messages_fts, rowid, text) VALUES ('delete', old.seq, old.text);
  INSERT INTO messages_fts (rowid, text) VALUES (new.seq, new.text);
END;

CREATE VIRTUAL TABLE chats_fts USING fts5(
  title,
  content='chats', content_rowid='seq',
  tokenize='unicode61 remove_diacritics 2', prefix='2 3 4'
);
CREATE TRIGGER chats_fts_after_insert AFTER INSERT ON chats BEGIN
  INSERT INTO chats_fts (rowid, title) VALUES (new.seq, new.title);
END;
CREATE TRIGGER chats_fts_after_delete AFTER DELETE ON chats BEGIN
  INSERT INTO chats_fts (chats_fts, rowid, title) VALUES ('delete', old.seq, old.title);
END;
CREATE TRIGGER chats_fts_after_update AFTER UPDATE OF title ON chats WHEN new.title IS NOT old.title BEGIN
  INSERT INTO chats_fts (chats_fts, rowid, title) VALUES ('delete', old.seq, old.title);
  INSERT INTO chats_fts (rowid, title) VALUES (new.seq, new.title);
END;

-- Logins are made of letters, digits, '.', '_' and '-'; the tokenizer splits at the last three,
-- so "ann" finds "ann.lee" and "lee" finds it too.
CREATE VIRTUAL TABLE users_fts USING fts5(
  login,
  content='users', content_rowid='seq',
  tokenize='unicode61 remove_diacritics 2', prefix='2 3 4'
);
CREATE TRIGGER users_fts_after_insert AFTER INSERT ON users BEGIN
  INSERT INTO users_fts (rowid, login) VALUES (new.seq, new.login);
END;
CREATE TRIGGER users_fts_after_delete AFTER DELETE ON users BEGIN
  INSERT INTO users_fts (users_fts, rowid, login) VALUES ('delete', old.seq, old.login);
END;
CREATE TRIGGER users_fts_after_update AFTER UPDATE OF login ON users WHEN new.login IS NOT old.login BEGIN
  INSERT INTO users_fts (users_fts, rowid, login) VALUES ('delete', old.seq, old.login);
  INSERT INTO users_fts (rowid, login) VALUES (new.seq, new.login);
END;

-- Rows written before this migration: index them now.
INSERT INTO messages_fts (messages_fts) VALUES ('rebuild');
INSERT INTO chats_fts (chats_fts) VALUES ('rebuild');
INSERT INTO users_fts (users_fts) VALUES ('rebuild');
