// The newest-first search page (storage/sqlite/search-newest-first.ts) reads the page that sorting every match reads,
// whatever the disorder of created_at against seq, ties included; newest_so_far is kept by insert and backfilled;
// meta.total counts to its bound (docs/protocol.md §5).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseQuery } from '../../../src/parsers/query.ts';
import { SEARCH_FIELDS } from '../../../src/resources/search/handlers.ts';
import { loadMigrations, migrate, openDatabase, type Db } from '../../../src/storage/sqlite/database.ts';
import { PageRunner } from '../../../src/storage/sqlite/list-page.ts';
import { CALLER_CHAT_TOKENS, searchPage, searchSource } from '../../../src/storage/sqlite/search-store.ts';
import { SEARCH_COUNTED_PAST_PAGE } from '../../../src/storage/search-count.ts';

/** A search query as the handler makes it: newest first unless the query string sorts. */
function searchQuery(queryString: string) {
  const query = parseQuery(queryString, SEARCH_FIELDS, { reserved: ['q'] });
  if (query.sort.length === 0) query.sort.push({ field: SEARCH_FIELDS.fields.find((field) => field.name === 'createdAt')!, direction: 'DESC' });
  return query;
}

/** Two chats (u1 in c1 only), fox users and a fox chat, and `count` fox messages whose times jump back and forth against seq, with ties. */
function seed(db: Db, count: number): void {
  db.exec(`
    INSERT INTO users (id, login, password_hash, created_at, updated_at) VALUES ('u1', 'fox.one', 'x', 500, 500), ('u2', 'foxy', 'x', 1500, 1500);
    INSERT INTO chats (id, title, owner_id, created_at, updated_at) VALUES ('c1', 'fox den', 'u1', 1000, 1000), ('c2', 'fox hole', 'u2', 1000, 1000);
    INSERT INTO chat_members (chat_id, user_id, added_at) VALUES ('c1', 'u1', 1), ('c2', 'u2', 1);
  `);
  const insert = db.prepare("INSERT INTO messages (id, chat_id, author_id, text, created_at, updated_at) VALUES (?, ?, 'u1', ?, ?, ?)");
  let random = 7;
  const next = (): number => (random = (random * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let i = 0; i < count; i += 1) {
    // Mostly rising, sometimes far behind (an import), often equal (ties broken by id), ids in no time order.
    const time = next() < 0.1 ? Math.floor(next() * 1000) : 1000 + Math.floor(i / 3) + (next() < 0.3 ? -5 : 0);
    const id = `m${String(Math.floor(next() * 1e6)).padStart(6, '0')}${i}`;
    insert.run(id, next() < 0.8 ? 'c1' : 'c2', next() < 0.7 ? 'the fox ran' : 'a dog sat', time, time);
  }
}

describe('newest-first search', () => {
  test('every page equals the page that sorts every match, and deletes keep it so', () => {
    const db = openDatabase(':memory:');
    seed(db, 600);
    const pages = new PageRunner(db);
    const chatTokens = db.prepare(CALLER_CHAT_TOKENS).pluck().all('u1') as string[];
    const check = () => {
      for (const queryString of ['q=fox', 'q=fox&limit=50', 'q=fox&limit=7&offset=13', 'q=fox&limit=100&offset=250', 'q=fox&type=message&limit=3', 'q=fox&createdAt=<1970-01-01T00:00:01.100Z&limit=9', 'q=fox&limit=0']) {
        const query = searchQuery(queryString);
        const sorted = pages.listPage(searchSource('u1', ['fox'], query, chatTokens), query);
        assert.deepEqual(searchPage(pages, 'u1', ['fox'], query), sorted, queryString);
      }
    };
    check();
    db.exec("DELETE FROM messages WHERE seq % 7 = 0 OR created_at > 1150");
    check();
    db.close();
  });

  test('newest_so_far is the running newest created_at by seq, from inserts and from the backfill', () => {
    const migrations = loadMigrations();
    const db = openDatabase(':memory:', migrations.filter((migration) => migration.version < 20));
    seed(db, 40);
    migrate(db, migrations);
    db.prepare("INSERT INTO messages (id, chat_id, author_id, text, created_at, updated_at) VALUES ('new', 'c1', 'u1', 'fox', 5000, 5000)").run();
    db.prepare("INSERT INTO messages (id, chat_id, author_id, text, created_at, updated_at) VALUES ('late', 'c1', 'u1', 'fox', 3, 3)").run();
    const rows = db.prepare('SELECT created_at AS createdAt, newest_so_far AS newestSoFar FROM messages ORDER BY seq').all() as { createdAt: number; newestSoFar: number }[];
    let newest = -Infinity;
    for (const row of rows) {
      newest = Math.max(newest, row.createdAt);
      assert.equal(row.newestSoFar, newest);
    }
    db.close();
  });

  test(`meta.total counts ${SEARCH_COUNTED_PAST_PAGE} matches past the page at most`, () => {
    const db = openDatabase(':memory:');
    seed(db, 2000);
    const pages = new PageRunner(db);
    const all = db.prepare("SELECT count(*) FROM messages_fts JOIN messages m ON m.seq = messages_fts.rowid WHERE messages_fts MATCH 'fox' AND m.chat_id = 'c1'").pluck().get() as number;
    assert.ok(all > 20 + SEARCH_COUNTED_PAST_PAGE + 10, `${all} matches`);
    assert.equal(searchPage(pages, 'u1', ['fox'], searchQuery('q=fox')).total, 20 + SEARCH_COUNTED_PAST_PAGE);
    assert.equal(searchPage(pages, 'u1', ['fox'], searchQuery('q=fox&offset=30&limit=5&sort=createdAt')).total, 35 + SEARCH_COUNTED_PAST_PAGE);
    // Past the bound nothing is left out: every match, the fox den chat and both fox users.
    assert.equal(searchPage(pages, 'u1', ['fox'], searchQuery(`q=fox&offset=${all}`)).total, all + 3);
    db.close();
  });
});
