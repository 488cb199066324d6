// How far a search counts its matches (docs/protocol.md §5), the same on every backend.
import type { ParsedQuery } from '../parsers/query.ts';

/** Matches counted past the end of the page: enough for a client to show "1,000+" and for every next link. */
export const SEARCH_COUNTED_PAST_PAGE = 1000;

/**
 * meta.total of a search counts at most this many matches: exact below it, and when it is reached the total says
 * "at least this many", which still exceeds offset + limit whenever a next page exists (its Link stays right).
 */
export function searchCountLimit(query: Pick<ParsedQuery, 'offset' | 'limit'>): number {
  return query.offset + query.limit + SEARCH_COUNTED_PAST_PAGE;
}
