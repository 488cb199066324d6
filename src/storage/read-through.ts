// The read-through layer of a store (docs/performance.md, "Kept reads"): what a GET or HEAD reads is kept while
// the database's change stamp holds (SQLite: total_changes + data_version; PostgreSQL: counters its triggers bump,
// sql/postgres/014-change-stamp.sql), so a write of any kind, by this process or another (--workers, another
// server), retires every entry at once. A page of one chat's history and a membership are kept under a version of
// that chat's messages or of its members instead, which triggers move with exactly those writes
// (sql/migrations/022-chat-versions.sql): a busy server writes all the time, mostly elsewhere. A token's session is
// kept under a version of the sessions where the store has one (SQLite: sql/migrations/024-session-version.sql),
// which moves when a session ends or its user is deactivated, not when one is used. Owned by its store:
// made when the store opens, dropped when it closes; a store that cannot tell whether anything was written keeps
// nothing.
//
// A request reads the stamp once, the first time it asks, and each chat's versions once, the first time it asks
// about that chat; every read it keeps or finds is checked against those: a request answered from kept entries
// sees the database as it was when it began, never older.
// Safe requests (GET, HEAD) keep and find everything; a write, which reads what it changes itself, only the
// memberships it checks. A kept value is shared by the requests that find it, so it is never changed once kept:
// rows are frozen here, the values of the layers above by their own `keepable`.
import { KeptEntries, type KeptKind } from './kept-entries.ts';
import type { KeptReads } from './kept-reads.ts';
import type { ChatAccess, Repositories, SessionRow } from './store.ts';

export type { KeptReads } from './kept-reads.ts';

/**
 * A value that changes whenever anything may have been written since it was last read; undefined while it
 * cannot tell (inside a transaction). What was read after a stamp is current while the stamp is the same.
 */
export type ChangeStamp = () => Promise<string | undefined>;

/**
 * A chat's two versions: of its messages, and of its members (who they are, and the chat's owner). Each changes
 * whenever what it covers is written, and never comes back to an earlier value, even for a chat made again under
 * the same id; undefined for no such chat, or inside a transaction. What was read about the chat's messages (or
 * members) after a version is current while that version is the same.
 */
export type ChatVersion = (chatId: string) => Promise<ChatVersions | undefined>;

export interface ChatVersions {
  messages: string;
  members: string;
}

/**
 * A value that changes whenever a session may have ended or changed but for its use (its idle expiry, when it was
 * last used), or its user was deactivated; undefined inside a transaction.
 */
export type SessionVersion = () => Promise<string | undefined>;

/** How a store tells what was written: everything at once, one chat's shared content, and (if it can) the sessions. */
export interface Stamps {
  change: ChangeStamp;
  chat: ChatVersion;
  sessions?: SessionVersion;
}

/** A row is kept when there is one; frozen, since every request that finds it gets this one object. */
function keptRow(row: object | undefined): boolean {
  if (row === undefined) return false;
  Object.freeze(row);
  return true;
}

/** Every read made, nothing kept: stores without stamps (and closed ones). */
class ReadsMade implements KeptReads {
  private readonly store: Repositories;

  constructor(store: Repositories) {
    this.store = store;
  }

  findSessionByTokenHash(tokenHash: Buffer): Promise<SessionRow | undefined> {
    return this.store.sessions.findSessionByTokenHash(tokenHash);
  }

  sessionUsed(): void {}

  findChatForMember(chatId: string, userId: string): Promise<ChatAccess | undefined> {
    return this.store.chats.findChatForMember(chatId, userId);
  }

  keep<T>(_kind: 'per-caller', _key: string, read: () => Promise<T>): Promise<T> {
    return read();
  }

  keepInChat<T>(_chatId: string, _key: string, read: () => Promise<T>): Promise<T> {
    return read();
  }
}

/**
 * A request's reads on a store with stamps: the change stamp read once, at the first ask, each chat's versions and
 * the sessions' version likewise. A GET or HEAD finds and keeps everything; a write only memberships and sessions,
 * which it checks and never changes: checked against a version read now, a kept one is what reading the row would
 * answer (a session's use aside, see findSessionByTokenHash).
 */
class StampedReads implements KeptReads {
  private stamp: Promise<string | undefined> | undefined;
  private readonly versions = new Map<string, Promise<ChatVersions | undefined>>();
  private sessionVersion: Promise<string | undefined> | undefined;
  /** The sessions' version this request found its session under, once it did. */
  private sessionsSeen: string | undefined;

  private readonly store: Repositories;
  private readonly entries: KeptEntries;
  private readonly stamps: Stamps;
  private readonly safe: boolean;

  constructor(store: Repositories, entries: KeptEntries, stamps: Stamps, safe: boolean) {
    this.store = store;
    this.entries = entries;
    this.stamps = stamps;
    this.safe = safe;
  }

  async findSessionByTokenHash(tokenHash: Buffer, now: number): Promise<SessionRow | undefined> {
    const read = () => this.store.sessions.findSessionByTokenHash(tokenHash);
    const key = tokenHash.toString('latin1');
    if (this.stamps.sessions === undefined) return this.safe ? this.find('session', key, read, keptRow) : read();
    const seen = await (this.sessionVersion ??= this.stamps.sessions());
    if (seen === undefined) return read();
    this.sessionsSeen = seen;
    const found = this.entries.getSession(key, seen) as SessionRow | undefined;
    // A session's use moves its expiry without moving the version: one that expired as kept may have been used
    // since (by another process), so it is read again before it is refused.
    if (found !== undefined && found.expiresAt > now) return found;
    const row = await read();
    if (keptRow(row)) this.entries.setSession(key, seen, row);
    return row;
  }

  sessionUsed(tokenHash: Buffer, used: SessionRow): void {
    // Under the version the request found it under: if the session has ended since, that version is old already.
    if (this.sessionsSeen !== undefined) this.entries.setSession(tokenHash.toString('latin1'), this.sessionsSeen, Object.freeze({ ...used }));
  }

  async findChatForMember(chatId: string, userId: string): Promise<ChatAccess | undefined> {
    const seen = (await this.versionsOf(chatId))?.members;
    if (seen === undefined) return this.store.chats.findChatForMember(chatId, userId);
    const found = this.entries.getMember(chatId, userId, seen);
    if (found !== undefined) return found as ChatAccess;
    const access = await this.store.chats.findChatForMember(chatId, userId);
    if (keptRow(access)) this.entries.setMember(chatId, userId, seen, access);
    return access;
  }

  keep<T>(kind: 'per-caller', key: string, read: () => Promise<T>, keepable: (value: T) => boolean): Promise<T> {
    return this.safe ? this.find(kind, key, read, keepable) : read();
  }

  async keepInChat<T>(chatId: string, key: string, read: () => Promise<T>, keepable: (value: T) => boolean): Promise<T> {
    if (!this.safe) return read();
    const seen = (await this.versionsOf(chatId))?.messages;
    if (seen === undefined) return read();
    const found = this.entries.getInChat(key, seen);
    if (found !== undefined) return found as T;
    const value = await read();
    if (keepable(value)) this.entries.setInChat(key, seen, value);
    return value;
  }

  /** The chat's versions, read once a request, at its first ask about the chat: like the stamp, before what they validate. */
  private versionsOf(chatId: string): Promise<ChatVersions | undefined> {
    let versions = this.versions.get(chatId);
    if (versions === undefined) this.versions.set(chatId, versions = this.stamps.chat(chatId));
    return versions;
  }

  private async find<T>(kind: KeptKind, key: string, read: () => Promise<T>, keepable: (value: T) => boolean): Promise<T> {
    // Read before anything it validates: if a write comes meanwhile, a kept value is newer than its stamp, never older.
    const seen = await (this.stamp ??= this.stamps.change());
    if (seen === undefined) return read();
    const found = this.entries.get(seen, kind, key);
    if (found !== undefined) return found as T;
    const value = await read();
    if (keepable(value)) this.entries.set(seen, kind, key, value);
    return value;
  }
}

/** A store's kept reads, for as long as the store is open. */
export class ReadThrough {
  private entries: KeptEntries | undefined;
  private readonly made: KeptReads;

  private readonly store: Repositories;
  private readonly stamps: Stamps | undefined;

  /** `stamps` undefined: the store cannot tell whether anything was written, and every read is made. */
  constructor(store: Repositories, stamps: Stamps | undefined) {
    this.store = store;
    this.stamps = stamps;
    this.entries = stamps === undefined ? undefined : new KeptEntries();
    this.made = new ReadsMade(store);
  }

  /** The reads of one request: `safe` for GET and HEAD, which keep and find everything; a write only memberships. */
  forRequest(safe: boolean): KeptReads {
    return this.entries !== undefined ? new StampedReads(this.store, this.entries, this.stamps!, safe) : this.made;
  }

  /** How many entries of a kind are kept (tests of the limits). */
  size(kind: KeptKind): number {
    return this.entries?.size(kind) ?? 0;
  }

  /** The store closes: everything kept goes, and from now on every read is made. */
  close(): void {
    this.entries?.clear();
    this.entries = undefined;
  }
}
