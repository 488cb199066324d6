-- What triggers keep in step, as in SQLite's migrations 005 and 007: the message count of each chat, each
-- member's read marker and unread count, each message's reactions summary, the earlier texts of edited messages;
-- and a wake-up of every server tailing the event log.

CREATE FUNCTION chats_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO chat_stats (chat_id, message_count) VALUES (NEW.id, 0);
  RETURN NULL;
END $$;
CREATE TRIGGER chats_after_insert AFTER INSERT ON chats FOR EACH ROW EXECUTE FUNCTION chats_after_insert();

-- A new member starts with the marker on the newest message: the history before they joined is not unread.
CREATE FUNCTION chat_members_before_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.last_read_id := (SELECT max(m.id) FROM messages m WHERE m.chat_id = NEW.chat_id);
  NEW.unread_count := 0;
  RETURN NEW;
END $$;
CREATE TRIGGER chat_members_before_insert BEFORE INSERT ON chat_members FOR EACH ROW EXECUTE FUNCTION chat_members_before_insert();

-- A new message counts for its chat, is unread for every other member whose marker lies before it, and moves
-- its author's marker to it (one UPDATE for both kinds of member).
CREATE FUNCTION messages_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE chat_stats SET message_count = message_count + 1 WHERE chat_id = NEW.chat_id;
  UPDATE chat_members SET
    unread_count = CASE WHEN user_id = NEW.author_id THEN 0 ELSE unread_count + 1 END,
    last_read_id = CASE WHEN user_id = NEW.author_id THEN NEW.id ELSE last_read_id END
  WHERE chat_id = NEW.chat_id AND (last_read_id IS NULL OR last_read_id < NEW.id);
  RETURN NULL;
END $$;
CREATE TRIGGER messages_after_insert AFTER INSERT ON messages FOR EACH ROW EXECUTE FUNCTION messages_after_insert();

-- Deletions are handled per statement, over the deleted rows together: PostgreSQL fires row triggers after the
-- whole statement, when "the message before" a marker may already be gone, so a row-by-row replay of SQLite's
-- trigger could count a message twice. The outcome is SQLite's: a marker on a deleted message moves back to the
-- newest remaining message before it (NULL when none), and the unread count loses the deleted messages of
-- others that lay after the old marker.
CREATE FUNCTION messages_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE chat_stats s SET message_count = s.message_count - g.n
    FROM (SELECT chat_id, count(*) AS n FROM gone GROUP BY chat_id) g WHERE s.chat_id = g.chat_id;
  UPDATE chat_members cm SET
    unread_count = cm.unread_count - (SELECT count(*) FROM gone g
      WHERE g.chat_id = cm.chat_id AND g.author_id <> cm.user_id AND (cm.last_read_id IS NULL OR g.id > cm.last_read_id)),
    last_read_id = CASE WHEN EXISTS (SELECT 1 FROM gone g WHERE g.chat_id = cm.chat_id AND g.id = cm.last_read_id)
      THEN (SELECT max(m.id) FROM messages m WHERE m.chat_id = cm.chat_id AND m.id < cm.last_read_id)
      ELSE cm.last_read_id END
  WHERE cm.chat_id IN (SELECT DISTINCT chat_id FROM gone);
  RETURN NULL;
END $$;
CREATE TRIGGER messages_after_delete AFTER DELETE ON messages REFERENCING OLD TABLE AS gone
  FOR EACH STATEMENT EXECUTE FUNCTION messages_after_delete();

-- Only a real change of the text is an edit: the text it replaces is kept as the next revision.
CREATE FUNCTION messages_after_text_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO message_revisions (message_id, n, text, created_at)
    VALUES (OLD.id, (SELECT count(*) FROM message_revisions r WHERE r.message_id = OLD.id) + 1, OLD.text, coalesce(OLD.edited_at, OLD.created_at));
  RETURN NULL;
END $$;
CREATE TRIGGER messages_after_text_update AFTER UPDATE OF text ON messages FOR EACH ROW
  WHEN (NEW.text IS DISTINCT FROM OLD.text) EXECUTE FUNCTION messages_after_text_update();

-- A message's reactions summary: emojis in order of first use, users in the order they reacted.
CREATE FUNCTION message_reactions_summary(message text) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT coalesce(json_agg(json_build_object('emoji', g.emoji, 'count', g.n, 'userIds', g.users) ORDER BY g.first)::text, '[]')
  FROM (SELECT r.emoji, count(*) AS n, json_agg(r.user_id ORDER BY r.seq) AS users, min(r.seq) AS first
        FROM reactions r WHERE r.message_id = message GROUP BY r.emoji) g
$$;
CREATE FUNCTION reactions_after_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  target text := CASE WHEN TG_OP = 'DELETE' THEN OLD.message_id ELSE NEW.message_id END;
BEGIN
  -- Reactions to one message are summarised one transaction at a time: the message row is locked first (NO KEY
  -- UPDATE, which the foreign-key checks of other reactions do not conflict with), and the summary is then read
  -- in a statement of its own, whose snapshot sees every reaction committed before the lock was granted (two
  -- transactions reading at once would each miss the other's reaction). After a message's deletion cascaded
  -- here, both statements match nothing.
  PERFORM 1 FROM messages WHERE id = target FOR NO KEY UPDATE;
  UPDATE messages SET reactions = message_reactions_summary(target) WHERE id = target;
  RETURN NULL;
END $$;
CREATE TRIGGER reactions_after_change AFTER INSERT OR DELETE ON reactions FOR EACH ROW EXECUTE FUNCTION reactions_after_change();

-- Every server tails the log; this wakes them at commit (NOTIFY is delivered only then, once per transaction
-- for equal payloads). A hint only: no payload, and a server that missed it still reads the log on its timer.
CREATE FUNCTION events_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('chat_events', '');
  RETURN NULL;
END $$;
CREATE TRIGGER events_after_insert AFTER INSERT ON events FOR EACH STATEMENT EXECUTE FUNCTION events_after_insert();
