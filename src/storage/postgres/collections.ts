// Every collection as PostgreSQL reads it: its SELECT, the caller's scope and its API fields' columns; one page runner.
import type { ParsedQuery } from '../../parsers/query.ts';
import type {
  ActionItem, AuditRow, AvatarRow, ChatActivityRow, ChatForCallerRow, CollectionRepository, MemberRow, MessageBounds, MessageRow, Page, ReactionRow,
  RevisionRow, SearchHit, UserRow,
} from '../store.ts';
import type { Sql } from './connection.ts';
import { CHAT_FOR_CALLER_SELECT, MEMBER_SELECT, MESSAGE_SELECT, REACTION_SELECT, REVISION_SELECT } from './conversations.ts';
import { AVATAR_COLUMNS } from './people.ts';
import type { SqlColumns } from '../query-sql.ts';
import { buildPageSql, type PageSource } from '../page-sql.ts';
import { historySource, mentionsSource } from '../history-source.ts';
import { auditFromRecord, type AuditRecord } from '../audit-record.ts';
import { buildPgQuerySql } from './query-sql.ts';
import { searchCountLimit } from '../search-count.ts';

const CASELESS_LOGIN: ReadonlySet<string> = new Set(['login']);

const USER_SELECT = 'SELECT u.id, u.login, u.password_hash AS "passwordHash", u.avatar_id AS "avatarId", u.role, u.deactivated_at AS "deactivatedAt", '
  + 'u.last_seen_at AS "lastSeenAt", u.created_at AS "createdAt", u.updated_at AS "updatedAt", u.kind, u.owner_id AS "ownerId" FROM users u';
const USER_COLUMNS: SqlColumns = {
  idField: 'id',
  columns: { id: 'u.id', login: 'u.login', avatar: 'u.avatar_id', role: 'u.role', kind: 'u.kind', createdAt: 'u.created_at', updatedAt: 'u.updated_at', lastSeenAt: 'u.last_seen_at' },
  caseless: CASELESS_LOGIN,
};

const AUDIT_SELECT = 'SELECT a.id, a.at, a.actor_id AS "actorId", a.action, a.target_type AS "targetType", a.target_id AS "targetId", a.detail FROM audit_log a';
const AUDIT_COLUMNS: SqlColumns = {
  idField: 'id',
  columns: { id: 'a.id', at: 'a.at', actorId: 'a.actor_id', action: 'a.action', targetType: 'a.target_type', targetId: 'a.target_id' },
};

/** The sidebar's chats (docs/html.md): the newest message's time is one index lookup per chat (messages_by_chat_time). */
const CHATS_BY_ACTIVITY = 'SELECT f.*, coalesce((SELECT max(m.created_at) FROM messages m WHERE m.chat_id = f.id), f."createdAt") AS "lastActivityAt"'
  + ` FROM (${CHAT_FOR_CALLER_SELECT} WHERE me.user_id = ?) f ORDER BY "lastActivityAt" DESC, f.id DESC LIMIT ?`;

const CHAT_COLUMNS: SqlColumns = {
  idField: 'id',
  columns: {
    id: 'c.id', kind: 'c.kind', title: "nullif(c.title, '')", ownerId: 'c.owner_id', createdAt: 'c.created_at', updatedAt: 'c.updated_at',
    lastReadId: 'me.last_read_id', unreadCount: 'me.unread_count', mentionCount: 'me.mention_count',
  },
  contains: { members: 'EXISTS (SELECT 1 FROM chat_members f WHERE f.chat_id = c.id AND f.user_id = ?)' },
};

const MEMBER_COLUMNS: SqlColumns = {
  idField: 'userId',
  columns: { id: 'cm.user_id', userId: 'cm.user_id', login: 'u.login', addedAt: 'cm.added_at' },
  caseless: CASELESS_LOGIN,
};

const AVATAR_LIST_COLUMNS: SqlColumns = {
  idField: 'id',
  columns: {
    id: 'a.id', userId: 'a.user_id', contentType: 'a.content_type', imageWidth: 'a.image_width', imageHeight: 'a.image_height',
    x: 'a.x', y: 'a.y', width: 'a.width', height: 'a.height', createdAt: 'a.created_at',
    current: '(CASE WHEN u.avatar_id = a.id THEN 1 ELSE 0 END)',
  },
};

const REACTION_COLUMNS: SqlColumns = { idField: 'seq', columns: { emoji: 'r.emoji', userId: 'r.user_id', createdAt: 'r.created_at', seq: 'r.seq' } };
const REVISION_COLUMNS: SqlColumns = { idField: 'id', columns: { id: 'v.id', text: 'v.text', createdAt: 'v."createdAt"' } };

// The query is made once (a one-row CTE) and the caller's chats once; each branch matches through its GIN index.
const SEARCH_SELECT = `WITH q AS (SELECT chat_search_query(?::text[]) AS query), mine AS (SELECT cm.chat_id FROM chat_members cm WHERE cm.user_id = ?)
SELECT s.type, s.id, s.chat_id AS "chatId", s.created_at AS "createdAt", s.updated_at AS "updatedAt" FROM (
  SELECT 'message'::text COLLATE "C" AS type, m.id, m.chat_id, m.created_at, m.updated_at FROM messages m
    WHERE m.search @@ (SELECT query FROM q) AND m.chat_id IN (SELECT chat_id FROM mine)
  UNION ALL SELECT 'chat', c.id, NULL, c.created_at, c.updated_at FROM chats c
    WHERE c.search @@ (SELECT query FROM q) AND c.id IN (SELECT chat_id FROM mine)
  UNION ALL SELECT 'user', u.id, NULL, u.created_at, u.updated_at FROM users u
    WHERE u.search @@ (SELECT query FROM q) AND u.erased_at IS NULL
) s`;
const SEARCH_COLUMNS: SqlColumns = {
  idField: 'id',
  columns: { type: 's.type', id: 's.id', chatId: 's.chat_id', createdAt: 's.created_at', updatedAt: 's.updated_at' },
};

const ACTION_SELECT = 'SELECT a.id, a.method, a.href FROM (SELECT x.id COLLATE "C" AS id, x.method COLLATE "C" AS method, x.href COLLATE "C" AS href'
  + ' FROM jsonb_to_recordset(?::jsonb) AS x(id text, method text, href text)) a';
const ACTION_COLUMNS: SqlColumns = { idField: 'id', columns: { id: 'a.id', method: 'a.method', href: 'a.href' } };

/** The page and meta.total of one collection, in one statement: one round trip. */
export async function listPage<T>(sql: Sql, source: PageSource, query: ParsedQuery): Promise<Page<T>> {
  const { page, total, limit } = buildPageSql(source, query, buildPgQuerySql);
  if (limit === 0) return { rows: [], total: (await sql.one<{ n: number }>(total.sql, total.params))?.n ?? 0 };
  // The total and the page as a JSON array (json_agg keeps the order of its sorted subquery; every value the
  // rows hold is text, a number below 2^53, null or an array of text).
  const row = await sql.one<{ n: number | null; page: string }>(
    `SELECT (${total.sql}) AS n, (SELECT coalesce(json_agg(p), '[]')::text FROM (${page.sql}) p) AS page`,
    [...total.params, ...page.params],
  );
  return { rows: JSON.parse(row!.page) as T[], total: row!.n ?? 0 };
}

export class PgCollections implements CollectionRepository {
  private readonly sql: Sql;

  constructor(sql: Sql) {
    this.sql = sql;
  }

  listUsers(query: ParsedQuery): Promise<Page<UserRow>> {
    return listPage(this.sql, { select: USER_SELECT, scope: 'u.erased_at IS NULL', columns: USER_COLUMNS }, query);
  }

  async listAudit(query: ParsedQuery): Promise<Page<AuditRow>> {
    const page = await listPage<AuditRecord>(this.sql, { select: AUDIT_SELECT, columns: AUDIT_COLUMNS }, query);
    return { rows: page.rows.map(auditFromRecord), total: page.total };
  }

  listChatsOfMember(userId: string, query: ParsedQuery): Promise<Page<ChatForCallerRow>> {
    return listPage(this.sql, { select: CHAT_FOR_CALLER_SELECT, scope: 'me.user_id = ?', scopeParams: [userId], columns: CHAT_COLUMNS }, query);
  }

  listChatsByActivity(userId: string, limit: number): Promise<ChatActivityRow[]> {
    return this.sql.rows<ChatActivityRow>(CHATS_BY_ACTIVITY, [userId, limit]);
  }

  listMembers(chatId: string, query: ParsedQuery): Promise<Page<MemberRow>> {
    return listPage(this.sql, { select: MEMBER_SELECT, scope: 'cm.chat_id = ?', scopeParams: [chatId], columns: MEMBER_COLUMNS }, query);
  }

  listMessages(chatId: string, query: ParsedQuery, bounds?: MessageBounds): Promise<Page<MessageRow>> {
    return listPage(this.sql, historySource(MESSAGE_SELECT, chatId, bounds), query);
  }

  listMentions(userId: string, query: ParsedQuery): Promise<Page<MessageRow>> {
    return listPage(this.sql, mentionsSource(MESSAGE_SELECT, userId), query);
  }

  listAvatars(userId: string, query: ParsedQuery): Promise<Page<AvatarRow>> {
    const select = `SELECT ${AVATAR_COLUMNS} FROM avatars a JOIN users u ON u.id = a.user_id`;
    return listPage(this.sql, { select, scope: 'a.user_id = ?', scopeParams: [userId], columns: AVATAR_LIST_COLUMNS }, query);
  }

  listReactions(messageId: string, query: ParsedQuery): Promise<Page<ReactionRow>> {
    return listPage(this.sql, { select: REACTION_SELECT, scope: 'r.message_id = ?', scopeParams: [messageId], columns: REACTION_COLUMNS }, query);
  }

  listRevisions(messageId: string, query: ParsedQuery): Promise<Page<RevisionRow>> {
    return listPage(this.sql, { select: REVISION_SELECT, selectParams: [messageId, messageId], columns: REVISION_COLUMNS }, query);
  }

  search(userId: string, terms: readonly string[], query: ParsedQuery): Promise<Page<SearchHit>> {
    return listPage(this.sql, { select: SEARCH_SELECT, selectParams: [terms, userId], columns: SEARCH_COLUMNS, countAtMost: searchCountLimit(query) }, query);
  }

  listActions<T extends ActionItem>(items: readonly T[], query: ParsedQuery): Promise<Page<T>> {
    const plain = items.map(({ id, method, href }) => ({ id, method, href }));
    return listPage(this.sql, { select: ACTION_SELECT, selectParams: [JSON.stringify(plain)], columns: ACTION_COLUMNS }, query);
  }
}
