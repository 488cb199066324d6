// Table-driven tests of the search text splitter: words in, never any FTS5 syntax; 400 naming q otherwise.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { ParseFailure } from '../../src/parsers/parse-failure.ts';
import { MAX_SEARCH_LENGTH, MAX_SEARCH_TERMS, parseSearchTerms } from '../../src/parsers/search-terms.ts';

const VALID: { what: string; input: string; expected: string[] }[] = [
  { what: 'one word', input: 'hello', expected: ['hello'] },
  { what: 'words split at spaces and punctuation', input: '  hello,  world!  ', expected: ['hello', 'world'] },
  { what: 'case is kept (FTS5 folds it)', input: 'HeLLo', expected: ['HeLLo'] },
  { what: 'digits are words', input: 'room 101', expected: ['room', '101'] },
  { what: 'a decimal splits at the point, as the index does', input: '3.14', expected: ['3', '14'] },
  { what: 'login punctuation separates', input: 'ann.lee_x-1', expected: ['ann', 'lee', 'x', '1'] },
  { what: 'accented letters', input: 'Crème brûlée', expected: ['Crème', 'brûlée'] },
  { what: 'a combining mark stays in its word', input: 'cafe\u0301 au lait', expected: ['cafe\u0301', 'au', 'lait'] },
  { what: 'a mark with no letter before it is dropped', input: '\u0301abc', expected: ['abc'] },
  { what: 'other scripts', input: 'Привет мир 日本語', expected: ['Привет', 'мир', '日本語'] },
  { what: 'emoji separate', input: 'tea😀time', expected: ['tea', 'time'] },
  { what: 'quotes are separators', input: '"exact phrase"', expected: ['exact', 'phrase'] },
  { what: 'a star is a separator', input: 'pre*', expected: ['pre'] },
  { what: 'NEAR( is a word and a separator', input: 'NEAR(a b, 2)', expected: ['NEAR', 'a', 'b', '2'] },
  { what: 'OR, AND and NOT are plain words', input: 'cats OR dogs AND NOT birds', expected: ['cats', 'OR', 'dogs', 'AND', 'NOT', 'birds'] },
  { what: 'a column filter is two words', input: 'title:secret', expected: ['title', 'secret'] },
  { what: 'a leading minus is a separator', input: '-excluded +required', expected: ['excluded', 'required'] },
  { what: 'a caret and braces', input: '^start {text title}: x', expected: ['start', 'text', 'title', 'x'] },
  { what: 'the longest allowed input', input: 'a '.repeat(MAX_SEARCH_TERMS).trim(), expected: Array.from({ length: MAX_SEARCH_TERMS }, () => 'a') },
];

const INVALID: { what: string; input: string | undefined }[] = [
  { what: 'missing', input: undefined },
  { what: 'empty', input: '' },
  { what: 'only spaces', input: '   ' },
  { what: 'only punctuation', input: '"*" - () : ^' },
  { what: 'only emoji', input: '😀😀' },
  { what: 'only a combining mark', input: '\u0301' },
  { what: 'too many words', input: 'a '.repeat(MAX_SEARCH_TERMS + 1) },
  { what: 'too long', input: 'a'.repeat(MAX_SEARCH_LENGTH + 1) },
];

describe('parseSearchTerms', () => {
  for (const { what, input, expected } of VALID) {
    test(what, () => assert.deepEqual(parseSearchTerms(input), expected));
  }
  for (const { what, input } of INVALID) {
    test(`400 naming q: ${what}`, () => {
      assert.throws(() => parseSearchTerms(input), (error) => {
        assert.ok(error instanceof ParseFailure);
        assert.equal(error.kind, 'bad-query');
        assert.equal(error.problem?.field, 'q');
        return true;
      });
    });
  }

  test('no term ever holds a character FTS5 reads as syntax', () => {
    fc.assert(fc.property(fc.string({ unit: 'grapheme', maxLength: 60 }), (text) => {
      let terms: string[];
      try {
        terms = parseSearchTerms(text);
      } catch {
        return;
      }
      for (const term of terms) assert.doesNotMatch(term, /["*:^(){}+\-\s.,]/u);
    }));
  });
});
