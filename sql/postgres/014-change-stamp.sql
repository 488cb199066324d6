-- A change stamp, so that PostgreSQL servers keep reads as SQLite does (storage/read-through.ts, docs/postgres.md
-- "Kept reads"): every statement that writes a table bumps a counter in the same transaction, so the sum of the
-- counters changes, visibly to every server, exactly when a write commits. A server reads the sum before the reads
-- it keeps: if a write commits in between, what it keeps is newer than its stamp, never older.
--
-- The counter is spread over 64 rows, one chosen by the writing connection's process id, so that two write
-- transactions of different connections seldom wait for each other's row lock until they commit; a transaction
-- bumps its row once (a transaction-local setting remembers it, and goes back with a savepoint rolled back, as
-- the row's update does).
--
-- Every table has the trigger: a migration that creates a table must give it one too (the tests check it).

CREATE TABLE change_stamps (
  slot integer PRIMARY KEY,
  n bigint NOT NULL
);
INSERT INTO change_stamps (slot, n) SELECT slot, 0 FROM generate_series(0, 63) AS slot;

CREATE FUNCTION bump_change_stamp() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('chat.change_stamped', true) IS DISTINCT FROM 'yes' THEN
    UPDATE change_stamps SET n = n + 1 WHERE slot = pg_backend_pid() % 64;
    PERFORM set_config('chat.change_stamped', 'yes', true);
  END IF;
  RETURN NULL;
END $$;

DO $$
DECLARE
  t record;
BEGIN
  FOR t IN SELECT c.relname FROM pg_class c JOIN pg_namespace ns ON ns.oid = c.relnamespace
    WHERE ns.nspname = current_schema() AND c.relkind IN ('r', 'p') AND c.relname NOT IN ('change_stamps', 'schema_migrations')
  LOOP
    EXECUTE format('CREATE TRIGGER change_stamp AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION bump_change_stamp()', t.relname);
  END LOOP;
END $$;
