-- Sessions as their user sees them (GET /users/{id}/sessions, docs/protocol.md §3.5) and erased accounts (§3.7).

-- The client a session was made by (its User-Agent, cut to 256 characters; NULL when it sent none) and its address
-- as the server saw it (--trust-proxy aware), and when it was last used, written at most once a minute with the
-- idle expiry it moves (resources/session/authenticate.ts). Sessions from before: last used when made.
ALTER TABLE sessions ADD COLUMN user_agent TEXT;
ALTER TABLE sessions ADD COLUMN address TEXT;
ALTER TABLE sessions ADD COLUMN last_used_at INTEGER NOT NULL DEFAULT 0;
UPDATE sessions SET last_used_at = created_at;

-- An account erased with ?keepMessages=true stays as a row holding nothing but its id, so the messages it wrote
-- keep their author: its login is freed (replaced by one no sign-up can take), its password and avatar gone.
-- Every read of users leaves such a row out (erased_at IS NOT NULL): it is nobody's to find, list or add.
ALTER TABLE users ADD COLUMN erased_at INTEGER;
