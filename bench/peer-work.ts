// The work of the peers (bench/messages-baseline.ts on bare node:http, bench/fastify-peer.ts on fastify):
// the same statements our server runs for a page, a chat, a posted message and a search, prepared once,
// and row -> public fields written as a plain implementation would (new Date(ms).toISOString() per time),
// so a lever of ours (src/representations/public-fields.ts) does not speed the peers up too. Only the HTTP
// layer and the serializer differ between the two peers.
import { parseQuery } from '../src/parsers/query.ts';
import { SEARCH_FIELDS } from '../src/resources/search/handlers.ts';
import { hashToken } from '../src/resources/session/tokens.ts';
import { CHAT_FOR_CALLER_SELECT, CHAT_SELECT, type ChatForCallerRecord, type ChatRecord } from '../src/storage/sqlite/chat-store.ts';
import { openDatabase } from '../src/storage/sqlite/database.ts';
import { newId } from '../src/storage/ids.ts';
import { buildPageSql } from '../src/storage/sqlite/list-page.ts';
import { CHAT_MESSAGE_COUNT_SQL, MESSAGE_SELECT } from '../src/storage/sqlite/message-store.ts';
import type { MessageRow, SearchHit, UserRow } from '../src/storage/store.ts';
import { CALLER_CHAT_TOKENS, messageMatch, searchSource } from '../src/storage/sqlite/search-store.ts';
import { searchCountLimit } from '../src/storage/search-count.ts';

export interface PeerWork {
  /** The caller's user id for an Authorization header, or undefined (401). */
  caller(authorization: string | undefined): string | undefined;
  /** {data, meta} of the first page of `limit`, or undefined when the caller is not a member (404). */
  page(userId: string, chatId: string, limit: number): { data: unknown[]; meta: { total: number; limit: number; offset: number } } | undefined;
  chat(userId: string, chatId: string): { data: Record<string, unknown> } | undefined;
  post(userId: string, chatId: string, text: string): { data: Record<string, unknown> } | undefined;
  /** The first page (of `limit`, else the default) of a search for one word, newest first. */
  search(userId: string, word: string, limit?: number): { data: Record<string, unknown>[]; meta: { total: number; limit: number; offset: number } };
  close(): void;
}

const BEARER = /^Bearer (.+)$/i;

const iso = (ms: number): string => new Date(ms).toISOString();

function publicMessage(row: MessageRow): Record<string, unknown> {
  return {
    id: row.id, chatId: row.chatId, authorId: row.authorId, text: row.text, replyTo: row.replyTo, createdAt: iso(row.createdAt), updatedAt: iso(row.updatedAt),
    editedAt: row.editedAt === null ? null : iso(row.editedAt), reactions: JSON.parse(row.reactions) as unknown,
    // The bench's messages carry no attachments: their summaries would be made public as src/representations does.
    mentions: JSON.parse(row.mentions) as unknown, attachments: JSON.parse(row.attachments) as unknown,
  };
}

function publicChatForCaller(row: ChatRecord, marker: { lastReadId: string | null; unreadCount: number }): Record<string, unknown> {
  return {
    id: row.id, title: row.title, ownerId: row.ownerId, members: JSON.parse(row.members) as unknown, createdAt: iso(row.createdAt), updatedAt: iso(row.updatedAt),
    lastReadId: marker.lastReadId, unreadCount: marker.unreadCount,
  };
}

function publicUser(row: UserRow): Record<string, unknown> {
  return { id: row.id, login: row.login, avatar: row.avatarId, createdAt: iso(row.createdAt), updatedAt: iso(row.updatedAt) };
}

export function openPeerWork(path: string): PeerWork {
  const db = openDatabase(path);
  const session = db.prepare('SELECT user_id AS userId, expires_at AS expiresAt, max_expires_at AS maxExpiresAt FROM sessions WHERE token_hash = ?');
  const member = db.prepare('SELECT 1 FROM chat_members WHERE user_id = ? AND chat_id = ?').pluck();
  const count = db.prepare(CHAT_MESSAGE_COUNT_SQL).pluck();
  const page = db.prepare(`${MESSAGE_SELECT} WHERE (m.chat_id = ?) AND (1) ORDER BY m.id ASC LIMIT ? OFFSET ?`);
  const chatForCaller = db.prepare(`${CHAT_FOR_CALLER_SELECT} WHERE me.user_id = ? AND c.id = ?`);
  const insert = db.prepare('INSERT INTO messages (id, chat_id, author_id, text, reply_to, created_at, updated_at) VALUES (@id, @chatId, @authorId, @text, @replyTo, @createdAt, @updatedAt)');
  // The naive search for `?q=<word>` (newest first, default limit): every match sorted to take the page (the SQL our
  // server runs for any other order), and the total counted to the same bound as ours (docs/protocol.md §5).
  const query = parseQuery('q=x', SEARCH_FIELDS, { reserved: ['q'] });
  query.sort.push({ field: SEARCH_FIELDS.fields.find((field) => field.name === 'createdAt')!, direction: 'DESC' });
  const searchSql = buildPageSql(searchSource('u', ['x'], query, []), query);
  const chatTokensOf = db.prepare(CALLER_CHAT_TOKENS).pluck();
  const searchPage = db.prepare(searchSql.page.sql);
  const searchTotal = db.prepare(searchSql.total.sql).pluck();
  const messageById = db.prepare(`${MESSAGE_SELECT} WHERE m.id = ?`);
  const chatById = db.prepare(`${CHAT_SELECT} WHERE c.id = ?`);
  const markerOf = db.prepare('SELECT last_read_id AS lastReadId, unread_count AS unreadCount FROM chat_members WHERE chat_id = ? AND user_id = ?');
  const userById = db.prepare('SELECT id, login, password_hash AS passwordHash, avatar_id AS avatarId, created_at AS createdAt, updated_at AS updatedAt FROM users WHERE id = ?');

  const isMember = (userId: string, chatId: string): boolean => member.get(userId, chatId) !== undefined;
  return {
    caller(authorization) {
      const token = BEARER.exec(authorization ?? '')?.[1];
      if (!token) return undefined;
      const found = session.get(hashToken(token)) as { userId: string; expiresAt: number; maxExpiresAt: number } | undefined;
      const now = Date.now();
      return found && found.expiresAt > now && found.maxExpiresAt > now ? found.userId : undefined;
    },
    page(userId, chatId, limit) {
      if (!isMember(userId, chatId)) return undefined;
      const total = count.get(chatId) as number;
      const rows = page.all(chatId, limit, 0) as MessageRow[];
      return { data: rows.map(publicMessage), meta: { total, limit, offset: 0 } };
    },
    chat(userId, chatId) {
      const record = chatForCaller.get(userId, chatId) as ChatForCallerRecord | undefined;
      return record ? { data: publicChatForCaller(record, record) } : undefined;
    },
    post(userId, chatId, text) {
      if (!isMember(userId, chatId)) return undefined;
      const now = Date.now();
      const row: MessageRow = { id: newId(now), chatId, authorId: userId, text, replyTo: null, createdAt: now, updatedAt: now, editedAt: null, reactions: '[]', mentions: '[]', attachments: '[]' };
      insert.run(row);
      return { data: publicMessage(row) };
    },
    search(userId, word, limit = query.limit) {
      const params = [{ match: `"${word.replaceAll('"', '""')}"*`, messageMatch: messageMatch([word], chatTokensOf.all(userId) as string[]), userId }];
      const total = searchTotal.get(...params, searchCountLimit({ offset: 0, limit })) as number;
      const hits = searchPage.all(...params, limit, 0) as SearchHit[];
      const data = hits.map((hit): Record<string, unknown> => {
        if (hit.type === 'message') return { type: hit.type, ...publicMessage(messageById.get(hit.id) as MessageRow) };
        if (hit.type === 'chat') {
          const chat = chatById.get(hit.id) as ChatRecord;
          return { type: hit.type, ...publicChatForCaller(chat, markerOf.get(chat.id, userId) as { lastReadId: string | null; unreadCount: number }) };
        }
        return { type: hit.type, ...publicUser(userById.get(hit.id) as UserRow) };
      });
      return { data, meta: { total, limit, offset: 0 } };
    },
    close: () => db.close(),
  };
}
