-- The event log (real-time events): every change a client may want to hear of, written in the same
-- transaction as the change. Streams and long-polls read it "after the last id I delivered", so a
-- second process or server can tail the same log; nothing lives only in memory.
CREATE TABLE events (
  -- AUTOINCREMENT: ids only ever increase over the whole server, even after every row was pruned.
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  type TEXT NOT NULL,
  chat_id TEXT NOT NULL,
  -- Set for events only one user may see (read.updated): only that user's streams receive them.
  only_user_id TEXT,
  -- Users who receive the event though they are no longer members when it is delivered: the removed
  -- member of member.removed, the members of a deleted chat. A JSON array, or NULL.
  also_user_ids TEXT,
  created_at INTEGER NOT NULL,
  -- The event's data object as JSON text: the resource exactly as GET answered it at that moment.
  data TEXT NOT NULL
) STRICT;

-- Retention prunes by age; pruned_through is the highest id pruned so far, so a resume id at or
-- above it is known to have lost nothing.
CREATE TABLE event_log (
  only_row INTEGER PRIMARY KEY CHECK (only_row = 1),
  pruned_through INTEGER NOT NULL
) STRICT;
INSERT INTO event_log (only_row, pruned_through) VALUES (1, 0);
