// Hot history pages answered again without reading or rendering them again (issue #22), honestly: an entry holds
// while the database's change stamp is the one read before its rows were (Store.changeStamp), so a write of any
// kind (a post, an edit, a delete, a reaction, a member change, anything else), by this process or another
// (--workers), retires every entry. A page holds nothing of the caller's own (the membership is checked on every
// request, before the cache), so one entry serves every member. Its representation is marked shared, so
// http/send.ts renders it and hashes its ETag once per media type.
import type { Reply } from '../../http/reply.ts';
import type { Store } from '../../storage/store.ts';

/**
 * Pages kept per storage: the hot chats and their query variants. A page of 50 holds its rows (~30 KiB) and its
 * renderings (~15 KiB each for JSON, more for HTML), so at most a few MiB in all.
 */
const MAX_ENTRIES = 64;

class PageCache {
  private readonly entries = new Map<string, Reply>();
  private stampSeen: string | undefined;

  get(stamp: string, key: string): Reply | undefined {
    if (stamp !== this.stampSeen) {
      // Anything written since: nothing kept is known current any more.
      this.entries.clear();
      this.stampSeen = stamp;
      return undefined;
    }
    return this.entries.get(key);
  }

  set(stamp: string, key: string, reply: Reply): void {
    if (stamp !== this.stampSeen) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, reply);
  }
}

const caches = new WeakMap<Store, PageCache>();

/**
 * The page for `key` (the chat's path and the request's query) if nothing was written since it was read; else
 * reads it with `read` and keeps it. `read` must answer the same for every member of the chat and depend on
 * nothing but the database, the path and the query. A backend without a change stamp keeps nothing.
 */
export async function cachedPage(storage: Store, key: string, read: () => Promise<Reply>): Promise<Reply> {
  const stamp = storage.changeStamp ? await storage.changeStamp() : undefined;
  if (stamp === undefined) return read();
  let cache = caches.get(storage);
  if (!cache) {
    cache = new PageCache();
    caches.set(storage, cache);
  }
  const kept = cache.get(stamp, key);
  if (kept) return kept;
  // Read after the stamp: if anything is written meanwhile, the page is newer than its stamp, never older.
  const reply = await read();
  if (reply.representation?.kind === 'collection') {
    reply.representation.shared = true;
    cache.set(stamp, key, reply);
  }
  return reply;
}
