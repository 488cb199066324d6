// The entries one store keeps between requests (docs/performance.md, "Kept reads"), by kind, each kind under its
// own limit. Most are valid for one change stamp of the whole database: a stamp other than the one they were read
// under retires all of them at once. A page of a chat's history and a membership are kept per chat instead, each
// under the version of its chat's messages (a page) or members (a membership) it was read under: a write elsewhere
// leaves it, a write to what it shows makes that version old. A session is kept under the version of the sessions,
// where the store has one.

/**
 * Entries kept per kind; a history page of 50 with its renderings is ~60 KiB, a session a few hundred bytes (one for
 * each person at work: as many as the streams one process holds), the members of one chat (kept by chat: the members
 * found so far, one id each) a few KiB at most. Sized for what a busy server reads (docs/performance.md, "Kept
 * reads"): 15,000 people read over 750 team chats and thousands of direct ones.
 */
export const KEPT_LIMITS = { session: 20_000, member: 16384, 'per-caller': 1024, shared: 1024 } as const;

/**
 * What is kept: rows (a token's session, a caller's membership of a chat) and values of the layers above, opaque
 * here: one made for one caller ('per-caller', e.g. a chat with the caller's read marker) or the same for every
 * member of one chat ('shared', e.g. a page of a chat's history).
 */
export type KeptKind = keyof typeof KEPT_LIMITS;

/** A chat's members found so far under one version of its members, and what each of them was answered: one access. */
interface KeptMembers {
  version: string;
  access: unknown;
  userIds: Set<string>;
}

export class KeptEntries {
  private readonly kinds = new Map<KeptKind, Map<string, unknown>>();
  private readonly pages = new Versioned(KEPT_LIMITS.shared);
  private readonly members = new Map<string, KeptMembers>();
  private readonly sessions = new Versioned(KEPT_LIMITS.session);
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
    // Oldest out first: a Map iterates in insertion order.
    if (entries.size >= KEPT_LIMITS[kind]) entries.delete(entries.keys().next().value!);
    entries.set(key, value);
  }

  /** What was kept for `key` under `version` of its chat's messages; a hit becomes the newest, so what is read often stays. */
  getInChat(key: string, version: string): unknown {
    return this.pages.get(key, version);
  }

  /** Keeps a value read under `version` of its chat's messages, in place of whatever was kept for the key. */
  setInChat(key: string, version: string, value: unknown): void {
    this.pages.set(key, version, value);
  }

  /** A member's access to a chat, found under `version` of its members. */
  getMember(chatId: string, userId: string, version: string): unknown {
    const entry = this.members.get(chatId);
    if (entry === undefined || entry.version !== version || !entry.userIds.has(userId)) return undefined;
    newest(this.members, chatId, entry);
    return entry.access;
  }

  /** Keeps a member's access read under `version` of the chat's members; every member of the chat shares one. */
  setMember(chatId: string, userId: string, version: string, access: unknown): void {
    let entry = this.members.get(chatId);
    if (entry === undefined || entry.version !== version) {
      this.members.delete(chatId);
      evictFor(this.members, KEPT_LIMITS.member);
      this.members.set(chatId, entry = { version, access, userIds: new Set() });
    }
    entry.userIds.add(userId);
  }

  /** The session a token's hash names, found under `version` of the sessions; a hit becomes the newest. */
  getSession(key: string, version: string): unknown {
    return this.sessions.get(key, version);
  }

  /** Keeps a session read (or used) under `version` of the sessions, in place of whatever was kept for the key. */
  setSession(key: string, version: string, row: unknown): void {
    this.sessions.set(key, version, row);
  }

  /** How many entries of a kind are kept (tests of the limits). */
  size(kind: KeptKind): number {
    if (kind === 'shared') return this.pages.size;
    if (kind === 'member') return this.members.size;
    if (kind === 'session') return this.sessions.size + (this.kinds.get(kind)?.size ?? 0);
    return this.kinds.get(kind)?.size ?? 0;
  }

  /** Drops everything: the store closes, or cannot tell any more what was written. */
  clear(): void {
    this.kinds.clear();
    this.pages.clear();
    this.members.clear();
    this.sessions.clear();
    this.stampSeen = undefined;
  }
}

/** Values each kept under the version it was read under, the least recently found out first past `limit`. */
class Versioned {
  private readonly entries = new Map<string, { version: string; value: unknown }>();
  private readonly limit: number;

  constructor(limit: number) {
    this.limit = limit;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The value kept for `key` under `version`; a hit becomes the newest, so what is read often stays. */
  get(key: string, version: string): unknown {
    const entry = this.entries.get(key);
    if (entry === undefined || entry.version !== version) return undefined;
    newest(this.entries, key, entry);
    return entry.value;
  }

  /** Keeps `value` under `version`, in place of whatever was kept for the key. */
  set(key: string, version: string, value: unknown): void {
    this.entries.delete(key);
    evictFor(this.entries, this.limit);
    this.entries.set(key, { version, value });
  }

  clear(): void {
    this.entries.clear();
  }
}

/** Moves a found entry to the end, so the least recently found goes first (a Map iterates in insertion order). */
function newest<V>(entries: Map<string, V>, key: string, entry: V): void {
  entries.delete(key);
  entries.set(key, entry);
}

/** Makes room for one more entry under `limit`: the least recently found goes. */
function evictFor(entries: Map<string, unknown>, limit: number): void {
  if (entries.size >= limit) entries.delete(entries.keys().next().value!);
}
