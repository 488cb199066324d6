-- Running a server for a team, as SQLite's migration 011 (docs/protocol.md §13): roles, deactivation, last seen,
-- and the audit log.
ALTER TABLE users ADD COLUMN role text COLLATE "C" NOT NULL DEFAULT 'member' CHECK (role IN ('admin', 'member'));
ALTER TABLE users ADD COLUMN deactivated_at bigint;
ALTER TABLE users ADD COLUMN last_seen_at bigint;

-- A database made before roles: its oldest account becomes the administrator (ids are time-ordered, so ties of
-- created_at go to the smaller id).
UPDATE users SET role = 'admin' WHERE id = (SELECT id FROM users ORDER BY created_at, id LIMIT 1);

CREATE TABLE audit_log (
  seq bigserial PRIMARY KEY,
  id text COLLATE "C" NOT NULL UNIQUE,
  at bigint NOT NULL,
  actor_id text COLLATE "C",
  action text COLLATE "C" NOT NULL,
  target_type text COLLATE "C" NOT NULL,
  target_id text COLLATE "C" NOT NULL,
  detail text
);
CREATE INDEX audit_log_by_at ON audit_log (at);
