// Reads kept while the database is unchanged (issue #22), honestly: an entry holds while the database's change
// stamp (Store.changeStamp: SQLite's total_changes + data_version) is the one read before the entry's rows were,
// so a write of any kind (a post, an edit, a delete, a reaction, a member change, a logout, a new password,
// anything else), by this process or another (--workers), retires every entry at once.
//
// A request reads the stamp once, the first time it asks (KeptReads.forRequest), and every read it keeps or
// finds is checked against that one stamp: a request answered from kept entries sees the database as it was
// when it began, never older. A backend without a stamp (PostgreSQL) keeps nothing: every read is made.
//
// What is kept, each under its own limit: the session of a token (hot: every authenticated request), a
// caller's membership of a chat, a chat as one caller reads it, and history pages (the same for every member:
// the membership is checked on every request before the page). Only safe requests (GET, HEAD) keep or find
// anything: a write reads what it changes itself. A kept value is shared by the requests that find it, so it
// is never changed once kept; a kept representation is marked shared, so http/send.ts renders it and hashes
// its ETag once per media type.
import type { Reply } from '../http/reply.ts';
import type { Store } from '../storage/store.ts';

/** Entries kept per kind; a history page of 50 with its renderings is ~60 KiB, a session or membership a few hundred bytes. */
const LIMITS = { session: 4096, member: 4096, chat: 1024, page: 64 } as const;

export type KeptKind = keyof typeof LIMITS;

class KeptEntries {
  private readonly kinds = new Map<KeptKind, Map<string, unknown>>();
  private stampSeen: string | undefined;

  /** Forgets everything when `stamp` is not the one the entries were read under. */
  private current(stamp: string): boolean {
    if (stamp === this.stampSeen) return true;
    // Anything written since: nothing kept is known current any more.
    this.kinds.clear();
    this.stampSeen = stamp;
    return false;
  }

  get(stamp: string, kind: KeptKind, key: string): unknown {
    return this.current(stamp) ? this.kinds.get(kind)?.get(key) : undefined;
  }

  set(stamp: string, kind: KeptKind, key: string, value: unknown): void {
    // Read under a stamp that is no longer the newest seen: it may be older than what others have found since.
    if (stamp !== this.stampSeen) return;
    let entries = this.kinds.get(kind);
    if (!entries) this.kinds.set(kind, entries = new Map());
    if (entries.size >= LIMITS[kind]) entries.delete(entries.keys().next().value!);
    entries.set(key, value);
  }
}

const stores = new WeakMap<Store, KeptEntries>();

/** One request's way to the kept reads. */
export interface KeptReads {
  /**
   * `read()`'s answer for `key`, kept if `keepable` says so (default: any value but undefined). `read` must
   * depend on nothing but the database and the key.
   */
  keep<T>(kind: KeptKind, key: string, read: () => Promise<T>, keepable?: (value: T) => boolean): Promise<T>;
}

/** Every read made, nothing kept: writes, and backends without a change stamp. */
const READ_THROUGH: KeptReads = { keep: (_kind, _key, read) => read() };

const isDefined = (value: unknown): boolean => value !== undefined;

/**
 * The `keepable` of a reply (a chat, a history page): kept when it has a representation, which is then marked
 * shared, so every request that finds it gets the one rendering http/send.ts made for its media type.
 */
export function keptAsShared(reply: Reply | undefined): boolean {
  const rep = reply?.representation;
  if (rep === undefined || rep.kind === 'problem') return false;
  rep.shared = true;
  return true;
}

/** A GET's or HEAD's kept reads on a store with a change stamp: the stamp read once, at the first ask. */
class StampedReads implements KeptReads {
  private stamp: Promise<string | undefined> | undefined;

  constructor(private readonly storage: Store & Required<Pick<Store, 'changeStamp'>>, private readonly kept: KeptEntries) {}

  async keep<T>(kind: KeptKind, key: string, read: () => Promise<T>, keepable: (value: T) => boolean = isDefined): Promise<T> {
    // Read before anything it validates: if a write comes meanwhile, a kept value is newer than its stamp, never older.
    const seen = await (this.stamp ??= this.storage.changeStamp());
    if (seen === undefined) return read();
    const found = this.kept.get(seen, kind, key);
    if (found !== undefined) return found as T;
    const value = await read();
    if (keepable(value)) this.kept.set(seen, kind, key, value);
    return value;
  }
}

export const KeptReads = {
  /** The kept reads for one request: `safe` for GET and HEAD, the only ones that keep or find anything. */
  forRequest(storage: Store, safe: boolean): KeptReads {
    if (!safe || !storage.changeStamp) return READ_THROUGH;
    let entries = stores.get(storage);
    if (!entries) stores.set(storage, entries = new KeptEntries());
    return new StampedReads(storage as Store & Required<Pick<Store, 'changeStamp'>>, entries);
  },
};
