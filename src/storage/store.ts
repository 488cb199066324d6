// The one storage interface: everything handlers, the event hub and the limiters need, asynchronous, backend-neutral.
//
// Each backend (storage/sqlite/, later storage/postgres/) implements `Store`; openStore() in open-store.ts picks
// one from the --db value. Nothing here names a driver or holds SQL: collections take the parsed query of
// parsers/query.ts (filters, sort keys, limit, offset by field name) and each backend turns it into its own SQL.
// Rows are the shapes of rows.ts, the same for every backend.
import type { ParsedQuery } from '../parsers/query.ts';
import type {
  AvatarBytes, AvatarRow, ChatAccess, ChatForCallerRow, ChatRow, EventPurge, EventRecord, MemberRow, MessageRow, NewChatRow, NewEvent, NotificationLevel, Page,
  ReactionRow, ReadMarkerRow, RevisionRow, SearchHit, SessionRow, UserRow, AuditRow, AttachmentRow, NewUserRow,
  MembershipRow, ReactionOfUserRow, RevisionOfMessageRow, InviteRow,
} from './rows.ts';
import type { InviteRepository } from './invite-repository.ts';
import type { OutboundRepository } from './outbound-repository.ts';
import type { IntegrationRepository } from './integration-repository.ts';
import type { PushRepository } from './push-repository.ts';
import type { KeptReads } from './kept-reads.ts';

export type * from './rows.ts';
export type { KeptReads, KeptValueKind } from './kept-reads.ts';
export type { InviteRepository } from './invite-repository.ts';
export type * from './outbound-repository.ts';
export type * from './integration-repository.ts';
export type * from './push-repository.ts';
export { NO_ATTACHMENTS, NO_CHAT, NO_MENTIONS, NO_REACTIONS } from './rows.ts';

/** The database cannot be opened as configured (a path, permission, schema or connection problem): a configuration error. */
export class DatabaseOpenError extends Error {
  override name = 'DatabaseOpenError';
}

/**
 * A write broke a constraint of the schema: `unique` (a login taken in any letter case) or `foreign-key` (a
 * member id naming no user). Backends map their driver's codes to this, so handlers can answer 409/422 without
 * knowing the engine (see isUniqueViolation / isForeignKeyViolation).
 */
export class StoreConstraintError extends Error {
  override name = 'StoreConstraintError';
  readonly constraint: 'unique' | 'foreign-key';

  constructor(constraint: 'unique' | 'foreign-key', message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.constraint = constraint;
  }
}

export function isUniqueViolation(error: unknown): boolean {
  return error instanceof StoreConstraintError && error.constraint === 'unique';
}

export function isForeignKeyViolation(error: unknown): boolean {
  return error instanceof StoreConstraintError && error.constraint === 'foreign-key';
}

export interface UserRepository {
  /** Rejects with a unique StoreConstraintError when the login is taken in any letter case. */
  insertUser(user: NewUserRow): Promise<void>;
  findUserById(id: string): Promise<UserRow | undefined>;
  /** Logins compare without regard to ASCII case. */
  findUserByLogin(login: string): Promise<UserRow | undefined>;
  /** Rejects with a unique StoreConstraintError when the new login is taken. */
  updateUser(user: UserRow): Promise<void>;
  /** True when the database holds no user yet (the next sign-up is the first account, an admin). */
  hasNoUsers(): Promise<boolean>;
  /**
   * Inserts the first account only while there is none, atomically on every backend (only through a Tx): true
   * when it was inserted, false when another account came first.
   */
  insertFirstUser(user: NewUserRow): Promise<boolean>;
  /** Admins whose account is active: the last one may not be demoted, deactivated or erased. */
  countActiveAdmins(): Promise<number>;
  /**
   * Presence's flush (docs/protocol.md §14.6): in one statement, each user's last_seen_at becomes the later of what it
   * holds and `at`, so flushes of several processes, in any order, never move it back. Unknown and erased accounts are left alone.
   */
  recordLastSeen(seen: readonly (readonly [userId: string, at: number])[]): Promise<void>;
}

export interface AuditRepository {
  /** Written in the transaction of the change it records. */
  appendAudit(entry: AuditRow): Promise<void>;
}

export interface SessionRepository {
  insertSession(session: SessionRow): Promise<void>;
  findSessionByTokenHash(tokenHash: Buffer): Promise<SessionRow | undefined>;
  findSessionById(id: string): Promise<SessionRow | undefined>;
  /** Which of these sessions still hold (exist, expiresAt and maxExpiresAt after now): one query for all. */
  findLiveSessionIds(ids: readonly string[], now: number): Promise<Set<string>>;
  extendSession(id: string, expiresAt: number): Promise<void>;
  /**
   * A request used the session (at most once a minute, resources/session/authenticate.ts): its idle expiry and
   * lastUsedAt, and its user's lastSeenAt, in one write.
   */
  recordSessionUse(id: string, userId: string, expiresAt: number, now: number): Promise<void>;
  deleteSession(id: string): Promise<void>;
  /** Ends every session of a user but one (after a password change); answers the ids of those that went. */
  deleteOtherSessions(userId: string, keepId: string): Promise<string[]>;
  /** Ends every session of a user (deactivation); answers the ids of those that went. */
  deleteUserSessions(userId: string): Promise<string[]>;
  deleteExpiredSessions(now: number): Promise<number>;
}

export interface AvatarRepository {
  insertAvatar(row: AvatarRow & { bytes: Buffer }): Promise<void>;
  findAvatarById(id: string): Promise<AvatarRow | undefined>;
  findAvatarBytes(id: string): Promise<AvatarBytes | undefined>;
  /** A user whose current avatar it was has none afterwards (avatarId null). */
  deleteAvatar(id: string): Promise<void>;
}

export interface ChatRepository {
  /** Any chat, visible or not: only for deciding between create, replace and 404 in PUT. */
  findChat(id: string): Promise<ChatRow | undefined>;
  /** The chat if the user is one of its members; the same undefined when it does not exist. */
  findChatForMember(chatId: string, userId: string): Promise<ChatAccess | undefined>;
  /**
   * The chat as one member reads it (with their marker and unread count), undefined when the user is not a
   * member or there is no chat, in one read: what GET /chats/{id} answers.
   */
  findChatForCaller(chatId: string, userId: string): Promise<ChatForCallerRow | undefined>;
  /** Rejects with a unique StoreConstraintError when a direct chat of that pair exists (directKey is unique). */
  insertChat(chat: NewChatRow): Promise<void>;
  updateChatTitle(id: string, title: string, updatedAt: number): Promise<void>;
  /** A member list change is a change of the chat, so its updatedAt moves too. */
  touchChat(id: string, updatedAt: number): Promise<void>;
  /** The chat and its member rows; delete its messages first (messages.deleteChatMessages), in the same transaction. */
  deleteChat(id: string): Promise<void>;
  /** True when the user was not a member yet. Rejects with a foreign-key StoreConstraintError for an unknown user. */
  addMember(chatId: string, userId: string, addedAt: number): Promise<boolean>;
  removeMember(chatId: string, userId: string): Promise<boolean>;
  /** Removes every member not in userIds; answers how many went. */
  keepOnlyMembers(chatId: string, userIds: readonly string[]): Promise<number>;
  findMember(chatId: string, userId: string): Promise<MemberRow | undefined>;
  /** In the order they joined (ties by user id). */
  findMembers(chatId: string): Promise<MemberRow[]>;
  /** The ids of userIds that name no user, in the order given: one query for the whole list. */
  findUnknownUsers(userIds: readonly string[]): Promise<string[]>;
  /** Hands the chat to another member (the caller checked they are one); its updatedAt moves. */
  setChatOwner(id: string, ownerId: string, updatedAt: number): Promise<void>;
  /** Everyone who shares at least one chat with the user, the user not included, by id: who hears of their changes. */
  findChatPeers(userId: string): Promise<string[]>;
  // Direct chats and notification levels (docs/protocol.md §14.1, §14.3).
  /** The direct chat of a pair by its key ("<smaller id>:<larger id>"), members or not. */
  findDirectChat(directKey: string): Promise<ChatRow | undefined>;
  /** The member's level in the chat; null returns to the default of the chat's kind. */
  setNotificationLevel(chatId: string, userId: string, level: NotificationLevel | null): Promise<void>;
}

/** A message as it is inserted: no reactions or edit yet; attachments absent for none. */
export type NewMessage = Omit<MessageRow, 'reactions' | 'editedAt' | 'attachments'> & { attachments?: string };

export interface MessageRepository {
  /** attachments: the summary of the files it holds (NO_ATTACHMENTS when absent), written once with the message. */
  insertMessage(message: NewMessage): Promise<void>;
  /** Any message, in any chat: the caller checks that the reader may see its chat. */
  findMessage(id: string): Promise<MessageRow | undefined>;
  findMessageInChat(chatId: string, id: string): Promise<MessageRow | undefined>;
  /**
   * True when `replyTo` is a message of the chat stored before `messageId` (in insertion order, whatever
   * the ids say; any message of the chat when messageId is null): replies never form a cycle.
   */
  isEarlierMessageInChat(chatId: string, replyTo: string, messageId: string | null): Promise<boolean>;
  /** A change of the text also keeps the text it replaces as a revision. */
  updateMessage(message: Pick<MessageRow, 'id' | 'text' | 'replyTo' | 'updatedAt' | 'editedAt' | 'mentions'>): Promise<void>;
  /** The messages that reply to this one, by id. */
  findReplies(id: string): Promise<MessageRow[]>;
  /** Deletes one message; its replies lose their replyTo and their updatedAt becomes `now`. */
  deleteMessage(id: string, now: number): Promise<void>;
  /** Every message of a chat; answers how many went. */
  deleteChatMessages(chatId: string): Promise<number>;
}

export interface ReadMarkerRepository {
  /** The member's marker, or undefined when the user is not a member. */
  findMarker(chatId: string, userId: string): Promise<ReadMarkerRow | undefined>;
  /** Moves the marker (forward or back) and recounts; the caller checked that lastReadId is a message of the chat. */
  setMarker(chatId: string, userId: string, lastReadId: string | null): Promise<ReadMarkerRow | undefined>;
}

export interface ReactionRepository {
  findReaction(messageId: string, emoji: string, userId: string): Promise<ReactionRow | undefined>;
  /** True when the reaction is new; false when this user had already reacted so. */
  addReaction(reaction: ReactionRow): Promise<boolean>;
  removeReaction(messageId: string, emoji: string, userId: string): Promise<boolean>;
}

export interface RevisionRepository {
  /** Revision n of a message (1 = as posted; the highest = the current text), or undefined. */
  findRevision(messageId: string, n: number): Promise<RevisionRow | undefined>;
}

/**
 * What the server holds about one user, read whole: their sessions page, their export and their erasure
 * (docs/protocol.md §3.5-§3.7). Reads are in a stable order (ids, or join order), and none answers an erased account.
 */
export interface AccountRepository {
  /**
   * A page of the user's sessions. Fields id, createdAt, lastUsedAt, expiresAt, userAgent, address; `current`
   * (1 for currentId, else 0) is for sorting only.
   */
  listSessions(userId: string, currentId: string, query: ParsedQuery): Promise<Page<SessionRow>>;
  /** Every session of the user, oldest first. */
  findSessionsOfUser(userId: string): Promise<SessionRow[]>;
  findAvatarsOfUser(userId: string): Promise<AvatarRow[]>;
  /** The chats the user is a member of, in the order they joined them. */
  findMembershipsOfUser(userId: string): Promise<MembershipRow[]>;
  /** Every message the user wrote, in any chat, oldest first. */
  findMessagesOfAuthor(userId: string): Promise<MessageRow[]>;
  /** The earlier texts of the user's messages (not the current ones), by message then n. */
  findRevisionsOfAuthor(userId: string): Promise<RevisionOfMessageRow[]>;
  /** Every reaction the user made, oldest first. */
  findReactionsOfUser(userId: string): Promise<ReactionOfUserRow[]>;
  /** Every invite the user made, revoked and used up ones too, oldest first. */
  findInvitesOfUser(userId: string): Promise<InviteRow[]>;
  /** The user row and whatever still hangs on it (sessions, avatars, memberships): call after moving their chats and messages. */
  deleteUser(id: string): Promise<void>;
  /**
   * Keeps the row only as the author of the messages left behind: its login freed (set to one no sign-up can
   * take), password, avatars, sessions and invites gone, erasedAt set, so every read of users leaves it out.
   */
  eraseUserKeepingRow(id: string, erasedAt: number): Promise<void>;
}

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

/** The event log (docs/protocol.md §9.1): appended in the transaction of its change, read by id. */
export interface EventRepository {
  /** Only through a Tx: the event commits or rolls back with the change it describes. Answers its id. */
  append(event: NewEvent): Promise<number>;
  /** Events with an id above afterId, in id order, at most limit. */
  readAfter(afterId: number, limit: number): Promise<EventRecord[]>;
  /** Events of these types with an id in (afterId, throughId], in id order (the hub's walk back to a resume point). */
  readTypesBetween(afterId: number, throughId: number, types: readonly string[]): Promise<EventRecord[]>;
  /** Only through a Tx, with the event that removes them: deletes the earlier events the purge names; answers how many. */
  purge(purge: EventPurge): Promise<number>;
  /** The highest id ever given (0 for none), even when every event was pruned. */
  newestId(): Promise<number>;
  /** The highest id pruned so far: a resume id below it may have missed events. */
  prunedThrough(): Promise<number>;
  chatIdsOfUser(userId: string): Promise<string[]>;
  /** Deletes at most `chunk` of the oldest events created before cutoff, in its own transaction; answers how many. */
  pruneChunk(cutoff: number, chunk: number): Promise<number>;
}

/**
 * Files of messages (docs/protocol.md §15). A content is written in chunks as it arrives (startContent, appendChunks,
 * each its own short write, so an upload never holds the database), then finished under its sha256: identical bytes
 * are stored once, and a content goes with the last attachment that refers to it (the backends' triggers).
 */
export interface AttachmentRepository {
  /** A new content that receives chunks; it has no sha256 and no reference yet. */
  startContent(contentId: string, chunkBytes: number, createdAt: number): Promise<void>;
  /** Chunks first, first + 1, ... of a started content (numbered from 0), in one write: one commit, one sync. */
  appendChunks(contentId: string, first: number, chunks: readonly Buffer[]): Promise<void>;
  /**
   * Only through a Tx, with the insertAttachment that refers to it: the content is complete. Answers the id under
   * which these bytes are stored: this one's, or an earlier content's with the same sha256 (this copy is then dropped).
   */
  finishContent(contentId: string, sha256: string, size: number): Promise<string>;
  /** An upload that failed: its chunks go (only a content no attachment refers to). */
  dropContent(contentId: string): Promise<void>;
  /** Chunk n of a content, or undefined when it is gone (its last reference was deleted meanwhile). */
  readChunk(contentId: string, n: number): Promise<Buffer | undefined>;
  insertAttachment(row: Omit<AttachmentRow, 'messageId' | 'chunkBytes'>): Promise<void>;
  findAttachment(id: string): Promise<AttachmentRow | undefined>;
  /** The attachments among these ids, in the order of the ids (unknown ids are left out). */
  findAttachments(ids: readonly string[]): Promise<AttachmentRow[]>;
  /** Gives unused attachments to a message, in the order given; answers how many were unused and taken. */
  attachToMessage(messageId: string, ids: readonly string[]): Promise<number>;
  /** The bytes of every attachment the user uploaded that still exists (the quota, --attachment-quota). */
  bytesUsedBy(userId: string): Promise<number>;
  /** Unused uploads made before cutoff, and contents whose upload never finished by then; answers how many attachments went. */
  deleteUnused(cutoff: number): Promise<number>;
  /**
   * Account erasure (docs/protocol.md §13): every attachment the user uploaded goes (so do contents nobody else
   * refers to), and their messages show none any more. Answers how many attachments went.
   */
  deleteUserAttachments(userId: string): Promise<number>;
}

/** Fixed-window counters (rate limits, failed logins): shared by every process that shares the database. */
export interface RateCounterRepository {
  /** Counts one hit on `key` and answers the window it fell in; a new window starts when the last one ended. */
  hit(key: string, windowMs: number, now: number): Promise<{ count: number; resetAt: number }>;
  /** The hits of the key's current window (0 when it has none or it ended), counting none. */
  count(key: string, now: number): Promise<number>;
  /** Takes back one hit of the current window (a request that turned out not to count). */
  undo(key: string): Promise<void>;
  /** Forgets the key's window (a successful login clears its failures). */
  clear(key: string): Promise<void>;
}

/** The repositories, as one transaction or the store itself sees them. */
export interface Repositories {
  readonly users: UserRepository;
  readonly sessions: SessionRepository;
  readonly avatars: AvatarRepository;
  readonly chats: ChatRepository;
  readonly messages: MessageRepository;
  readonly readMarkers: ReadMarkerRepository;
  readonly reactions: ReactionRepository;
  readonly revisions: RevisionRepository;
  readonly collections: CollectionRepository;
  readonly events: EventRepository;
  readonly accounts: AccountRepository;
  readonly invites: InviteRepository;
  readonly audit: AuditRepository;
  readonly outbound: OutboundRepository;
  readonly integrations: IntegrationRepository;
  readonly push: PushRepository;
  readonly attachments: AttachmentRepository;
}

/** The repositories bound to one open transaction: valid only until its work's promise settles. */
export type Tx = Repositories;

export interface Store extends Repositories {
  /** Outside any transaction and not undone by a rollback (a limit counts even a request that failed). */
  readonly rateCounters: RateCounterRepository;
  /**
   * Runs work in one transaction: all of it commits, or (when work rejects) none of it, events included. A
   * read outside it never sees its uncommitted writes; transactions never interleave. Work must use `tx`.
   */
  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  /**
   * Like transaction, but may share one commit with other writes of the moment (group commit, for message
   * posts): resolves only after the shared COMMIT, and a rejecting work undoes only its own changes.
   */
  writeTogether<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  /** Runs reads in one consistent snapshot (other processes may write meanwhile); nothing may be written. */
  snapshot<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  /** Finishes queued writes, then closes; later calls reject. */
  close(): Promise<void>;
  /**
   * Carries a payload (at most 7,900 bytes) to every other server on this database, to the `onBroadcast` each was
   * opened with, within the second (PostgreSQL: a NOTIFY on a second channel); nothing is stored and a server not
   * listening at that moment never hears it. Undefined for SQLite: a file on one host, whose processes (--workers) the
   * primary relays between (src/workers.ts). The ephemeral bus rides on it (events/ephemeral-bus.ts).
   */
  readonly broadcast: ((payload: string) => Promise<void>) | undefined;
  /** What opening the database did that its operator should hear of (an upgrade that made an admin): printed at start. */
  readonly notices: readonly string[];
  /**
   * One request's reads, kept between requests while the database is unchanged (storage/read-through.ts): `safe`
   * for GET and HEAD, the only ones that keep or find anything. A store that cannot tell whether anything was
   * written (PostgreSQL) makes every read.
   */
  keptReads(safe: boolean): KeptReads;
  /**
   * Why writes are refused since the last one was ('read-only', 'full'); undefined while they are not, which is
   * the usual case and costs nothing to ask. Cleared only by checkWrites.
   */
  readonly writesRefused: WriteRefusal | undefined;
  /**
   * After a refusal, commits one real write of a value the database already holds (docs/operations.md, "When the
   * database refuses writes") and answers writesRefused as it then stands: undefined once space or permission is back.
   */
  checkWrites(): Promise<WriteRefusal | undefined>;
}

/**
 * The database cannot be reached right now (a PostgreSQL server restarting, a connection cut): the request fails
 * with 503 and Retry-After instead of 500, and the next one may well succeed (the pool reconnects by itself).
 */
export class StoreUnavailableError extends Error {
  override name = 'StoreUnavailableError';
}

/** Why the database refuses writes: its file or server is read-only, or it has no space left. */
export type WriteRefusal = 'read-only' | 'full';

/**
 * The database refused a write for a reason an operator must fix (a read-only file or server, a full disk):
 * the request fails with 503 and its own problem code, not 500; nothing was changed.
 */
export class StoreWriteRefusedError extends Error {
  override name = 'StoreWriteRefusedError';

  readonly reason: WriteRefusal;

  constructor(reason: WriteRefusal, message: string, options?: ErrorOptions) {
    super(message, options);
    this.reason = reason;
  }
}
