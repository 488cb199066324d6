-- Two versions of each chat, as SQLite's migration 022 (docs/performance.md, "Kept reads"): of its messages, and
-- of who its members are, so a server keeps a page of its history and a membership while its version holds,
-- whatever else is written. Each version is the next value of one sequence, so a chat deleted and made again under
-- the same id never carries a version an entry of the old one was kept under; nextval takes no lock.
--
-- Where each lives is chosen by the row locks it takes, since a transaction waits for another's row lock until it
-- commits and the event log's append lock makes such waits into deadlocks: the messages version sits in chat_stats,
-- whose row every post and delete already locks for the count; the members version on the chat's own row, which
-- every change of members already locks (it moves updated_at) and a post never does (its foreign key takes a share
-- lock that an update of other columns leaves alone). In chat_stats, member changes and posts waited for each other.
CREATE SEQUENCE chat_versions;
ALTER TABLE chat_stats ADD COLUMN messages_version bigint NOT NULL DEFAULT 0;
ALTER TABLE chat_stats ALTER COLUMN messages_version SET DEFAULT nextval('chat_versions');
ALTER TABLE chats ADD COLUMN members_version bigint NOT NULL DEFAULT 0;
ALTER TABLE chats ALTER COLUMN members_version SET DEFAULT nextval('chat_versions');

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
    UPDATE chats SET members_version = nextval('chat_versions') WHERE id = NEW.chat_id;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE chats SET members_version = nextval('chat_versions') WHERE id = OLD.chat_id;
  ELSE
    UPDATE chats SET members_version = nextval('chat_versions') WHERE id IN (NEW.chat_id, OLD.chat_id);
  END IF;
  RETURN NULL;
END $$;

-- The chat's owner or kind: part of what a membership reads, moved in the row's own update.
CREATE FUNCTION chat_version_before_chat_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.members_version := nextval('chat_versions');
  RETURN NEW;
END $$;

CREATE TRIGGER chat_version_after_message AFTER INSERT OR UPDATE ON messages FOR EACH ROW EXECUTE FUNCTION chat_version_after_message();
CREATE TRIGGER chat_version_after_messages_delete AFTER DELETE ON messages REFERENCING OLD TABLE AS gone
  FOR EACH STATEMENT EXECUTE FUNCTION chat_version_after_messages_delete();
CREATE TRIGGER chat_version_after_member AFTER INSERT OR DELETE ON chat_members FOR EACH ROW EXECUTE FUNCTION chat_version_after_member();
CREATE TRIGGER chat_version_after_member_move AFTER UPDATE OF chat_id, user_id ON chat_members FOR EACH ROW EXECUTE FUNCTION chat_version_after_member();
CREATE TRIGGER chat_version_before_chat_update BEFORE UPDATE OF owner_id, kind ON chats FOR EACH ROW
  WHEN (NEW.owner_id IS DISTINCT FROM OLD.owner_id OR NEW.kind IS DISTINCT FROM OLD.kind) EXECUTE FUNCTION chat_version_before_chat_update();
