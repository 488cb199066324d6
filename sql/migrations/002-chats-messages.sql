-- Chats, their members and their messages.
CREATE TABLE chats (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  title TEXT NOT NULL,
  owner_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;

CREATE TABLE chat_members (
  chat_id TEXT NOT NULL REFERENCES chats(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  added_at INTEGER NOT NULL,
  PRIMARY KEY (chat_id, user_id)
) STRICT, WITHOUT ROWID;

-- A user's chats are found from the member side.
CREATE INDEX chat_members_by_user ON chat_members(user_id, chat_id);

CREATE TABLE messages (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  chat_id TEXT NOT NULL REFERENCES chats(id) ON DELETE CASCADE,
  author_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  text TEXT NOT NULL,
  reply_to TEXT REFERENCES messages(id) ON DELETE SET NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;

-- A page of a chat's history (default order, keyset after/before) is one range scan of this index,
-- whatever the size of the chat.
CREATE INDEX messages_by_chat ON messages(chat_id, id);
CREATE INDEX messages_by_reply ON messages(reply_to) WHERE reply_to IS NOT NULL;
