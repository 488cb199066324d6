// One page of each collection for the parsed query (docs/protocol.md §6), and what history paging bounds.
import type { ParsedQuery } from '../parsers/query.ts';
import type { AvatarRow, ChatActivityRow, ChatForCallerRow, MemberRow, MessageRow, Page, ReactionRow, RevisionRow, SearchHit, UserRow } from './rows.ts';
import type { AuditRow } from './account-rows.ts';

/** A computed item (a message's actions) paged with the same query rules as a stored collection. */
export interface ActionItem {
  id: string;
  method: string;
  href: string;
}

/** Keyset bounds of a history page: they narrow the page, never meta.total. */
export interface MessageBounds {
  /** Only messages with an id above this one. */
  after?: string;
  /** Only messages with an id below this one. */
  before?: string;
}

/**
 * One page of each collection, for the query the parser produced (docs/protocol.md §6). A field is known by its API
 * name (`filter.field.name`, `sort[i].field.name`); each backend maps names to its columns, and a name it
 * does not know is a programming error (throw). Every order ends with the collection's id field in the last
 * key's direction, so pages are stable. meta.total counts the scope with the filters, without limit/offset.
 */
export interface CollectionRepository {
  /** Fields id, login, avatar, role, createdAt, updatedAt, lastSeenAt. */
  listUsers(query: ParsedQuery): Promise<Page<UserRow>>;
  /** The audit log. Fields id, at, actorId, action, targetType, targetId. */
  listAudit(query: ParsedQuery): Promise<Page<AuditRow>>;
  /** The chats `userId` is a member of. Fields id, kind, title, ownerId, members (id-list), createdAt, updatedAt, lastReadId, unreadCount, mentionCount. */
  listChatsOfMember(userId: string, query: ParsedQuery): Promise<Page<ChatForCallerRow>>;
  /**
   * The chat screen's sidebar (docs/html.md): `userId`'s chats, most recently active first (the time of the chat's
   * newest message, else its creation; ties by id, newest first), at most `limit`.
   */
  listChatsByActivity(userId: string, limit: number): Promise<ChatActivityRow[]>;
  /** Fields id (= userId), userId (the id field), login, addedAt. */
  listMembers(chatId: string, query: ParsedQuery): Promise<Page<MemberRow>>;
  /**
   * A chat's history. Fields id, chatId, authorId, text, replyTo, createdAt, updatedAt, editedAt. The caller
   * has already put keyset paging into the query (sort, one more row); the total ignores `bounds`.
   */
  listMessages(chatId: string, query: ParsedQuery, bounds?: MessageBounds): Promise<Page<MessageRow>>;
  /**
   * The messages that mention `userId` in the chats they are a member of (docs/protocol.md §14.2). The message
   * fields (id, chatId, authorId, text, replyTo, createdAt, updatedAt, editedAt, mentions).
   */
  listMentions(userId: string, query: ParsedQuery): Promise<Page<MessageRow>>;
  /** A user's avatars. Fields id, userId, contentType, imageWidth, imageHeight, x, y, width, height, createdAt, and `current` (1 for the user's current avatar) for sorting only. */
  listAvatars(userId: string, query: ParsedQuery): Promise<Page<AvatarRow>>;
  /** A message's reactions. Fields emoji, userId, createdAt, and the hidden id field `seq` (order of insertion). */
  listReactions(messageId: string, query: ParsedQuery): Promise<Page<ReactionRow>>;
  /** A message's texts: the earlier ones, then the current one. Fields id (a number), text, createdAt. */
  listRevisions(messageId: string, query: ParsedQuery): Promise<Page<RevisionRow>>;
  /**
   * Full-text search for `userId` (docs/protocol.md §5): messages of their chats, their chats by title, users by login.
   * Every term is a prefix, accent-insensitive, and all terms must match. Fields type, id, chatId, createdAt, updatedAt.
   */
  search(userId: string, terms: readonly string[], query: ParsedQuery): Promise<Page<SearchHit>>;
  /** Computed items (a message's actions), filtered, sorted and paged by the same rules. Fields id, method, href. */
  listActions<T extends ActionItem>(items: readonly T[], query: ParsedQuery): Promise<Page<T>>;
}
