// The read-through layer of a store (docs/performance.md, "Kept reads"): what a GET or HEAD reads is kept while
// the database's change stamp holds (SQLite: total_changes + data_version; PostgreSQL: counters its triggers bump,
// sql/postgres/014-change-stamp.sql), so a write of any kind, by this process or another (--workers, another
// server), retires every entry at once. Owned by its store: made when the store opens, dropped when it closes; a
// store that cannot tell whether anything was written keeps nothing.
//
// A request reads the stamp once, the first time it asks, and every read it keeps or finds is checked against
// that one stamp: a request answered from kept entries sees the database as it was when it began, never older.
// Only safe requests (GET, HEAD) keep or find anything: a write reads what it changes itself. A kept value is
// shared by the requests that find it, so it is never changed once kept: rows are frozen here, the values of
// the layers above by their own `keepable`.
import { KeptEntries, type KeptKind } from './kept-entries.ts';
import type { KeptReads, KeptValueKind } from './kept-reads.ts';
import type { ChatAccess, Repositories, SessionRow } from './store.ts';

export type { KeptReads } from './kept-reads.ts';

/**
 * A value that changes whenever anything may have been written since it was last read; undefined while it
 * cannot tell (inside a transaction). What was read after a stamp is current while the stamp is the same.
 */
export type ChangeStamp = () => Promise<string | undefined>;

/** A row is kept when there is one; frozen, since every request that finds it gets this one object. */
function keptRow(row: object | undefined): boolean {
  if (row === undefined) return false;
  Object.freeze(row);
  return true;
}

/** Every read made, nothing kept: writes, and stores without a change stamp. */
class ReadsMade implements KeptReads {
  private readonly store: Repositories;

  constructor(store: Repositories) {
    this.store = store;
  }

  findSessionByTokenHash(tokenHash: Buffer): Promise<SessionRow | undefined> {
    return this.store.sessions.findSessionByTokenHash(tokenHash);
  }

  findChatForMember(chatId: string, userId: string): Promise<ChatAccess | undefined> {
    return this.store.chats.findChatForMember(chatId, userId);
  }

  keep<T>(_kind: KeptValueKind, _key: string, read: () => Promise<T>): Promise<T> {
    return read();
  }
}

/** A GET's or HEAD's reads on a store with a change stamp: the stamp read once, at the first ask. */
class StampedReads implements KeptReads {
  private stamp: Promise<string | undefined> | undefined;

  private readonly store: Repositories;
  private readonly entries: KeptEntries;
  private readonly changeStamp: ChangeStamp;

  constructor(store: Repositories, entries: KeptEntries, changeStamp: ChangeStamp) {
    this.store = store;
    this.entries = entries;
    this.changeStamp = changeStamp;
  }

  findSessionByTokenHash(tokenHash: Buffer): Promise<SessionRow | undefined> {
    return this.find('session', tokenHash.toString('latin1'), () => this.store.sessions.findSessionByTokenHash(tokenHash), keptRow);
  }

  findChatForMember(chatId: string, userId: string): Promise<ChatAccess | undefined> {
    return this.find('member', `${chatId} ${userId}`, () => this.store.chats.findChatForMember(chatId, userId), keptRow);
  }

  keep<T>(kind: KeptValueKind, key: string, read: () => Promise<T>, keepable: (value: T) => boolean): Promise<T> {
    return this.find(kind, key, read, keepable);
  }

  private async find<T>(kind: KeptKind, key: string, read: () => Promise<T>, keepable: (value: T) => boolean): Promise<T> {
    // Read before anything it validates: if a write comes meanwhile, a kept value is newer than its stamp, never older.
    const seen = await (this.stamp ??= this.changeStamp());
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
  private readonly changeStamp: ChangeStamp | undefined;

  /** `changeStamp` undefined: the store cannot tell whether anything was written, and every read is made. */
  constructor(store: Repositories, changeStamp: ChangeStamp | undefined) {
    this.store = store;
    this.changeStamp = changeStamp;
    this.entries = changeStamp === undefined ? undefined : new KeptEntries();
    this.made = new ReadsMade(store);
  }

  /** The reads of one request: `safe` for GET and HEAD, the only ones that keep or find anything. */
  forRequest(safe: boolean): KeptReads {
    return safe && this.entries !== undefined ? new StampedReads(this.store, this.entries, this.changeStamp!) : this.made;
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
