-- Avatar images of users, with their thumbnail zone. The bytes live in the database with the row.
CREATE TABLE avatars (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  content_type TEXT NOT NULL,
  image_width INTEGER NOT NULL,
  image_height INTEGER NOT NULL,
  x REAL NOT NULL,
  y REAL NOT NULL,
  width REAL NOT NULL,
  height REAL NOT NULL,
  bytes BLOB NOT NULL,
  etag TEXT NOT NULL,
  created_at INTEGER NOT NULL
) STRICT;

CREATE INDEX avatars_by_user ON avatars(user_id, id);
