// A route's kept reply (Route.keep, docs/performance.md "Kept reads"): held by the store's kept reads
// (storage/read-through.ts) under a key made of everything the reply depends on, and frozen once kept, since
// every request that finds it answers with that one object.
import type { Reply, RequestContext, RequestKept, Route } from './context.ts';
import type { KeptValueKind, Store } from '../storage/store.ts';

/** One request's kept reads: GET and HEAD find and keep, and keep their reply if the route says it may be kept. */
export function keptReadsFor(storage: Store, method: string, route: Pick<Route, 'keep'>): RequestKept {
  const safe = method === 'GET' || method === 'HEAD';
  return { reads: storage.keptReads(safe), reply: safe ? route.keep : undefined };
}

/**
 * What a kept reply depends on: the path and the query, the caller for a 'per-caller' one, and whether it is
 * HTML (a handler may build a person's page differently: a chat opens on its newest messages), while JSON and
 * XML are two renderings of one reply. A 'shared' one leaves the caller out: its handler checks access first.
 */
function keyOf(ctx: RequestContext, kind: KeptValueKind): string {
  const key = `${ctx.mediaType === 'text/html' ? 'html ' : ''}${ctx.path}?${ctx.rawQuery}`;
  return kind === 'per-caller' ? `${key} ${ctx.caller?.userId ?? ''}` : key;
}

/** Makes a value and everything it holds unchangeable (functions and byte arrays aside: neither is changed). */
export function freezeDeep(value: unknown): void {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value) || ArrayBuffer.isView(value)) return;
  Object.freeze(value);
  for (const key of Object.keys(value)) freezeDeep((value as Record<string, unknown>)[key]);
}

/**
 * A reply is kept when it has a representation (not a problem): marked shared, so http/send.ts renders and tags
 * it once per media type for every request that finds it, and frozen, so that no request can change it for the
 * others (an HTML page's context is added to a copy: pipeline/decorate-page.ts).
 */
function keptAsShared(reply: Reply | undefined): boolean {
  const rep = reply?.representation;
  if (rep === undefined || rep.kind === 'problem') return false;
  rep.shared = true;
  freezeDeep(reply);
  return true;
}

/** `read()`'s reply, found kept or kept as the route's `keep` says; just read for a write or a route that keeps nothing. */
export function keptReply<R extends Reply | undefined>(ctx: RequestContext, read: () => Promise<R>): Promise<R> {
  const kind = ctx.kept.reply;
  if (kind === undefined) return read();
  if (kind === 'per-caller') return ctx.kept.reads.keep(kind, keyOf(ctx, kind), read, keptAsShared);
  // A 'shared' route's path names its chat: the reply is kept while that chat's messages and members hold.
  const chatId = ctx.params['chatId'];
  if (chatId === undefined) throw new Error(`kept reply: a 'shared' route without a chat in its path: ${ctx.path}`);
  return ctx.kept.reads.keepInChat(chatId, keyOf(ctx, kind), read, keptAsShared);
}
