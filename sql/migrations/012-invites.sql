-- Invites (docs/protocol.md §13.2): a sign-up code, kept only as its SHA-256 (code_hash); the code is shown once.
-- max_uses and expires_at are NULL for "no limit"; revoked_at is set by DELETE /invites/{id}, and the row stays
-- so the list keeps the trail. An account's invites go with it.
CREATE TABLE invites (
  id TEXT PRIMARY KEY,
  code_hash BLOB NOT NULL UNIQUE,
  created_by TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  role TEXT NOT NULL CHECK (role IN ('admin', 'member')),
  max_uses INTEGER CHECK (max_uses IS NULL OR max_uses >= 1),
  uses INTEGER NOT NULL DEFAULT 0 CHECK (uses >= 0),
  expires_at INTEGER,
  created_at INTEGER NOT NULL,
  revoked_at INTEGER
) STRICT;

CREATE INDEX invites_by_creator ON invites (created_by, id);
