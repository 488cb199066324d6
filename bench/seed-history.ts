// Bench only: writes one chat with N messages straight into a new database file, in the schema the server uses.
import Database from 'better-sqlite3';
import { PasswordHasher } from '../src/resources/session/password-hasher.ts';
import { loadMigrations, migrate } from '../src/storage/sqlite/database.ts';
import { newId } from '../src/storage/ids.ts';

export interface SeededHistory {
  chatId: string;
  login: string;
  password: string;
  oldestId: string;
  newestId: string;
  /** The id of the message in the middle of the history, an anchor for keyset pages. */
  middleId: string;
  seedSeconds: number;
}

const WORDS = ['lunch', 'deploy', 'review', 'picnic', 'release', 'coffee', 'meeting', 'weekend'];
const START = Date.UTC(2026, 0, 1);

/**
 * One transaction, one prepared insert, ids from newId with increasing times (one second apart), so
 * the ids sort as the server's own would. The per-row triggers on messages (FTS5 index, chat_stats
 * count) are set aside during the load and their work is done once, in bulk, at the end ('rebuild'
 * and one count); then they are re-created from their own stored SQL, so the schema the server opens
 * is exactly the migrated one. Row by row they would triple the time (70 s for a million).
 */
/** A new database for a bulk load, migrated: no rollback journal, no fsync (nobody reads it yet; the server switches to WAL). */
export function openForBulkLoad(path: string): Database.Database {
  const db = new Database(path);
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -262144');
  db.pragma('foreign_keys = ON');
  migrate(db, loadMigrations());
  return db;
}

/**
 * Inside the load's transaction: drops the per-row insert triggers on messages and answers what re-creates
 * them from their own stored SQL, to be called once the load did their work in bulk.
 */
export function setAsideInsertTriggers(db: Database.Database): () => void {
  const triggers = db.prepare("SELECT name, sql FROM sqlite_schema WHERE type = 'trigger' AND tbl_name = 'messages' AND sql LIKE '%AFTER INSERT%'").all() as { name: string; sql: string }[];
  for (const { name } of triggers) db.exec(`DROP TRIGGER ${name}`);
  return () => {
    for (const { sql } of triggers) db.exec(sql);
  };
}

/** What the insert triggers of messages would have kept, done once: the FTS index, the per-chat counts, newest_so_far. */
export function rebuildMessageIndexes(db: Database.Database): void {
  db.exec("INSERT INTO messages_fts (messages_fts) VALUES ('rebuild')");
  db.exec('UPDATE messages SET newest_so_far = running.newest FROM (SELECT seq, max(created_at) OVER (ORDER BY seq) AS newest FROM messages) AS running WHERE running.seq = messages.seq');
  db.exec('UPDATE chat_stats SET message_count = (SELECT count(*) FROM messages m WHERE m.chat_id = chat_stats.chat_id)');
}

export async function seedHistory(path: string, count: number): Promise<SeededHistory> {
  const started = performance.now();
  const db = openForBulkLoad(path);
  const login = 'reader';
  const password = 'a long benchmark password';
  // A cheap scrypt cost: the hash carries its parameters, so the server verifies it as it is.
  const passwordHash = await new PasswordHasher({ n: 1024, concurrency: 1 }).hash(password);
  const userId = newId(START);
  const chatId = newId(START);
  const ids: string[] = [];
  db.transaction(() => {
    const restoreTriggers = setAsideInsertTriggers(db);
    db.prepare('INSERT INTO users (id, login, password_hash, avatar_id, created_at, updated_at) VALUES (?, ?, ?, NULL, ?, ?)').run(userId, login, passwordHash, START, START);
    db.prepare('INSERT INTO chats (id, title, owner_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?)').run(chatId, 'history', userId, START, START);
    db.prepare('INSERT INTO chat_members (chat_id, user_id, added_at) VALUES (?, ?, ?)').run(chatId, userId, START);
    const insertMessage = db.prepare('INSERT INTO messages (id, chat_id, author_id, text, reply_to, created_at, updated_at) VALUES (?, ?, ?, ?, NULL, ?, ?)');
    for (let i = 0; i < count; i += 1) {
      const time = START + 1000 + i * 1000;
      const id = newId(time);
      insertMessage.run(id, chatId, userId, `message ${i} about the ${WORDS[i % WORDS.length]}`, time, time);
      if (i === 0 || i === Math.floor(count / 2) || i === count - 1) ids.push(id);
    }
    rebuildMessageIndexes(db);
    // The read marker the insert trigger would have moved: the only member wrote every message, so nothing is unread.
    db.exec('UPDATE chat_members SET last_read_id = (SELECT max(m.id) FROM messages m WHERE m.chat_id = chat_members.chat_id), unread_count = 0');
    restoreTriggers();
  })();
  db.close();
  const [oldestId = '', middleId = '', newestId = ''] = ids;
  return { chatId, login, password, oldestId, middleId, newestId, seedSeconds: (performance.now() - started) / 1000 };
}
