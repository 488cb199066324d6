-- Search reads message matches newest first and stops at the page (docs/performance.md, "Search at scale").
-- The FTS5 index hands matches out by rowid (messages.seq), which follows insertion, while results are ordered by
-- created_at: the two nearly agree, but not exactly (a time taken before a concurrent insert, another process).
-- newest_so_far is the newest created_at of this message and of every message inserted before it (by seq), so a
-- reader walking matches by seq, newest first, knows that nothing further on is newer than the newest_so_far of
-- where it stands, and may stop once it holds a page of matches all newer than that.
--
-- It never decreases with seq: a new message takes the largest seq (INTEGER PRIMARY KEY), and its value is the
-- max of its own created_at and the one before it; deleting messages only removes rows below a bound.
-- created_at never changes once written. Only SQLite keeps it: PostgreSQL's GIN index gives matches in no order.

ALTER TABLE messages ADD COLUMN newest_so_far INTEGER;

-- Only newest_so_far changes here, and no trigger on messages fires for an update of it.
CREATE TRIGGER messages_newest_so_far AFTER INSERT ON messages BEGIN
  UPDATE messages SET newest_so_far = max(new.created_at, coalesce(
    (SELECT p.newest_so_far FROM messages p WHERE p.seq < new.seq ORDER BY p.seq DESC LIMIT 1), new.created_at))
  WHERE seq = new.seq;
END;

-- Messages written before this migration: the running maximum, in one pass.
UPDATE messages SET newest_so_far = running.newest
  FROM (SELECT seq, max(created_at) OVER (ORDER BY seq) AS newest FROM messages) AS running
  WHERE running.seq = messages.seq;
