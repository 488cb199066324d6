// Every collection as SQLite reads it: its SELECT, its caller's scope and how its API fields are spelled in SQL.
import type { ParsedQuery } from '../../parsers/query.ts';
import type { AvatarRow, ChatActivityRow, ChatForCallerRow, MemberRow, MessageRow, Page, ReactionRow, RevisionRow, SearchHit, UserRow } from '../rows.ts';
import type { AuditRow } from '../account-rows.ts';
import type { ActionItem, MessageBounds } from '../store.ts';
import { AVATAR_IS_CURRENT, AVATAR_LIST_SELECT } from './avatar-store.ts';
import { CHAT_FOR_CALLER_SELECT, chatFromRecord, MEMBER_SELECT, type ChatRecord } from './chat-store.ts';
import type { Statement } from 'better-sqlite3';
import type { Db } from './database.ts';
import { PageRunner, type PageSource } from './list-page.ts';
import { MESSAGE_SELECT } from './message-store.ts';
import { historySource as sharedHistorySource, mentionsSource } from '../history-source.ts';
import { auditFromRecord, type AuditRecord } from '../audit-record.ts';
import type { SqlColumns } from './query-sql.ts';
import { REACTION_SELECT } from './reaction-store.ts';
import { REVISION_SELECT, REVISION_SELECT_PARAMS } from './revision-store.ts';
import { searchPage } from './search-store.ts';

const USER_SELECT = 'SELECT u.id, u.login, u.password_hash AS passwordHash, u.avatar_id AS avatarId, u.role, u.deactivated_at AS deactivatedAt, '
  + 'u.last_seen_at AS lastSeenAt, u.created_at AS createdAt, u.updated_at AS updatedAt, u.kind, u.owner_id AS ownerId FROM users u';

export const USER_COLUMNS: SqlColumns = {
  idField: 'id',
  columns: { id: 'u.id', login: 'u.login', avatar: 'u.avatar_id', role: 'u.role', kind: 'u.kind', createdAt: 'u.created_at', updatedAt: 'u.updated_at', lastSeenAt: 'u.last_seen_at' },
};

const AUDIT_SELECT = 'SELECT a.id, a.at, a.actor_id AS actorId, a.action, a.target_type AS targetType, a.target_id AS targetId, a.detail FROM audit_log a';

const AUDIT_COLUMNS: SqlColumns = {
  idField: 'id',
  columns: { id: 'a.id', at: 'a.at', actorId: 'a.actor_id', action: 'a.action', targetType: 'a.target_type', targetId: 'a.target_id' },
};

/** The sidebar's chats (docs/html.md): the newest message's time is one index lookup per chat (messages_by_chat_time). */
const CHATS_BY_ACTIVITY = 'SELECT f.*, coalesce((SELECT max(m.created_at) FROM messages m WHERE m.chat_id = f.id), f.createdAt) AS lastActivityAt'
  + ` FROM (${CHAT_FOR_CALLER_SELECT} WHERE me.user_id = ?) f ORDER BY lastActivityAt DESC, f.id DESC LIMIT ?`;

export const CHAT_COLUMNS: SqlColumns = {
  idField: 'id',
  columns: {
    id: 'c.id',
    kind: 'c.kind',
    title: "nullif(c.title, '')",
    ownerId: 'c.owner_id',
    createdAt: 'c.created_at',
    updatedAt: 'c.updated_at',
    // The caller's own (docs/protocol.md §10.1), columns of the caller's membership row in CHAT_FOR_CALLER_SELECT.
    lastReadId: 'me.last_read_id',
    unreadCount: 'me.unread_count',
    mentionCount: 'me.mention_count',
  },
  contains: { members: 'EXISTS (SELECT 1 FROM chat_members f WHERE f.chat_id = c.id AND f.user_id = ?)' },
};

export const MEMBER_COLUMNS: SqlColumns = {
  idField: 'userId',
  columns: { id: 'cm.user_id', userId: 'cm.user_id', login: 'u.login', addedAt: 'cm.added_at' },
};

export const AVATAR_COLUMNS: SqlColumns = {
  idField: 'id',
  columns: {
    id: 'a.id',
    userId: 'a.user_id',
    contentType: 'a.content_type',
    imageWidth: 'a.image_width',
    imageHeight: 'a.image_height',
    x: 'a.x',
    y: 'a.y',
    width: 'a.width',
    height: 'a.height',
    createdAt: 'a.created_at',
    // Not a public field: only the default order uses it.
    current: AVATAR_IS_CURRENT,
  },
};

export const REACTION_COLUMNS: SqlColumns = {
  idField: 'seq',
  // A reaction has no id: seq, the order it was made in, is the default order and breaks ties.
  columns: { emoji: 'r.emoji', userId: 'r.user_id', createdAt: 'r.created_at', seq: 'r.seq' },
};

export const REVISION_COLUMNS: SqlColumns = {
  idField: 'id',
  // A number in SQL, so revision 10 sorts after revision 9.
  columns: { id: 'v.id', text: 'v.text', createdAt: 'v.createdAt' },
};

/**
 * The computed list is read through json_each so that it answers the same query conventions (filter, sort,
 * limit, meta, Link) as every stored collection, with no second implementation of them.
 */
const ACTION_SELECT = "SELECT a.id, a.method, a.href FROM (SELECT value ->> 'id' AS id, value ->> 'method' AS method, value ->> 'href' AS href FROM json_each(?)) a";
const ACTION_COLUMNS: SqlColumns = { idField: 'id', columns: { id: 'a.id', method: 'a.method', href: 'a.href' } };

/** A chat's history (storage/history-source.ts) as SQLite reads it. */
export function historySource(chatId: string, bounds: MessageBounds = {}): PageSource {
  return sharedHistorySource(MESSAGE_SELECT, chatId, bounds);
}

/** The collections of the Store, synchronous: the SQLite store runs them behind its gate. */
export class SqliteCollections {
  private readonly pages: PageRunner;

  private readonly byActivity: Statement<unknown[]>;

  constructor(db: Db) {
    this.pages = new PageRunner(db);
    this.byActivity = db.prepare<unknown[]>(CHATS_BY_ACTIVITY);
  }

  listUsers(query: ParsedQuery): Page<UserRow> {
    return this.pages.listPage<UserRow>({ select: USER_SELECT, scope: 'u.erased_at IS NULL', columns: USER_COLUMNS }, query);
  }

  listAudit(query: ParsedQuery): Page<AuditRow> {
    const page = this.pages.listPage<AuditRecord>({ select: AUDIT_SELECT, columns: AUDIT_COLUMNS }, query);
    return { rows: page.rows.map(auditFromRecord), total: page.total };
  }

  listChatsOfMember(userId: string, query: ParsedQuery): Page<ChatForCallerRow> {
    const source = { select: CHAT_FOR_CALLER_SELECT, scope: 'me.user_id = ?', scopeParams: [userId], columns: CHAT_COLUMNS };
    const page = this.pages.listPage<ChatRecord & Pick<ChatForCallerRow, 'lastReadId' | 'unreadCount' | 'mentionCount'>>(source, query);
    return { rows: page.rows.map((record) => ({ ...chatFromRecord(record), lastReadId: record.lastReadId, unreadCount: record.unreadCount, mentionCount: record.mentionCount })), total: page.total };
  }

  listChatsByActivity(userId: string, limit: number): ChatActivityRow[] {
    const records = this.byActivity.all(userId, limit) as (ChatRecord & Omit<ChatActivityRow, 'members'>)[];
    return records.map((record) => ({ ...record, ...chatFromRecord(record) }));
  }

  listMentions(userId: string, query: ParsedQuery): Page<MessageRow> {
    return this.pages.listPage<MessageRow>(mentionsSource(MESSAGE_SELECT, userId), query);
  }

  listMembers(chatId: string, query: ParsedQuery): Page<MemberRow> {
    return this.pages.listPage<MemberRow>({ select: MEMBER_SELECT, scope: 'cm.chat_id = ?', scopeParams: [chatId], columns: MEMBER_COLUMNS }, query);
  }

  listMessages(chatId: string, query: ParsedQuery, bounds?: MessageBounds): Page<MessageRow> {
    return this.pages.listPage<MessageRow>(historySource(chatId, bounds), query);
  }

  listAvatars(userId: string, query: ParsedQuery): Page<AvatarRow> {
    return this.pages.listPage<AvatarRow>({ select: AVATAR_LIST_SELECT, scope: 'a.user_id = ?', scopeParams: [userId], columns: AVATAR_COLUMNS }, query);
  }

  listReactions(messageId: string, query: ParsedQuery): Page<ReactionRow> {
    return this.pages.listPage<ReactionRow>({ select: REACTION_SELECT, scope: 'r.message_id = ?', scopeParams: [messageId], columns: REACTION_COLUMNS }, query);
  }

  listRevisions(messageId: string, query: ParsedQuery): Page<RevisionRow> {
    return this.pages.listPage<RevisionRow>({ select: REVISION_SELECT, selectParams: REVISION_SELECT_PARAMS(messageId), columns: REVISION_COLUMNS }, query);
  }

  search(userId: string, terms: readonly string[], query: ParsedQuery): Page<SearchHit> {
    return searchPage(this.pages, userId, terms, query);
  }

  listActions<T extends ActionItem>(items: readonly T[], query: ParsedQuery): Page<T> {
    return this.pages.listPage<T>({ select: ACTION_SELECT, selectParams: [JSON.stringify(items)], columns: ACTION_COLUMNS }, query);
  }
}
