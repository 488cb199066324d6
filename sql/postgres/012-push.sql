-- Web Push (docs/protocol.md §17), as SQLite's migration 018: the one VAPID key (id 1, inserted once by whichever
-- server is first), and push subscriptions tied to the session that made them.
CREATE TABLE push_keys (
  id integer PRIMARY KEY CHECK (id = 1),
  public_key text NOT NULL,
  private_key text NOT NULL,
  created_at bigint NOT NULL
);

CREATE TABLE push_subscriptions (
  id text COLLATE "C" PRIMARY KEY,
  user_id text COLLATE "C" NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  session_id text COLLATE "C" NOT NULL,
  endpoint text NOT NULL UNIQUE,
  p256dh text NOT NULL,
  auth text NOT NULL,
  page_hidden integer NOT NULL DEFAULT 0,
  created_at bigint NOT NULL
);

CREATE INDEX push_subscriptions_by_user ON push_subscriptions (user_id);
CREATE INDEX push_subscriptions_by_session ON push_subscriptions (session_id);
