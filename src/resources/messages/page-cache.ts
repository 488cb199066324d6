// Hot history pages answered again without reading or rendering them again (issue #22), honestly: an entry holds
// while the database's change stamp is the one read before its rows were (storage.changeStamp), so a write of any
// kind (a post, an edit, a delete, a reaction, a member change, anything else), by this process or another
// (--workers), retires every entry. A page holds nothing of the caller's own (the membership is checked on every
// request, before the cache), so one entry serves every member. Its representation is marked shared, so
// http/send.ts renders it and hashes its ETag once per media type.
import type { Reply } from '../../http/context.ts';
import type { Storage } from '../../storage/storage.ts';

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

const caches = new WeakMap<Storage, PageCache>();

/**
 * The page for `key` (the chat and the request's query) if nothing was written since it was read; else reads it
 * with `read` and keeps it. `read` must answer the same for every member of the chat and depend on nothing else
 * than the database, the chat and the key.
 */
export function cachedPage(storage: Storage, key: string, read: () => Reply): Reply {
  const stamp = storage.changeStamp();
  if (stamp === undefined) return read();
  let cache = caches.get(storage);
  if (!cache) {
    cache = new PageCache();
    caches.set(storage, cache);
  }
  const kept = cache.get(stamp, key);
  if (kept) return kept;
  const reply = read();
  if (reply.representation?.kind === 'collection') {
    reply.representation.shared = true;
    cache.set(stamp, key, reply);
  }
  return reply;
}
