// The newest-first page of a search without sorting every match (docs/performance.md, "Search at scale"). FTS5 hands
// out the message matches by seq, newest first and without a sorter; results are ordered by createdAt then id, which
// seq follows only nearly. Each message carries newest_so_far (sql/migrations/020-search-newest-first.sql): no
// message at or below its seq was created later. So once the page's oldest match is newer than the newest_so_far of
// the next match, nothing further on can enter the page, and the walk stops: about a page of matches read, whatever
// the number of matches.
import type { ParsedQuery } from '../../parsers/query.ts';
import type { SearchHit } from '../rows.ts';

/** A message match as the walk reads it: a hit and the newest createdAt at or below its seq (null: not known). */
export interface MessageMatch extends SearchHit {
  newestSoFar: number | null;
}

/** Whether a search's order is the default one, newest first (createdAt then id, descending: docs/protocol.md §5). */
export function isNewestFirst(query: Pick<ParsedQuery, 'sort'>): boolean {
  const [key, ...more] = query.sort;
  return key !== undefined && more.length === 0 && key.field.name === 'createdAt' && key.direction === 'DESC';
}

/** Negative when `a` comes first: newer createdAt, then the greater id (SQL's binary order of ASCII ids). */
function compareNewestFirst(a: SearchHit, b: SearchHit): number {
  if (a.createdAt !== b.createdAt) return b.createdAt - a.createdAt;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

/**
 * The `wanted` newest of `matches` (read by seq, newest first), in order. A match whose newest_so_far is older than
 * the page's oldest, when the page is full, ends the walk: it and every match after it are older still. Ties keep
 * walking (an older seq may hold the same createdAt with a greater id).
 */
export function takeNewestMessages(matches: IterableIterator<MessageMatch>, wanted: number): SearchHit[] {
  const page: SearchHit[] = [];
  if (wanted === 0) return page;
  for (const match of matches) {
    // Leaving the loop ends the statement (for-of calls the iterator's return).
    if (page.length === wanted && match.newestSoFar !== null && page[wanted - 1]!.createdAt > match.newestSoFar) break;
    insertInOrder(page, { type: match.type, id: match.id, chatId: match.chatId, createdAt: match.createdAt, updatedAt: match.updatedAt }, wanted);
  }
  return page;
}

/** Puts `hit` in its place in `page` (sorted newest first), keeping at most `wanted`; matches come nearly in order, so from the end. */
function insertInOrder(page: SearchHit[], hit: SearchHit, wanted: number): void {
  let at = page.length;
  while (at > 0 && compareNewestFirst(hit, page[at - 1]!) < 0) at -= 1;
  if (at >= wanted) return;
  page.splice(at, 0, hit);
  if (page.length > wanted) page.pop();
}

/** Two lists, each newest first, as one. */
export function mergeNewestFirst(a: readonly SearchHit[], b: readonly SearchHit[]): SearchHit[] {
  const merged: SearchHit[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) merged.push(compareNewestFirst(a[i]!, b[j]!) <= 0 ? a[i++]! : b[j++]!);
  while (i < a.length) merged.push(a[i++]!);
  while (j < b.length) merged.push(b[j++]!);
  return merged;
}
