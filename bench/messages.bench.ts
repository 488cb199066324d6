// GET /chats/{id}/messages?limit=50 and POST of a message under load, each as a ratio to a bare node:http
// server (bench/messages-baseline.ts) doing the same lookup, query and serialization on an identical database.
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PasswordHasher } from '../src/resources/session/password-hasher.ts';
import { hashToken, newToken } from '../src/resources/session/tokens.ts';
import { openDatabase } from '../src/storage/sqlite/database.ts';
import { newId } from '../src/storage/ids.ts';
import { runLoad, type LoadResult } from './load.ts';
import { startChild, type ServerChild } from './server-process.ts';

export interface MessagesBenchRow {
  scenario: string;
  /** Means over this scenario's turns (see compare). */
  ours: LoadResult;
  baseline: LoadResult;
  /** ours req/s / baseline req/s: 1 means no cost over the bare server. */
  ratio: number;
}

export interface MessagesBenchResult {
  rows: MessagesBenchRow[];
  messagesInChat: number;
}

const MESSAGES_IN_CHAT = 1000;
const CONNECTIONS = 10;
const DAY_MS = 86_400_000;

interface Seeded {
  chatId: string;
  token: string;
}

/** One user with a session, one chat, MESSAGES_IN_CHAT messages: through the real schema, in one transaction. */
export async function seed(path: string): Promise<Seeded> {
  const db = openDatabase(path);
  const now = Date.now();
  const userId = newId(now - DAY_MS);
  const chatId = newId(now - DAY_MS);
  const token = newToken();
  const passwordHash = await new PasswordHasher({ n: 1024, concurrency: 1 }).hash('a long benchmark password');
  const insertMessage = db.prepare('INSERT INTO messages (id, chat_id, author_id, text, reply_to, created_at, updated_at) VALUES (?, ?, ?, ?, NULL, ?, ?)');
  db.transaction(() => {
    db.prepare('INSERT INTO users (id, login, password_hash, avatar_id, created_at, updated_at) VALUES (?, ?, ?, NULL, ?, ?)').run(userId, 'bencher', passwordHash, now, now);
    db.prepare('INSERT INTO sessions (id, token_hash, user_id, created_at, expires_at, max_expires_at) VALUES (?, ?, ?, ?, ?, ?)')
      .run(newId(now), hashToken(token), userId, now, now + DAY_MS, now + 30 * DAY_MS);
    db.prepare('INSERT INTO chats (id, title, owner_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?)').run(chatId, 'bench', userId, now, now);
    db.prepare('INSERT INTO chat_members (chat_id, user_id, added_at) VALUES (?, ?, ?)').run(chatId, userId, now);
    for (let i = 0; i < MESSAGES_IN_CHAT; i++) {
      const at = now - DAY_MS + i * 1000;
      insertMessage.run(newId(at), chatId, userId, `message ${i}: the quick brown fox jumps over the lazy dog`, at, at);
    }
  })();
  // Closing checkpoints the WAL into the file, so a copy of the file is the whole database.
  db.close();
  return { chatId, token };
}

type LoadOptions = Omit<Parameters<typeof runLoad>[0], 'url'>;

function averageOf(results: LoadResult[]): LoadResult {
  const mean = (pick: (result: LoadResult) => number) => results.reduce((sum, result) => sum + pick(result), 0) / results.length;
  const sum = (pick: (result: LoadResult) => number) => results.reduce((total, result) => total + pick(result), 0);
  return {
    requestsPerSecond: mean((result) => result.requestsPerSecond),
    p50Ms: mean((result) => result.p50Ms),
    p99Ms: mean((result) => result.p99Ms),
    exactP50Ms: mean((result) => result.exactP50Ms),
    exactP99Ms: mean((result) => result.exactP99Ms),
    errors: sum((result) => result.errors),
    non2xx: sum((result) => result.non2xx),
    total: sum((result) => result.total),
  };
}

/**
 * Ours and the baseline in turns, A B B A, each turn half the duration, after a warm-up of each: other
 * load on the machine then weighs on both alike. req/s is the mean of the turns; p50 and p99 too.
 */
export async function compare(scenario: string, oursUrl: string, baselineUrl: string, options: LoadOptions, durationSeconds: number): Promise<MessagesBenchRow> {
  for (const url of [oursUrl, baselineUrl]) await runLoad({ ...options, url, durationSeconds: 1 });
  const turns: { ours: LoadResult[]; baseline: LoadResult[] } = { ours: [], baseline: [] };
  for (const side of ['ours', 'baseline', 'baseline', 'ours'] as const) {
    const url = side === 'ours' ? oursUrl : baselineUrl;
    const result = await runLoad({ ...options, url, durationSeconds: durationSeconds / 2 });
    assert.equal(result.errors + result.non2xx, 0, `${scenario}, ${side}: ${result.errors} errors, ${result.non2xx} non-2xx`);
    turns[side].push(result);
  }
  const ours = averageOf(turns.ours);
  const baseline = averageOf(turns.baseline);
  return { scenario, ours, baseline, ratio: ours.requestsPerSecond / baseline.requestsPerSecond };
}

/**
 * Both servers run in child processes (autocannon keeps this one busy) on copies of one seeded file, with
 * synchronous=FULL and scrypt N=1024, and take turns under load (compare). The app's POST shares commits between concurrent writes (group commit);
 * the bare server commits each insert alone, so the POST is measured twice: as the app runs, and with group
 * commit switched off, which compares the two servers write for write.
 */
export async function runMessagesBench(options: { durationSeconds?: number } = {}): Promise<MessagesBenchResult> {
  const duration = options.durationSeconds ?? 5;
  const dir = mkdtempSync(join(tmpdir(), 'bench-messages-'));
  const children: ServerChild[] = [];
  const startIn = async (module: string, file: string, extra: Record<string, unknown> = {}): Promise<ServerChild> => {
    const child = await startChild(new URL(module, import.meta.url).pathname, { db: join(dir, file), scryptN: 1024, ...extra });
    children.push(child);
    return child;
  };
  try {
    const seeded = await seed(join(dir, 'seed.db'));
    for (const copy of ['ours.db', 'baseline.db', 'ours-ungrouped.db']) copyFileSync(join(dir, 'seed.db'), join(dir, copy));
    const headers = { authorization: `Bearer ${seeded.token}` };
    const ours = await startIn('./chat-server.ts', 'ours.db');
    const baseline = await startIn('./messages-baseline.ts', 'baseline.db');
    const ungrouped = await startIn('./chat-server.ts', 'ours-ungrouped.db', { groupCommit: false });
    const pagePath = `/chats/${seeded.chatId}/messages?limit=50`;

    // Same database, same answer: the two servers do the same work.
    const [ourPage, basePage] = await Promise.all([ours, baseline].map(async (server) => (await fetch(`${server.url}${pagePath}`, { headers })).json()));
    assert.deepEqual(ourPage, basePage);

    const get = { headers, connections: CONNECTIONS };
    const rows = [await compare('GET /chats/{id}/messages?limit=50', `${ours.url}${pagePath}`, `${baseline.url}${pagePath}`, get, duration)];

    const messagesPath = `/chats/${seeded.chatId}/messages`;
    const post = { method: 'POST' as const, headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ data: { text: 'a message posted under load' } }), connections: CONNECTIONS };
    rows.push(await compare('POST /chats/{id}/messages (group commit, as shipped)', `${ours.url}${messagesPath}`, `${baseline.url}${messagesPath}`, post, duration));
    rows.push(await compare('POST /chats/{id}/messages (group commit off: commit for commit)', `${ungrouped.url}${messagesPath}`, `${baseline.url}${messagesPath}`, post, duration));
    return { rows, messagesInChat: MESSAGES_IN_CHAT };
  } finally {
    await Promise.all(children.filter((child) => child.child.exitCode === null).map((child) => child.stop()));
    rmSync(dir, { recursive: true, force: true });
  }
}

export function formatMessagesBench(result: MessagesBenchResult): string {
  const latency = (load: LoadResult) => `${load.p50Ms} / ${load.p99Ms}`;
  return [
    `${CONNECTIONS} connections, loopback, a chat of ${result.messagesInChat} messages, synchronous=FULL.`,
    '',
    '| scenario | ours req/s | baseline req/s | ratio | ours p50 / p99 ms | baseline p50 / p99 ms |',
    '|---|---:|---:|---:|---:|---:|',
    ...result.rows.map(({ scenario, ours, baseline, ratio }) =>
      `| ${scenario} | ${ours.requestsPerSecond.toFixed(0)} | ${baseline.requestsPerSecond.toFixed(0)} | ${ratio.toFixed(2)} | ${latency(ours)} | ${latency(baseline)} |`),
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) {
  console.log(formatMessagesBench(await runMessagesBench()));
}
