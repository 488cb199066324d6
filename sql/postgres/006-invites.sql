-- Invites, as SQLite's migration 012 (docs/protocol.md §13.2): a sign-up code, kept only as its SHA-256; NULL
-- max_uses and expires_at mean "no limit"; revoked_at is set by DELETE /invites/{id}, and the row stays.
CREATE TABLE invites (
  id text COLLATE "C" PRIMARY KEY,
  code_hash bytea NOT NULL UNIQUE,
  created_by text COLLATE "C" NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  role text COLLATE "C" NOT NULL CHECK (role IN ('admin', 'member')),
  max_uses integer CHECK (max_uses IS NULL OR max_uses >= 1),
  uses integer NOT NULL DEFAULT 0 CHECK (uses >= 0),
  expires_at bigint,
  created_at bigint NOT NULL,
  revoked_at bigint
);
CREATE INDEX invites_by_creator ON invites (created_by, id);
