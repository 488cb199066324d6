-- Users and their login sessions. Timestamps are INTEGER milliseconds since the epoch (UTC).
-- seq is the rowid, so full-text indexes can use the table as external content; id is the public id.
CREATE TABLE users (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  login TEXT NOT NULL UNIQUE COLLATE NOCASE,
  password_hash TEXT NOT NULL,
  avatar_id TEXT REFERENCES avatars(id) ON DELETE SET NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;

CREATE TABLE sessions (
  id TEXT PRIMARY KEY,
  token_hash BLOB NOT NULL UNIQUE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  max_expires_at INTEGER NOT NULL
) STRICT;

CREATE INDEX sessions_by_user ON sessions(user_id);
CREATE INDEX sessions_by_expiry ON sessions(expires_at);
