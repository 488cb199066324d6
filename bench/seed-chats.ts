// Bench only: a reader in many chats with long histories, each with its read marker somewhere, and two chats whose
// pages differ only in reactions; written straight into a new database file, in the schema the server uses.
import { PasswordHasher } from '../src/resources/session/password-hasher.ts';
import { newId } from '../src/storage/ids.ts';
import { openForBulkLoad, rebuildMessageIndexes, setAsideInsertTriggers } from './seed-history.ts';

export interface SeededChats {
  reader: { login: string; password: string };
  writer: { login: string; password: string };
  /** Chats of `pageSize` messages by the writer: identical but for the reactions of the second. */
  plainChatId: string;
  reactedChatId: string;
  /** Like plainChatId, with each text longer by its twin's reactions (as text): the same bytes, no reactions. */
  paddedChatId: string;
  reactionsPerMessage: number;
  totalMessages: number;
  seedSeconds: number;
}

const START = Date.UTC(2026, 0, 1);
const PASSWORD = 'a long benchmark password';
const EMOJIS = ['👍', '❤️', '🎉'];

/**
 * `chats` chats of `messagesPerChat` messages by the writer, the reader a member of each. The reader's marker
 * is nowhere (null, everything unread) in every fifth chat and part-way through the others. As in
 * seed-history.ts the per-row triggers on messages are set aside during the load and their work done once at
 * the end (FTS rebuild, chat_stats count, and here the read markers' unread counts), then re-created.
 */
export async function seedChats(path: string, options: { chats: number; messagesPerChat: number; pageSize: number }): Promise<SeededChats> {
  const started = performance.now();
  const db = openForBulkLoad(path);
  const passwordHash = await new PasswordHasher({ n: 1024, concurrency: 1 }).hash(PASSWORD);
  const users = ['reader', 'writer', 'fan1', 'fan2', 'fan3'].map((login) => ({ login, id: newId(START) }));
  const [reader, writer, ...fans] = users as [typeof users[0], typeof users[0], ...typeof users];
  let pages: string[] = [];
  let totalMessages = 0;
  let time = START;
  db.transaction(() => {
    const restoreTriggers = setAsideInsertTriggers(db);
    const insertUser = db.prepare('INSERT INTO users (id, login, password_hash, avatar_id, created_at, updated_at) VALUES (?, ?, ?, NULL, ?, ?)');
    for (const user of users) insertUser.run(user.id, user.login, passwordHash, START, START);
    const insertChat = db.prepare('INSERT INTO chats (id, title, owner_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?)');
    const insertMember = db.prepare('INSERT INTO chat_members (chat_id, user_id, added_at) VALUES (?, ?, ?)');
    const insertMessage = db.prepare('INSERT INTO messages (id, chat_id, author_id, text, reply_to, created_at, updated_at) VALUES (?, ?, ?, ?, NULL, ?, ?)');
    const setMarker = db.prepare('UPDATE chat_members SET last_read_id = ? WHERE chat_id = ? AND user_id = ?');
    const chat = (title: string, members: string[]): string => {
      const id = newId(START);
      insertChat.run(id, title, writer.id, START, START);
      for (const member of members) insertMember.run(id, member, START);
      return id;
    };
    const post = (chatId: string, i: number, padding = ''): string => {
      time += 1000;
      const id = newId(time);
      insertMessage.run(id, chatId, writer.id, `message ${i} of a long history, about the weekend picnic${padding}`, time, time);
      totalMessages += 1;
      return id;
    };
    for (let c = 0; c < options.chats; c += 1) {
      const chatId = chat(`history ${c}`, [writer.id, reader.id]);
      // The writer's marker on their newest message, as posting leaves it; the reader's part-way, or nowhere.
      const readUpTo = c % 5 === 0 ? -1 : Math.floor((options.messagesPerChat * c) / options.chats);
      let newest = '';
      for (let i = 0; i < options.messagesPerChat; i += 1) {
        newest = post(chatId, i);
        if (i === readUpTo) setMarker.run(newest, chatId, reader.id);
      }
      setMarker.run(newest, chatId, writer.id);
    }
    pages = ['plain page', 'reacted page', 'padded page'].map((title) => chat(title, users.map((user) => user.id)));
    const insertReaction = db.prepare('INSERT INTO reactions (message_id, emoji, user_id, created_at) VALUES (?, ?, ?, ?)');
    const summary = db.prepare('SELECT reactions FROM messages WHERE id = ?').pluck();
    for (let i = 0; i < options.pageSize; i += 1) {
      post(pages[0]!, i);
      const id = post(pages[1]!, i);
      // Three emojis, three users each: nine reactions on every message of the page.
      for (const emoji of EMOJIS) for (const fan of fans) insertReaction.run(id, emoji, fan.id, time);
      // The twin's reactions as text (quotes swapped, so JSON escapes nothing more): as many bytes, emoji included.
      post(pages[2]!, i, ` ${(summary.get(id) as string).replaceAll('"', "'")}`);
    }
    rebuildMessageIndexes(db);
    // What the insert trigger would have kept, counted once: the messages of others after each marker.
    db.exec(`UPDATE chat_members SET unread_count = (SELECT count(*) FROM messages m WHERE m.chat_id = chat_members.chat_id
      AND m.id > coalesce(chat_members.last_read_id, '') AND m.author_id <> chat_members.user_id)`);
    restoreTriggers();
  })();
  db.close();
  return {
    reader: { login: reader.login, password: PASSWORD },
    writer: { login: writer.login, password: PASSWORD },
    plainChatId: pages[0]!,
    reactedChatId: pages[1]!,
    paddedChatId: pages[2]!,
    reactionsPerMessage: EMOJIS.length * fans.length,
    totalMessages,
    seedSeconds: (performance.now() - started) / 1000,
  };
}
