-- Two versions of each chat, as SQLite's migration 022 (docs/performance.md, "Kept reads"): of its messages, and
-- of who its members are, so a server keeps a page of its history and a membership while its version holds,
-- whatever else is written. Each version is the next value of one sequence, so a chat deleted and made again under
-- the same id never carries a version an entry of the old one was kept under; nextval takes no lock, so writes to
-- different chats never wait for each other on it.
CREATE SEQUENCE chat_versions;
ALTER TABLE chat_stats ADD COLUMN messages_version bigint NOT NULL DEFAULT 0;
ALTER TABLE chat_stats ADD COLUMN members_version bigint NOT NULL DEFAULT 0;
ALTER TABLE chat_stats ALTER COLUMN messages_version SET DEFAULT nextval('chat_versions');
ALTER TABLE chat_stats ALTER COLUMN members_version SET DEFAULT nextval('chat_versions');

-- A message was written (its reactions, attachments and mentions are columns of it): its chat, and one it left.
CREATE FUNCTION chat_version_after_message() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE chat_stats SET messages_version = nextval('chat_versions') WHERE chat_id IN (NEW.chat_id, OLD.chat_id);
  RETURN NULL;
END $$;

-- Messages deleted, as many as a chat's deletion cascades to: one statement for all of them.
CREATE FUNCTION chat_version_after_messages_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE chat_stats SET messages_version = nextval('chat_versions') WHERE chat_id IN (SELECT DISTINCT chat_id FROM gone);
  RETURN NULL;
END $$;

-- A member's row came or went (not its read marker or counts, which every post moves), or moved.
CREATE FUNCTION chat_version_after_member() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE chat_stats SET members_version = nextval('chat_versions') WHERE chat_id = NEW.chat_id;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE chat_stats SET members_version = nextval('chat_versions') WHERE chat_id = OLD.chat_id;
  ELSE
    UPDATE chat_stats SET members_version = nextval('chat_versions') WHERE chat_id IN (NEW.chat_id, OLD.chat_id);
  END IF;
  RETURN NULL;
END $$;

-- The chat's owner or kind: part of what a membership reads.
CREATE FUNCTION chat_version_after_chat_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE chat_stats SET members_version = nextval('chat_versions') WHERE chat_id = NEW.id;
  RETURN NULL;
END $$;

CREATE TRIGGER chat_version_after_message AFTER INSERT OR UPDATE ON messages FOR EACH ROW EXECUTE FUNCTION chat_version_after_message();
CREATE TRIGGER chat_version_after_messages_delete AFTER DELETE ON messages REFERENCING OLD TABLE AS gone
  FOR EACH STATEMENT EXECUTE FUNCTION chat_version_after_messages_delete();
CREATE TRIGGER chat_version_after_member AFTER INSERT OR DELETE ON chat_members FOR EACH ROW EXECUTE FUNCTION chat_version_after_member();
CREATE TRIGGER chat_version_after_member_move AFTER UPDATE OF chat_id, user_id ON chat_members FOR EACH ROW EXECUTE FUNCTION chat_version_after_member();
CREATE TRIGGER chat_version_after_chat_update AFTER UPDATE OF owner_id, kind ON chats FOR EACH ROW
  WHEN (NEW.owner_id IS DISTINCT FROM OLD.owner_id OR NEW.kind IS DISTINCT FROM OLD.kind) EXECUTE FUNCTION chat_version_after_chat_update();
