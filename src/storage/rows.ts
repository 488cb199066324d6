// The rows storage answers and takes, shared by every backend: plain data, camelCase, times as epoch milliseconds.

export type Role = 'admin' | 'member';

export interface UserRow {
  id: string;
  login: string;
  passwordHash: string;
  avatarId: string | null;
  /** docs/protocol.md §13: an admin runs the server for the team; the first account is one. */
  role: Role;
  /** When an admin deactivated the account; null while it is active. */
  deactivatedAt: number | null;
  /** When the user last used a session (written at most once a minute); null until then. */
  lastSeenAt: number | null;
  createdAt: number;
  updatedAt: number;
  /** docs/protocol.md §16.2: a person, or a bot (no password, no log-in, no pages) owned by ownerId. */
  kind: UserKind;
  /** A bot's owner, who manages its tokens; null for a person (or a bot whose owner was erased). */
  ownerId: string | null;
}

export type UserKind = 'user' | 'bot';

/** A user as it is inserted: every account starts a person; a bot is marked so in the same transaction. */
export type NewUserRow = Omit<UserRow, 'kind' | 'ownerId'>;

export interface SessionRow {
  id: string;
  /** The SHA-256 of the token: the token itself is never stored. */
  tokenHash: Buffer;
  userId: string;
  createdAt: number;
  expiresAt: number;
  maxExpiresAt: number;
  /** When a request last used it: written at most once a minute (docs/protocol.md §3.5). */
  lastUsedAt: number;
  /** The User-Agent of the login, cut to 256 characters; null when none was sent. */
  userAgent: string | null;
  /** The client address of the login as the server saw it (--trust-proxy aware). */
  address: string | null;
}

export interface AvatarRow {
  id: string;
  userId: string;
  contentType: string;
  imageWidth: number;
  imageHeight: number;
  x: number;
  y: number;
  width: number;
  height: number;
  etag: string;
  createdAt: number;
}

export interface AvatarBytes {
  userId: string;
  bytes: Buffer;
  contentType: string;
  etag: string;
}

/** docs/protocol.md §14.1: a group (any members, a title) or a direct chat (two people, or one with themself). */
export type ChatKind = 'group' | 'direct';

/** docs/protocol.md §14.3: what a member is notified of in one chat. */
export type NotificationLevel = 'all' | 'mentions' | 'none';

export interface ChatRow {
  id: string;
  kind: ChatKind;
  /** null for a direct chat: it is named by the other person. */
  title: string | null;
  ownerId: string;
  /** Owner first, then in the order they joined (ties by id). */
  members: string[];
  createdAt: number;
  updatedAt: number;
}

/** A chat as one member reads it: with that member's read marker and kept unread count (GET /chats). */
export interface ChatForCallerRow extends ChatRow {
  lastReadId: string | null;
  unreadCount: number;
  /** Unread messages of others that mention the caller (docs/protocol.md §14.2), kept like unreadCount. */
  mentionCount: number;
}

/** A chat of the sidebar (docs/html.md): as the member reads it, with the time of its last activity. */
export interface ChatActivityRow extends ChatForCallerRow {
  lastActivityAt: number;
}

/** A new chat as written: a direct chat also carries the key of its pair (docs/protocol.md §14.1). */
export interface NewChatRow extends Omit<ChatRow, 'members'> {
  /** "<smaller user id>:<larger user id>" for a direct chat, unique; null for a group. */
  directKey: string | null;
}

/** Just enough of a chat to decide who may do what: found only through the caller's membership. */
export interface ChatAccess {
  id: string;
  ownerId: string;
  kind: ChatKind;
}

export interface MemberRow {
  chatId: string;
  userId: string;
  login: string;
  addedAt: number;
  /** The level the member chose; null: the default of the chat's kind (docs/protocol.md §14.3). */
  notificationLevel: NotificationLevel | null;
}

export interface MessageRow {
  id: string;
  chatId: string;
  authorId: string;
  text: string;
  replyTo: string | null;
  createdAt: number;
  updatedAt: number;
  /** When the text last changed; null until it does. */
  editedAt: number | null;
  /**
   * JSON array text of [{emoji, count, userIds}], in order of each emoji's first use: kept with the message
   * by the backend, so a page of messages reads every reaction in its one query (no N+1).
   */
  reactions: string;
  /**
   * JSON array text of the message's attachments, [{id, name, contentType, size, sha256, width?, height?}] in the
   * order they were given (docs/protocol.md §15): written with the message and never changed, read with it in one query.
   */
  attachments: string;
  /** JSON array text of the ids of the members the text mentions (docs/protocol.md §14.2), '[]' for none. */
  mentions: string;
}

/** A message that nobody reacted to yet, as storage answers its reactions. */
export const NO_REACTIONS = '[]';

/** A message without files, as storage answers its attachments. */
export const NO_ATTACHMENTS = '[]';

/** A message that mentions nobody, as storage keeps its mentions. */
export const NO_MENTIONS = '[]';

export interface ReadMarkerRow {
  chatId: string;
  userId: string;
  /** The last message the member has read; null: none (every message of others is unread). */
  lastReadId: string | null;
  /** Messages of others after the marker, kept exact by the backend. */
  unreadCount: number;
  /** Of those, the ones that mention the member (docs/protocol.md §14.2), kept exact by the backend. */
  mentionCount: number;
}

export interface ReactionRow {
  messageId: string;
  emoji: string;
  userId: string;
  createdAt: number;
}

export interface RevisionRow {
  /** 1 for the text the message was posted with, then 2, 3, ... */
  id: number;
  text: string;
  createdAt: number;
}

export type SearchHitType = 'message' | 'chat' | 'user';

/** One search match: enough to page and sort on, and to load the resource it names. */
export interface SearchHit {
  type: SearchHitType;
  id: string;
  chatId: string | null;
  createdAt: number;
  updatedAt: number;
}

/** One row of the event log, as the hub reads it: data is the JSON text of the event's data object. */
export interface EventRecord {
  id: number;
  type: string;
  chatId: string;
  onlyUserId: string | null;
  /** JSON array text of users who receive the event without being members, or null. */
  alsoUserIds: string | null;
  /** The message a message.* or reaction.* event is about (its purge key, docs/events.md), else null. */
  subjectId: string | null;
  createdAt: number;
  data: string;
}

/**
 * The chatId of an event about no chat (user.updated, session.ended: docs/protocol.md §9.1): stored as '' (no chat
 * id is empty), sent as null. Such an event reaches only onlyUserId or alsoUserIds.
 */
export const NO_CHAT = '';

export interface NewEvent {
  type: string;
  /** The chat the event belongs to, or NO_CHAT. */
  chatId: string;
  createdAt: number;
  /** The resource exactly as GET answers it now (public fields), or a small object such as {id}. */
  data: Record<string, unknown>;
  onlyUserId?: string;
  alsoUserIds?: readonly string[];
  /** The message the event is about (message.* and reaction.* events): what a later delete of it purges by. */
  subjectId?: string;
}

/**
 * Earlier events one event removes from the log (src/events/purge-rule.ts decides which): those of `chatId`
 * with an id below `beforeId`, only of `subjectId` when it is set, only of `types` when they are set.
 */
export interface EventPurge {
  beforeId: number;
  chatId: string;
  subjectId: string | null;
  types: readonly string[] | null;
}

/** One page of a collection and the number of items the whole (filtered) collection holds (meta.total). */
export interface Page<T> {
  rows: T[];
  total: number;
}

/** One uploaded file (docs/protocol.md §15): in a chat, unused until a message takes it, then it goes with that message. */
export interface AttachmentRow {
  id: string;
  chatId: string;
  uploaderId: string;
  /** The message that holds it; null while unused (removed an hour after its upload). */
  messageId: string | null;
  /** The stored content (attachment_blobs), shared by every attachment of the same bytes. */
  contentId: string;
  name: string;
  /** image/png, image/jpeg, image/gif or image/webp for a validated image; application/octet-stream otherwise. */
  contentType: string;
  size: number;
  /** Lower-case hex SHA-256 of the bytes. */
  sha256: string;
  /** Pixels, for a validated image only. */
  width: number | null;
  height: number | null;
  createdAt: number;
  /** How many bytes each chunk of the content holds (the last one fewer): where a byte range starts. */
  chunkBytes: number;
}
