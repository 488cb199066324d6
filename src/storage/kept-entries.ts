// The entries one store keeps between requests, by kind, each kind under its own limit, all of them valid for
// one change stamp only (docs/performance.md, "Kept reads"): a stamp other than the one they were read under
// retires every entry at once.

/** Entries kept per kind; a history page of 50 with its renderings is ~60 KiB, a session or membership a few hundred bytes. */
export const KEPT_LIMITS = { session: 4096, member: 4096, 'per-caller': 1024, shared: 64 } as const;

/**
 * What is kept: rows (a token's session, a caller's membership of a chat) and values of the layers above, opaque
 * here: one made for one caller ('per-caller', e.g. a chat with the caller's read marker) or the same for every
 * reader allowed to see it ('shared', e.g. a page of a chat's history).
 */
export type KeptKind = keyof typeof KEPT_LIMITS;

export class KeptEntries {
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
    // Oldest out first: a Map iterates in insertion order.
    if (entries.size >= KEPT_LIMITS[kind]) entries.delete(entries.keys().next().value!);
    entries.set(key, value);
  }

  /** How many entries of a kind are kept (tests of the limits). */
  size(kind: KeptKind): number {
    return this.kinds.get(kind)?.size ?? 0;
  }

  /** Drops everything: the store closes, or cannot tell any more what was written. */
  clear(): void {
    this.kinds.clear();
    this.stampSeen = undefined;
  }
}
