-- Sessions as their user sees them (GET /users/{id}/sessions, docs/protocol.md §3.5) and erased accounts (§3.7):
-- the same columns as sql/migrations/013-sessions-erasure.sql, which says what they hold.
ALTER TABLE sessions ADD COLUMN user_agent text;
ALTER TABLE sessions ADD COLUMN address text;
ALTER TABLE sessions ADD COLUMN last_used_at bigint NOT NULL DEFAULT 0;
UPDATE sessions SET last_used_at = created_at;

ALTER TABLE users ADD COLUMN erased_at bigint;
