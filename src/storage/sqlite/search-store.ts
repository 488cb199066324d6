// Full-text search over the FTS5 indexes of sql/migrations/004-search.sql: what one caller may find, as one pageable
// source, and its newest-first page read without sorting every match (search-newest-first.ts).
import type { ParsedQuery } from '../../parsers/query.ts';
import type { Page, SearchHit } from '../rows.ts';
import { searchCountLimit } from '../search-count.ts';
import type { PageRunner, PageSource } from './list-page.ts';
import { buildQuerySql, type SqlColumns } from './query-sql.ts';
import { isNewestFirst, mergeNewestFirst, takeNewestMessages, type MessageMatch } from './search-newest-first.ts';

/** The columns of the union below, by the fields of a search result. */
export const SEARCH_COLUMNS: SqlColumns = {
  idField: 'id',
  columns: {
    type: 's.type',
    id: 's.id',
    chatId: 's.chat_id',
    createdAt: 's.created_at',
    updatedAt: 's.updated_at',
  },
};

// The chats the caller is a member of (docs/protocol.md §4.1: a user sees only those, and §5: search too).
const CALLER_CHATS = 'SELECT cm.chat_id FROM chat_members cm WHERE cm.user_id = @userId';

const HIT_COLUMNS = 's.type AS type, s.id AS id, s.chat_id AS chatId, s.created_at AS createdAt, s.updated_at AS updatedAt';

/**
 * The caller's messages that match, with `more` columns after the common ones: @messageMatch asks the index for the
 * words and the caller's chats (messageMatch below); the membership test is the SQL's all the same.
 */
const messageMatches = (more = ''): string => `SELECT 'message' AS type, m.id AS id, m.chat_id AS chat_id, m.created_at AS created_at, m.updated_at AS updated_at${more}
    FROM messages_fts JOIN messages m ON m.seq = messages_fts.rowid
    WHERE messages_fts MATCH @messageMatch AND m.chat_id IN (${CALLER_CHATS})`;

/** The caller's chats as the index names them (sql/migrations/023-search-by-chat.sql: 'c' and the id in hex). */
export const CALLER_CHAT_TOKENS = `SELECT 'c' || hex(cm.chat_id) FROM chat_members cm WHERE cm.user_id = ?`;

/** Beyond this many chats the index is asked for the words alone: its query would grow with every chat. */
export const MAX_CHAT_TOKENS = 500;

const CHAT_AND_USER_MATCHES = `SELECT 'chat' AS type, c.id AS id, NULL AS chat_id, c.created_at AS created_at, c.updated_at AS updated_at
    FROM chats_fts JOIN chats c ON c.seq = chats_fts.rowid
    WHERE chats_fts MATCH @match AND c.id IN (${CALLER_CHATS})
  UNION ALL
  SELECT 'user', u.id, NULL, u.created_at, u.updated_at
    FROM users_fts JOIN users u ON u.seq = users_fts.rowid
    WHERE users_fts MATCH @match AND u.erased_at IS NULL`;

// Every branch matches the same @match; the union has the same columns in every branch. The named
// parameters sit in the FROM clause, before any `?` of the WHERE that PageRunner appends.
const SEARCH_SELECT = `SELECT ${HIT_COLUMNS} FROM (
  ${messageMatches()}
  UNION ALL
  ${CHAT_AND_USER_MATCHES}
) s`;

/** The message matches by seq, newest first (FTS5 hands them out in rowid order, no sorter), with newest_so_far. */
const MESSAGES_BY_SEQ = `SELECT ${HIT_COLUMNS}, s.newest_so_far AS newestSoFar FROM (
  ${messageMatches(', m.newest_so_far AS newest_so_far, messages_fts.rowid AS seq')}
) s`;

const CHATS_AND_USERS = `SELECT ${HIT_COLUMNS} FROM (
  ${CHAT_AND_USER_MATCHES}
) s`;

/**
 * The FTS5 query for words the parser has split: each word is an FTS5 string (double quotes, a quote
 * inside doubled, https://sqlite.org/fts5.html §3.1), so no operator, column filter or NEAR can be
 * spelled by a client; `*` makes it a prefix query, and the words AND together.
 */
export function toMatchExpression(terms: readonly string[]): string {
  if (terms.length === 0) throw new Error('search-store: a match needs at least one term');
  return terms.map((term) => `"${term.replaceAll('"', '""')}"*`).join(' AND ');
}

/**
 * The FTS5 query of message matches: the words in the text or the attachment names only (never in a chat's
 * token), AND one of the caller's chats by its token; a caller in no chat matches nothing ('none' is no token);
 * a caller in more than MAX_CHAT_TOKENS chats, the words alone.
 */
export function messageMatch(terms: readonly string[], chatTokens: readonly string[]): string {
  const words = `{text attachment_names} : (${toMatchExpression(terms)})`;
  if (chatTokens.length > MAX_CHAT_TOKENS) return words;
  return `${words} AND chat_token : (${chatTokens.length === 0 ? 'none' : chatTokens.join(' OR ')})`;
}

/**
 * What `userId` may find for `terms`: messages of their chats, their chats (by title), and users (by
 * login). better-sqlite3 binds an object's keys to the @names wherever the object stands among the
 * arguments, so the `?` of the client's filters still bind in order after it.
 */
export function searchSource(userId: string, terms: readonly string[], query: Pick<ParsedQuery, 'offset' | 'limit'>, chatTokens: readonly string[]): PageSource {
  const params = { match: toMatchExpression(terms), messageMatch: messageMatch(terms, chatTokens), userId };
  return { select: SEARCH_SELECT, selectParams: [params], columns: SEARCH_COLUMNS, countAtMost: searchCountLimit(query) };
}

/**
 * One page of a search. In the default order (newest first) the messages are walked by seq and the walk stops
 * at the page (search-newest-first.ts), the chats and users (a few titles and logins) are sorted as they are;
 * any other order sorts every match.
 */
export function searchPage(pages: PageRunner, userId: string, terms: readonly string[], query: ParsedQuery): Page<SearchHit> {
  const chatTokens = pages.statement(CALLER_CHAT_TOKENS).pluck().all(userId) as string[];
  const source = searchSource(userId, terms, query, chatTokens);
  if (!isNewestFirst(query)) return pages.listPage<SearchHit>(source, query);
  const total = pages.countOf(source, query);
  const wanted = query.offset + query.limit;
  if (query.limit === 0) return { rows: [], total };
  const built = buildQuerySql(query, SEARCH_COLUMNS);
  const params = [...source.selectParams!, ...built.params];
  const messages = takeNewestMessages(pages.statement(`${MESSAGES_BY_SEQ} WHERE ${built.where} ORDER BY s.seq DESC`).iterate(...params) as IterableIterator<MessageMatch>, wanted);
  const others = pages.statement(`${CHATS_AND_USERS} WHERE ${built.where} ORDER BY ${built.orderBy} LIMIT ?`).all(...params, wanted) as SearchHit[];
  return { rows: mergeNewestFirst(messages, others).slice(query.offset, wanted), total };
}
