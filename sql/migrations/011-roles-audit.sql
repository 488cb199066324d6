-- Running a server for a team (docs/protocol.md §13): every user has a role, may be deactivated, and is seen
-- last at some time; what administrators do is written to the audit log.
ALTER TABLE users ADD COLUMN role TEXT NOT NULL DEFAULT 'member' CHECK (role IN ('admin', 'member'));
-- NULL while the account is active; when it was deactivated otherwise.
ALTER TABLE users ADD COLUMN deactivated_at INTEGER;
-- When the user last used a session (written at most once a minute); NULL until then.
ALTER TABLE users ADD COLUMN last_seen_at INTEGER;

-- A database made before roles: its oldest account becomes the administrator, so the team can invite at once.
UPDATE users SET role = 'admin' WHERE seq = (SELECT min(seq) FROM users);

-- seq orders the log (newest first is seq descending); id is the public id.
CREATE TABLE audit_log (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  at INTEGER NOT NULL,
  actor_id TEXT,
  action TEXT NOT NULL,
  target_type TEXT NOT NULL,
  target_id TEXT NOT NULL,
  detail TEXT
) STRICT;
CREATE INDEX audit_log_by_at ON audit_log (at);
