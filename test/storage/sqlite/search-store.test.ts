// The FTS5 indexes of migration 004 (and 023's chat token): the match expressions, triggers in step with every write, and the
// backfill of older rows.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadMigrations, migrate, openDatabase, type Db } from '../../../src/storage/sqlite/database.ts';
import { MAX_CHAT_TOKENS, messageMatch, toMatchExpression } from '../../../src/storage/sqlite/search-store.ts';

function seed(db: Db): void {
  db.exec(`
    INSERT INTO users (id, login, password_hash, created_at, updated_at) VALUES ('u1', 'ann.lee', 'x', 1, 1), ('u2', 'Bob', 'x', 2, 2);
    INSERT INTO chats (id, title, owner_id, created_at, updated_at) VALUES ('c1', 'Crème brûlée club', 'u1', 3, 3);
    INSERT INTO chat_members (chat_id, user_id, added_at) VALUES ('c1', 'u1', 3);
    INSERT INTO messages (id, chat_id, author_id, text, created_at, updated_at) VALUES
      ('m1', 'c1', 'u1', 'Planning the picnic on Saturday', 4, 4),
      ('m2', 'c1', 'u2', 'bring strawberries', 5, 5);
  `);
}

/** The ids a match finds in one index, through its external content table. */
function find(db: Db, table: 'messages' | 'chats' | 'users', words: string[]): string[] {
  return (db.prepare(`SELECT t.id FROM ${table}_fts JOIN ${table} t ON t.seq = ${table}_fts.rowid WHERE ${table}_fts MATCH ? ORDER BY t.id`)
    .pluck().all(toMatchExpression(words)) as string[]);
}

function assertIntact(db: Db): void {
  // FTS5's own check compares the index with the content table, token by token.
  for (const table of ['messages_fts', 'chats_fts', 'users_fts']) db.exec(`INSERT INTO ${table} (${table}) VALUES ('integrity-check')`);
}

describe('toMatchExpression', () => {
  test('quotes each word as an FTS5 string, makes it a prefix and ANDs them', () => {
    assert.equal(toMatchExpression(['hello']), '"hello"*');
    assert.equal(toMatchExpression(['a', 'OR', 'b']), '"a"* AND "OR"* AND "b"*');
    assert.equal(toMatchExpression(['say "hi"']), '"say ""hi"""*');
  });
  test('no words is a programming error', () => {
    assert.throws(() => toMatchExpression([]), /at least one term/);
  });
});

describe('FTS5 triggers', () => {
  test('insert, update and delete keep every index in step', () => {
    const db = openDatabase(':memory:');
    seed(db);
    assert.deepEqual(find(db, 'messages', ['pic']), ['m1']);
    assert.deepEqual(find(db, 'chats', ['creme', 'bru']), ['c1']);
    assert.deepEqual(find(db, 'users', ['lee']), ['u1']);
    db.exec("UPDATE messages SET text = 'cancelled: rain' WHERE id = 'm1'");
    db.exec("UPDATE messages SET updated_at = 9 WHERE id = 'm2'");
    db.exec("UPDATE chats SET title = 'Rainy days' WHERE id = 'c1'");
    db.exec("UPDATE users SET login = 'bobby' WHERE id = 'u2'");
    assert.deepEqual(find(db, 'messages', ['picnic']), []);
    assert.deepEqual(find(db, 'messages', ['rain']), ['m1']);
    assert.deepEqual(find(db, 'messages', ['straw']), ['m2']);
    assert.deepEqual(find(db, 'chats', ['creme']), []);
    assert.deepEqual(find(db, 'chats', ['rainy']), ['c1']);
    assert.deepEqual(find(db, 'users', ['bobby']), ['u2']);
    db.exec("DELETE FROM messages WHERE id = 'm2'");
    assert.deepEqual(find(db, 'messages', ['straw']), []);
    assertIntact(db);
    // Deleting the chat cascades to its messages, whose triggers fire too.
    db.exec("DELETE FROM chats WHERE id = 'c1'");
    assert.deepEqual(find(db, 'messages', ['rain']), []);
    assert.deepEqual(find(db, 'chats', ['rainy']), []);
    assertIntact(db);
    db.close();
  });

  test('the migration indexes rows written before it', () => {
    const migrations = loadMigrations();
    const db = openDatabase(':memory:', migrations.filter((migration) => migration.version < 4));
    seed(db);
    migrate(db, migrations);
    assert.deepEqual(find(db, 'messages', ['saturday']), ['m1']);
    assert.deepEqual(find(db, 'chats', ['club']), ['c1']);
    assert.deepEqual(find(db, 'users', ['bob']), ['u2']);
    assertIntact(db);
    db.close();
  });

  test('chat_stats counts each chat\'s messages through every kind of write, and was backfilled', () => {
    const migrations = loadMigrations();
    const db = openDatabase(':memory:', migrations.filter((migration) => migration.version < 5));
    seed(db);
    migrate(db, migrations);
    const count = (chatId: string) => db.prepare('SELECT message_count FROM chat_stats WHERE chat_id = ?').pluck().get(chatId);
    assert.equal(count('c1'), 2);
    db.exec("INSERT INTO chats (id, title, owner_id, created_at, updated_at) VALUES ('c2', 'other', 'u1', 6, 6)");
    assert.equal(count('c2'), 0);
    db.exec("INSERT INTO messages (id, chat_id, author_id, text, created_at, updated_at) VALUES ('m3', 'c2', 'u1', 'x', 7, 7)");
    db.exec("UPDATE messages SET chat_id = 'c2' WHERE id = 'm1'");
    assert.deepEqual([count('c1'), count('c2')], [1, 2]);
    db.exec("DELETE FROM messages WHERE id = 'm3'");
    assert.equal(count('c2'), 1);
    db.exec("DELETE FROM chats WHERE id = 'c2'");
    assert.equal(count('c2'), undefined);
    assert.equal(count('c1'), 1);
    db.close();
  });

  test('each message is indexed with its chat\'s token: a match asks for the words in the caller\'s chats, never for the token as a word', () => {
    const migrations = loadMigrations();
    const db = openDatabase(':memory:', migrations.filter((migration) => migration.version < 23));
    seed(db);
    // Ids a tokenizer would split alike ('x-y', 'x_y'), written after the rows before the migration.
    db.exec(`
      INSERT INTO chats (id, title, owner_id, created_at, updated_at) VALUES ('x-y', 'dash', 'u1', 6, 6), ('x_y', 'underscore', 'u2', 6, 6);
      INSERT INTO messages (id, chat_id, author_id, text, created_at, updated_at) VALUES ('m3', 'x-y', 'u1', 'picnic dash', 7, 7);
    `);
    migrate(db, migrations);
    db.exec("INSERT INTO messages (id, chat_id, author_id, text, created_at, updated_at) VALUES ('m4', 'x_y', 'u2', 'picnic underscore', 8, 8)");
    const tokenOf = (chatId: string): string => db.prepare("SELECT 'c' || hex(?)").pluck().get(chatId) as string;
    const found = (words: string[], chats: string[]): string[] => (db.prepare('SELECT t.id FROM messages_fts JOIN messages t ON t.seq = messages_fts.rowid WHERE messages_fts MATCH ? ORDER BY t.id')
      .pluck().all(messageMatch(words, chats.map(tokenOf))) as string[]);
    assert.deepEqual(found(['picnic'], ['c1']), ['m1'], 'written before the migration');
    assert.deepEqual(found(['picnic'], ['x-y']), ['m3']);
    assert.deepEqual(found(['picnic'], ['x_y']), ['m4']);
    assert.deepEqual(found(['picnic'], ['c1', 'x-y', 'x_y']), ['m1', 'm3', 'm4']);
    assert.deepEqual(found(['picnic'], []), [], 'in no chat, nothing');
    assert.deepEqual(found([tokenOf('c1')], ['c1']), [], 'the token is no word');
    assert.deepEqual(found([tokenOf('c1').slice(0, 3)], ['c1']), [], 'nor a prefix of one');
    // More chats than the index is asked for: the words alone (the SQL keeps to the caller's chats).
    assert.deepEqual(found(['picnic'], Array.from({ length: MAX_CHAT_TOKENS + 1 }, () => 'elsewhere')), ['m1', 'm3', 'm4']);
    db.exec("UPDATE messages SET chat_id = 'x_y' WHERE id = 'm3'");
    assert.deepEqual(found(['picnic'], ['x-y']), [], 'a message moved to another chat moves in the index');
    assert.deepEqual(found(['picnic'], ['x_y']), ['m3', 'm4']);
    db.exec("DELETE FROM messages WHERE id = 'm4'");
    assert.deepEqual(found(['picnic'], ['x_y']), ['m3']);
    assertIntact(db);
    db.close();
  });
});
