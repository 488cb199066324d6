-- The database file must open in SQLite 3.37 and newer (docs/storage.md), e.g. Debian 12's own sqlite3 (3.40), for an
-- operator's inspection or repair. The reaction triggers of 007 used an ORDER BY inside an aggregate's arguments,
-- which SQLite parses only from 3.44: an older one cannot read the schema at all ("malformed database schema
-- (reactions_after_insert) - near ORDER"). Here they are made again without it, writing the same summary byte for
-- byte: each aggregate reads a subquery already in the order wanted (SQLite keeps a FROM subquery's ORDER BY for an
-- aggregate over it alone), emojis by their first use, each emoji's users by when they reacted.

DROP TRIGGER reactions_after_insert;
DROP TRIGGER reactions_after_delete;

CREATE TRIGGER reactions_after_insert AFTER INSERT ON reactions BEGIN
  UPDATE messages SET reactions = (
    SELECT json_group_array(json_object('emoji', g.emoji, 'count', g.n, 'userIds', json(g.users)))
    FROM (SELECT e.emoji, e.n,
            (SELECT json_group_array(u.user_id)
             FROM (SELECT r.user_id FROM reactions r WHERE r.message_id = new.message_id AND r.emoji = e.emoji ORDER BY r.seq) u) AS users
          FROM (SELECT r.emoji, count(*) AS n, min(r.seq) AS first
                FROM reactions r WHERE r.message_id = new.message_id GROUP BY r.emoji) e
          ORDER BY e.first) g
  ) WHERE id = new.message_id;
END;
-- Also fires for the reactions a message's deletion cascades to; the UPDATE then matches nothing.
CREATE TRIGGER reactions_after_delete AFTER DELETE ON reactions BEGIN
  UPDATE messages SET reactions = (
    SELECT json_group_array(json_object('emoji', g.emoji, 'count', g.n, 'userIds', json(g.users)))
    FROM (SELECT e.emoji, e.n,
            (SELECT json_group_array(u.user_id)
             FROM (SELECT r.user_id FROM reactions r WHERE r.message_id = old.message_id AND r.emoji = e.emoji ORDER BY r.seq) u) AS users
          FROM (SELECT r.emoji, count(*) AS n, min(r.seq) AS first
                FROM reactions r WHERE r.message_id = old.message_id GROUP BY r.emoji) e
          ORDER BY e.first) g
  ) WHERE id = old.message_id;
END;
