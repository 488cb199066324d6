// Splits the text a client searches for (`GET /search?q=`) into words; no character of it is ever search syntax.
import { fieldFailure, type ParseFailure } from './parse-failure.ts';

export const MAX_SEARCH_LENGTH = 1000;
export const MAX_SEARCH_TERMS = 32;

/**
 * A word starts with a letter, a digit or a private-use character and goes on with those and combining
 * marks (so "café" written with a combining acute stays one word). These are the characters SQLite's
 * unicode61 tokenizer keeps in tokens; everything else (spaces, punctuation, quotes, `*`, `:`, `(`, `-`)
 * separates words, exactly as it separates the indexed text.
 */
const WORD = /[\p{L}\p{N}\p{Co}][\p{L}\p{N}\p{M}\p{Co}]*/gu;

/** The words of `q`, in order; a missing, empty or word-less q is a 400 naming `q`. */
export function parseSearchTerms(q: string | undefined): string[] {
  if (q === undefined) throw badSearch('is required: the text to search for');
  if (q.length > MAX_SEARCH_LENGTH) throw badSearch(`must be at most ${MAX_SEARCH_LENGTH} characters`);
  const terms = q.match(WORD) ?? [];
  if (terms.length === 0) throw badSearch('must contain at least one letter or digit');
  if (terms.length > MAX_SEARCH_TERMS) throw badSearch(`may hold at most ${MAX_SEARCH_TERMS} words`);
  return terms;
}

function badSearch(message: string): ParseFailure {
  return fieldFailure('q', message, 'bad-query');
}
