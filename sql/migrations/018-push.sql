-- Web Push (docs/protocol.md §17): the server's one VAPID key (RFC 8292), made at first start by whichever process
-- inserts first (the row id is always 1, so a second insert does nothing), and the browsers' push subscriptions,
-- each tied to the session that made it: the session's end removes it (src/resources/session/sessions-ended.ts).
CREATE TABLE push_keys (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  -- base64url: the uncompressed P-256 point (65 bytes), and the private scalar d (32 bytes).
  public_key TEXT NOT NULL,
  private_key TEXT NOT NULL,
  created_at INTEGER NOT NULL
) STRICT;

CREATE TABLE push_subscriptions (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  -- A login session's id or a personal access token's id: what the caller signed in with.
  session_id TEXT NOT NULL,
  endpoint TEXT NOT NULL UNIQUE,
  -- base64url, as PushSubscription.toJSON() gives them: the browser's P-256 key (65 bytes) and auth secret (16 bytes).
  p256dh TEXT NOT NULL,
  auth TEXT NOT NULL,
  -- 1 while the session's page said it is hidden (POST /push/visibility): pushes go even with its stream open.
  page_hidden INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL
) STRICT;

CREATE INDEX push_subscriptions_by_user ON push_subscriptions (user_id);
CREATE INDEX push_subscriptions_by_session ON push_subscriptions (session_id);
