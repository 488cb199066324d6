-- A version of what makes a session hold (docs/performance.md, "Kept reads"): a server keeps the session a token
-- names while it holds, where one change stamp for the whole file retired it at every write of anything (a busy
-- server writes every few milliseconds, and every request looks its token up). It moves with every change that
-- could end a session or say something else of it: a session deleted (log out, revoked, expired, its user's password
-- changed, deactivated or erased) or changed but for its use, and a user deactivated or gone. Its use (the idle
-- expiry moved forward, when it was last used: at most once a minute a session) leaves it alone; a server that kept
-- the row reads it again when the row it kept has expired, and keeps the use it wrote itself. Triggers move it in the
-- transaction of the write, so every connection and process sees it move exactly when the write commits.
CREATE TABLE session_version (
  only INTEGER PRIMARY KEY CHECK (only = 1),
  n INTEGER NOT NULL
) STRICT;
INSERT INTO session_version (only, n) VALUES (1, 0);

CREATE TRIGGER session_version_after_session_delete AFTER DELETE ON sessions BEGIN
  UPDATE session_version SET n = n + 1;
END;
CREATE TRIGGER session_version_after_session_update
  AFTER UPDATE OF id, token_hash, user_id, created_at, max_expires_at, user_agent, address ON sessions BEGIN
  UPDATE session_version SET n = n + 1;
END;
-- An expiry moved back (never done today; a kept row would hold past it).
CREATE TRIGGER session_version_after_expiry_back AFTER UPDATE OF expires_at ON sessions WHEN new.expires_at < old.expires_at BEGIN
  UPDATE session_version SET n = n + 1;
END;
-- Only a change: a profile's update writes every column of the row.
CREATE TRIGGER session_version_after_user_update AFTER UPDATE OF id, deactivated_at ON users
  WHEN new.id IS NOT old.id OR new.deactivated_at IS NOT old.deactivated_at BEGIN
  UPDATE session_version SET n = n + 1;
END;
CREATE TRIGGER session_version_after_user_delete AFTER DELETE ON users BEGIN
  UPDATE session_version SET n = n + 1;
END;
