-- Full-text search (docs/protocol.md §5) with PostgreSQL's own tools, matching SQLite's FTS5 (unicode61, remove_diacritics 2)
-- on what a client can see: a word is a run of letters and digits (so "ann.lee" is "ann" and "lee"), case and
-- diacritics are ignored, and each searched word is a prefix (tsquery `:*`). The words are made here, by one
-- function used both for the indexed text and for the query, and stored as a tsvector (array_to_tsvector: no
-- parser or dictionary of a text search configuration can split or stem them differently).

-- Letters and digits of every script, whatever the database's locale: ICU's root collation when PostgreSQL has
-- ICU, else the C.UTF-8 locale of the C library.
DO $$
BEGIN
  BEGIN
    CREATE COLLATION chat_words (provider = icu, locale = 'und');
  EXCEPTION WHEN OTHERS THEN
    CREATE COLLATION chat_words (provider = libc, locale = 'C.UTF-8');
  END;
END $$;

-- unaccent (contrib; a trusted extension since PostgreSQL 13, so a database owner may create it). Where it cannot
-- be created, diacritics are removed by canonical decomposition instead (NFD, then the combining marks dropped):
-- the same for accented Latin, Greek and Cyrillic letters, but ligatures such as "æ" or "ß" are then not spelled out.
DO $$
BEGIN
  BEGIN
    CREATE EXTENSION IF NOT EXISTS unaccent;
    CREATE FUNCTION chat_unaccent(t text) RETURNS text LANGUAGE sql STABLE PARALLEL SAFE AS 'SELECT unaccent(t)';
  EXCEPTION WHEN OTHERS THEN
    RAISE NOTICE 'unaccent is not available (%): diacritics are removed by Unicode decomposition instead', SQLERRM;
    CREATE FUNCTION chat_unaccent(t text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
      AS $f$SELECT regexp_replace(normalize(t, NFD), '[\u0300-\u036f]', '', 'g')$f$;
  END;
END $$;

CREATE FUNCTION chat_search_words(t text) RETURNS text[] LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(DISTINCT w), '{}')
  FROM regexp_split_to_table(lower(chat_unaccent(t) COLLATE chat_words), '[^[:alnum:]]+') AS w WHERE w <> ''
$$;

CREATE FUNCTION chat_search_vector(t text) RETURNS tsvector LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT array_to_tsvector(chat_search_words(t))
$$;

-- Every word a prefix, all of them required; quote_literal keeps each one a lexeme, never tsquery syntax.
CREATE FUNCTION chat_search_query(terms text[]) RETURNS tsquery LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT coalesce(string_agg(quote_literal(w) || ':*', ' & '), '')::tsquery
  FROM unnest(chat_search_words(array_to_string(terms, ' '))) AS w
$$;

CREATE FUNCTION messages_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search := chat_search_vector(NEW.text);
  RETURN NEW;
END $$;
CREATE TRIGGER messages_search BEFORE INSERT OR UPDATE OF text ON messages FOR EACH ROW EXECUTE FUNCTION messages_search();

CREATE FUNCTION chats_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search := chat_search_vector(NEW.title);
  RETURN NEW;
END $$;
CREATE TRIGGER chats_search BEFORE INSERT OR UPDATE OF title ON chats FOR EACH ROW EXECUTE FUNCTION chats_search();

CREATE FUNCTION users_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search := chat_search_vector(NEW.login);
  RETURN NEW;
END $$;
CREATE TRIGGER users_search BEFORE INSERT OR UPDATE OF login ON users FOR EACH ROW EXECUTE FUNCTION users_search();

CREATE INDEX messages_by_words ON messages USING gin (search);
CREATE INDEX chats_by_words ON chats USING gin (search);
CREATE INDEX users_by_words ON users USING gin (search);
