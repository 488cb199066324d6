-- Files and images in messages (docs/protocol.md §15). The bytes live in the database, in chunks, stored once per
-- content (attachment_blobs, found by sha256) and referenced by each attachment that holds them; the last
-- reference to go takes the content with it (the triggers below).

-- One stored content. id names it while its chunks arrive (sha256 is NULL until the last one is in and the hash is
-- known); then sha256 is set, or, when that content is stored already, this copy is dropped for the other.
-- chunk_bytes: every chunk but the last holds exactly this many bytes, so a byte range finds its chunks by number.
-- refs: the attachments that hold it, kept by the triggers.
CREATE TABLE attachment_blobs (
  id TEXT PRIMARY KEY,
  sha256 TEXT UNIQUE,
  size INTEGER NOT NULL DEFAULT 0,
  chunk_bytes INTEGER NOT NULL,
  refs INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL
) STRICT;
CREATE INDEX attachment_blobs_unreferenced ON attachment_blobs (created_at) WHERE refs = 0;

-- A rowid table (not WITHOUT ROWID): each row is a large blob, which SQLite keeps in overflow pages.
CREATE TABLE attachment_chunks (
  blob_id TEXT NOT NULL REFERENCES attachment_blobs(id) ON DELETE CASCADE,
  n INTEGER NOT NULL,
  data BLOB NOT NULL,
  PRIMARY KEY (blob_id, n)
) STRICT;

-- One file as it was uploaded to a chat: unused (message_id NULL) until a message takes it, then it goes with that
-- message. The size and hash repeat the blob's, so a message's summary and a quota read no other table.
CREATE TABLE attachments (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  chat_id TEXT NOT NULL REFERENCES chats(id) ON DELETE CASCADE,
  uploader_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  message_id TEXT REFERENCES messages(id) ON DELETE CASCADE,
  position INTEGER NOT NULL DEFAULT 0,
  blob_id TEXT NOT NULL REFERENCES attachment_blobs(id),
  name TEXT NOT NULL,
  content_type TEXT NOT NULL,
  size INTEGER NOT NULL,
  sha256 TEXT NOT NULL,
  width INTEGER,
  height INTEGER,
  created_at INTEGER NOT NULL
) STRICT;
CREATE INDEX attachments_by_message ON attachments (message_id) WHERE message_id IS NOT NULL;
CREATE INDEX attachments_unused ON attachments (created_at) WHERE message_id IS NULL;
CREATE INDEX attachments_by_uploader ON attachments (uploader_id);
CREATE INDEX attachments_by_blob ON attachments (blob_id);
CREATE INDEX attachments_by_chat ON attachments (chat_id);

CREATE TRIGGER attachments_after_insert AFTER INSERT ON attachments BEGIN
  UPDATE attachment_blobs SET refs = refs + 1 WHERE id = new.blob_id;
END;
-- Also fires for the attachments a message's or a chat's deletion cascades to.
CREATE TRIGGER attachments_after_delete AFTER DELETE ON attachments BEGIN
  UPDATE attachment_blobs SET refs = refs - 1 WHERE id = old.blob_id;
  DELETE FROM attachment_blobs WHERE id = old.blob_id AND refs = 0;
END;

-- Each message carries its attachments' summary, [{id, name, contentType, size, sha256, width?, height?}] as JSON
-- text written with the message (attachments never change afterwards), so a page of messages reads them as one
-- more column; attachment_names is what search indexes besides the text.
ALTER TABLE messages ADD COLUMN attachments TEXT NOT NULL DEFAULT '[]';
ALTER TABLE messages ADD COLUMN attachment_names TEXT NOT NULL DEFAULT '';

-- Search finds a message by its attachments' names too: the index gets a second column.
DROP TRIGGER messages_fts_after_insert;
DROP TRIGGER messages_fts_after_delete;
DROP TRIGGER messages_fts_after_update;
DROP TABLE messages_fts;
CREATE VIRTUAL TABLE messages_fts USING fts5(
  text, attachment_names,
  content='messages', content_rowid='seq',
  tokenize='unicode61 remove_diacritics 2', prefix='2 3 4'
);
CREATE TRIGGER messages_fts_after_insert AFTER INSERT ON messages BEGIN
  INSERT INTO messages_fts (rowid, text, attachment_names) VALUES (new.seq, new.text, new.attachment_names);
END;
CREATE TRIGGER messages_fts_after_delete AFTER DELETE ON messages BEGIN
  INSERT INTO messages_fts (messages_fts, rowid, text, attachment_names) VALUES ('delete', old.seq, old.text, old.attachment_names);
END;
CREATE TRIGGER messages_fts_after_update AFTER UPDATE OF text, attachment_names ON messages
  WHEN new.text IS NOT old.text OR new.attachment_names IS NOT old.attachment_names BEGIN
  INSERT INTO messages_fts (messages_fts, rowid, text, attachment_names) VALUES ('delete', old.seq, old.text, old.attachment_names);
  INSERT INTO messages_fts (rowid, text, attachment_names) VALUES (new.seq, new.text, new.attachment_names);
END;
INSERT INTO messages_fts (messages_fts) VALUES ('rebuild');
