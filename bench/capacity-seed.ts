// Bench only: the people of the capacity bench (bench/capacity.md) written straight into a new SQLite file: users
// in teams of 50, each team with its group chats and a history in each, every user with a session whose token
// the roster keeps. The roster is all the load generator needs; it could as well come from the API.
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { hashToken } from '../src/resources/session/tokens.ts';
import { newId } from '../src/storage/ids.ts';
import { openForBulkLoad, rebuildMessageIndexes, setAsideInsertTriggers } from './seed-history.ts';

export interface RosterUser { id: string; login: string; token: string; chatIds: string[] }
export interface Roster {
  users: RosterUser[];
  /** Each chat's members (user ids), so a generator knows whom a post must reach. */
  chats: Record<string, string[]>;
}

export interface CapacityShape {
  users: number;
  teamSize: number;
  chatsPerTeam: number;
  historyPerChat: number;
}

export const DEFAULT_SHAPE: Omit<CapacityShape, 'users'> = { teamSize: 50, chatsPerTeam: 3, historyPerChat: 200 };

const START = Date.UTC(2026, 0, 1);
const WORDS = ['lunch', 'deploy', 'review', 'picnic', 'release', 'coffee', 'meeting', 'weekend'];
/** Not a login: nobody signs in during the bench (the sessions are written here), so the hash is never checked. */
const NO_PASSWORD = 'scrypt$bench-seed$never-checked';

/** Writes the shape into a new database file and answers its roster; `rosterPath` keeps it as JSON too. */
export function seedCapacity(path: string, shape: CapacityShape, rosterPath?: string): Roster {
  const db = openForBulkLoad(path);
  const roster: Roster = { users: [], chats: {} };
  let time = START;
  const tick = (): number => (time += 10);
  db.transaction(() => {
    const restoreTriggers = setAsideInsertTriggers(db);
    const insertUser = db.prepare('INSERT INTO users (id, login, password_hash, avatar_id, created_at, updated_at) VALUES (?, ?, ?, NULL, ?, ?)');
    const insertSession = db.prepare('INSERT INTO sessions (id, token_hash, user_id, created_at, expires_at, max_expires_at, last_used_at) VALUES (?, ?, ?, ?, ?, ?, ?)');
    const insertChat = db.prepare('INSERT INTO chats (id, title, owner_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?)');
    const insertMember = db.prepare('INSERT INTO chat_members (chat_id, user_id, added_at) VALUES (?, ?, ?)');
    const insertMessage = db.prepare('INSERT INTO messages (id, chat_id, author_id, text, reply_to, created_at, updated_at) VALUES (?, ?, ?, ?, NULL, ?, ?)');
    const far = Date.now() + 365 * 86_400_000;
    for (let first = 0; first < shape.users; first += shape.teamSize) {
      const team: RosterUser[] = [];
      for (let i = first; i < Math.min(shape.users, first + shape.teamSize); i++) {
        const user: RosterUser = { id: newId(tick()), login: `cap${i}`, token: `bench-capacity-token-${i}-${Math.random().toString(36).slice(2)}`, chatIds: [] };
        insertUser.run(user.id, user.login, NO_PASSWORD, time, time);
        insertSession.run(newId(time), hashToken(user.token), user.id, time, far, far, time);
        team.push(user);
      }
      for (let c = 0; c < shape.chatsPerTeam; c++) {
        const chatId = newId(tick());
        insertChat.run(chatId, `team ${first / shape.teamSize} chat ${c}`, team[0]!.id, time, time);
        for (const user of team) {
          insertMember.run(chatId, user.id, time);
          user.chatIds.push(chatId);
        }
        roster.chats[chatId] = team.map((user) => user.id);
        for (let m = 0; m < shape.historyPerChat; m++) {
          const author = team[m % team.length]!;
          insertMessage.run(newId(tick()), chatId, author.id, `message ${m} about the ${WORDS[m % WORDS.length]}`, time, time);
        }
      }
      roster.users.push(...team);
    }
    rebuildMessageIndexes(db);
    // Everyone has read everything: unread counts start at zero and grow with the bench's posts.
    db.exec(`UPDATE chat_members SET unread_count = 0,
      last_read_id = (SELECT max(m.id) FROM messages m WHERE m.chat_id = chat_members.chat_id)`);
    restoreTriggers();
  })();
  db.close();
  if (rosterPath) writeFileSync(rosterPath, JSON.stringify(roster));
  return roster;
}

// `node --import tsx bench/capacity-seed.ts --users N --db chat.db --roster roster.json`: a database and its roster,
// for running the capacity bench against a server started by hand (bench/capacity.md, Against another server).
const script = process.argv[1];
if (script !== undefined && import.meta.url === pathToFileURL(script).href) {
  const { values } = parseArgs({ options: { users: { type: 'string', default: '15000' }, db: { type: 'string' }, roster: { type: 'string' } } });
  if (values.db === undefined || values.roster === undefined) throw new Error('usage: capacity-seed.ts --users N --db chat.db --roster roster.json');
  seedCapacity(values.db, { users: Number(values.users), ...DEFAULT_SHAPE }, values.roster);
}
