-- Bots and integrations, as SQLite's migration 017 (docs/protocol.md §16).
ALTER TABLE users ADD COLUMN kind text COLLATE "C" NOT NULL DEFAULT 'user' CHECK (kind IN ('user', 'bot'));
ALTER TABLE users ADD COLUMN owner_id text COLLATE "C" REFERENCES users(id) ON DELETE SET NULL;

CREATE TABLE access_tokens (
  id text COLLATE "C" PRIMARY KEY,
  user_id text COLLATE "C" NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name text NOT NULL,
  token_hash bytea NOT NULL UNIQUE,
  scopes text COLLATE "C" NOT NULL CHECK (scopes IN ('read', 'read write')),
  created_at bigint NOT NULL,
  last_used_at bigint,
  expires_at bigint
);
CREATE INDEX access_tokens_by_user ON access_tokens (user_id, id);

CREATE TABLE webhooks (
  id text COLLATE "C" PRIMARY KEY,
  chat_id text COLLATE "C" NOT NULL REFERENCES chats(id) ON DELETE CASCADE,
  bot_id text COLLATE "C" NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_by text COLLATE "C" REFERENCES users(id) ON DELETE SET NULL,
  name text NOT NULL,
  direction text COLLATE "C" NOT NULL CHECK (direction IN ('incoming', 'outgoing')),
  secret_hash bytea UNIQUE,
  url text,
  signing_secret text,
  events text,
  trigger_on text COLLATE "C" CHECK (trigger_on IN ('all', 'mentions')),
  created_at bigint NOT NULL,
  disabled_at bigint
);
CREATE INDEX webhooks_by_chat ON webhooks (chat_id, id);
