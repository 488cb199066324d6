-- Bots and integrations (docs/protocol.md §16): bot accounts, personal access tokens, webhooks.
-- A bot is a user with kind 'bot', no password (password_hash ''), owned by the user who made it.
ALTER TABLE users ADD COLUMN kind TEXT NOT NULL DEFAULT 'user' CHECK (kind IN ('user', 'bot'));
ALTER TABLE users ADD COLUMN owner_id TEXT REFERENCES users(id) ON DELETE SET NULL;

-- Personal access tokens (§16.1), of a user or of a bot: kept as the SHA-256 of the token, shown once.
-- scopes is 'read' or 'read write'; last_used_at is written at most once a minute.
CREATE TABLE access_tokens (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  token_hash BLOB NOT NULL UNIQUE,
  scopes TEXT NOT NULL CHECK (scopes IN ('read', 'read write')),
  created_at INTEGER NOT NULL,
  last_used_at INTEGER,
  expires_at INTEGER
) STRICT;
CREATE INDEX access_tokens_by_user ON access_tokens (user_id, id);

-- Webhooks of a chat (§16.3, §16.4), each posting or heard as its own bot user. An incoming one is found by the
-- SHA-256 of its secret; an outgoing one keeps its signing secret (HMAC needs it) and its URL, events (a JSON
-- array) and trigger. disabled_at is set after 24 h of failing deliveries.
CREATE TABLE webhooks (
  id TEXT PRIMARY KEY,
  chat_id TEXT NOT NULL REFERENCES chats(id) ON DELETE CASCADE,
  bot_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_by TEXT REFERENCES users(id) ON DELETE SET NULL,
  name TEXT NOT NULL,
  direction TEXT NOT NULL CHECK (direction IN ('incoming', 'outgoing')),
  secret_hash BLOB UNIQUE,
  url TEXT,
  signing_secret TEXT,
  events TEXT,
  trigger_on TEXT CHECK (trigger_on IN ('all', 'mentions')),
  created_at INTEGER NOT NULL,
  disabled_at INTEGER
) STRICT;
CREATE INDEX webhooks_by_chat ON webhooks (chat_id, id);
