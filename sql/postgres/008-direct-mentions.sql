-- Direct chats, @mentions and notification levels, as SQLite's migration 014 (docs/protocol.md §14).

-- A direct chat's title is stored as '' and read as NULL; direct_key "<smaller id>:<larger id>" is unique, so one
-- direct chat per pair holds across servers (the second insert waits for the first to commit, then fails).
ALTER TABLE chats ADD COLUMN kind text COLLATE "C" NOT NULL DEFAULT 'group' CHECK (kind IN ('group', 'direct'));
ALTER TABLE chats ADD COLUMN direct_key text COLLATE "C";
CREATE UNIQUE INDEX chats_by_direct_key ON chats (direct_key) WHERE direct_key IS NOT NULL;

ALTER TABLE chat_members ADD COLUMN mention_count integer NOT NULL DEFAULT 0 CHECK (mention_count >= 0);
ALTER TABLE chat_members ADD COLUMN notification_level text COLLATE "C" CHECK (notification_level IN ('all', 'mentions', 'none'));

ALTER TABLE messages ADD COLUMN mentions text NOT NULL DEFAULT '[]';

CREATE TABLE message_mentions (
  user_id text COLLATE "C" NOT NULL,
  message_id text COLLATE "C" NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
  chat_id text COLLATE "C" NOT NULL,
  PRIMARY KEY (user_id, message_id)
);
CREATE INDEX message_mentions_by_message ON message_mentions (message_id);

-- Who a message's mentions text names, as a set of ids.
CREATE FUNCTION mentioned_ids(mentions text) RETURNS SETOF text LANGUAGE sql IMMUTABLE AS $$
  SELECT value COLLATE "C" FROM json_array_elements_text(mentions::json) AS value
$$;

-- 002's insert trigger, again: posting moves the author's marker to their message, so their mentions are all read too.
CREATE OR REPLACE FUNCTION messages_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE chat_stats SET message_count = message_count + 1 WHERE chat_id = NEW.chat_id;
  UPDATE chat_members SET
    unread_count = CASE WHEN user_id = NEW.author_id THEN 0 ELSE unread_count + 1 END,
    mention_count = CASE WHEN user_id = NEW.author_id THEN 0 ELSE mention_count END,
    last_read_id = CASE WHEN user_id = NEW.author_id THEN NEW.id ELSE last_read_id END
  WHERE chat_id = NEW.chat_id AND (last_read_id IS NULL OR last_read_id < NEW.id);
  RETURN NULL;
END $$;

-- A new message mentions its users and counts for each mentioned member (not its author) whose marker lies
-- before it. messages_after_insert moves only the author's marker, so the order of the two triggers is free.
CREATE FUNCTION mentions_after_message_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO message_mentions (user_id, message_id, chat_id) SELECT DISTINCT u, NEW.id, NEW.chat_id FROM mentioned_ids(NEW.mentions) u ON CONFLICT DO NOTHING;
  UPDATE chat_members SET mention_count = mention_count + 1
    WHERE chat_id = NEW.chat_id AND user_id <> NEW.author_id AND user_id IN (SELECT mentioned_ids(NEW.mentions))
      AND (last_read_id IS NULL OR last_read_id < NEW.id);
  RETURN NULL;
END $$;
CREATE TRIGGER mentions_after_message_insert AFTER INSERT ON messages FOR EACH ROW WHEN (NEW.mentions <> '[]')
  EXECUTE FUNCTION mentions_after_message_insert();

CREATE FUNCTION mentions_after_message_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE chat_members SET mention_count = mention_count
      + (CASE WHEN user_id IN (SELECT mentioned_ids(NEW.mentions)) THEN 1 ELSE 0 END)
      - (CASE WHEN user_id IN (SELECT mentioned_ids(OLD.mentions)) THEN 1 ELSE 0 END)
    WHERE chat_id = NEW.chat_id AND user_id <> NEW.author_id AND (last_read_id IS NULL OR last_read_id < NEW.id);
  DELETE FROM message_mentions WHERE message_id = OLD.id AND user_id NOT IN (SELECT mentioned_ids(NEW.mentions));
  INSERT INTO message_mentions (user_id, message_id, chat_id) SELECT DISTINCT u, NEW.id, NEW.chat_id FROM mentioned_ids(NEW.mentions) u ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
CREATE TRIGGER mentions_after_message_update AFTER UPDATE OF mentions ON messages FOR EACH ROW
  WHEN (NEW.mentions IS DISTINCT FROM OLD.mentions) EXECUTE FUNCTION mentions_after_message_update();

-- 002's statement trigger for deletions, again, now also taking the deleted messages' mentions off the counts: in
-- the same UPDATE, so every count is fixed against the marker as it was before it moves back.
CREATE OR REPLACE FUNCTION messages_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE chat_stats s SET message_count = s.message_count - g.n
    FROM (SELECT chat_id, count(*) AS n FROM gone GROUP BY chat_id) g WHERE s.chat_id = g.chat_id;
  UPDATE chat_members cm SET
    unread_count = cm.unread_count - (SELECT count(*) FROM gone g
      WHERE g.chat_id = cm.chat_id AND g.author_id <> cm.user_id AND (cm.last_read_id IS NULL OR g.id > cm.last_read_id)),
    mention_count = cm.mention_count - (SELECT count(*) FROM gone g
      WHERE g.chat_id = cm.chat_id AND g.author_id <> cm.user_id AND (cm.last_read_id IS NULL OR g.id > cm.last_read_id)
        AND g.mentions <> '[]' AND cm.user_id IN (SELECT mentioned_ids(g.mentions))),
    last_read_id = CASE WHEN EXISTS (SELECT 1 FROM gone g WHERE g.chat_id = cm.chat_id AND g.id = cm.last_read_id)
      THEN (SELECT max(m.id) FROM messages m WHERE m.chat_id = cm.chat_id AND m.id < cm.last_read_id)
      ELSE cm.last_read_id END
  WHERE cm.chat_id IN (SELECT DISTINCT chat_id FROM gone);
  RETURN NULL;
END $$;
