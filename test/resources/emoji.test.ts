// The emoji rule of reactions (docs/protocol.md §10.2): table-driven cases and properties over random strings.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { validateEmoji } from '../../src/resources/reactions/validate.ts';

const FORBIDDEN = /[\p{White_Space}\p{Cc}\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;

const rows: { what: string; input: string; ok: boolean }[] = [
  { what: 'one emoji', input: '👍', ok: true },
  { what: 'an emoji with a variation selector', input: '❤️', ok: true },
  { what: 'a ZWJ sequence', input: '👩‍👩‍👧‍👦', ok: true },
  { what: 'a short name', input: '+1', ok: true },
  { what: 'a subdivision flag (tag characters)', input: '🏴󠁧󠁢󠁳󠁣󠁴󠁿', ok: true },
  { what: '32 code points of astral characters', input: '😀'.repeat(32), ok: true },
  { what: '33 code points', input: '😀'.repeat(33), ok: false },
  { what: 'a space', input: 'thumbs up', ok: false },
  { what: 'a no-break space', input: '\u00a0', ok: false },
  { what: 'NUL', input: 'a\u0000', ok: false },
  { what: 'a C1 control', input: '\u009b', ok: false },
  { what: 'a right-to-left override', input: '\u202e1+', ok: false },
  { what: 'a line separator', input: '\u2028', ok: false },
];

for (const { what, input, ok } of rows) {
  test(`emoji: ${what} is ${ok ? 'accepted' : 'refused'}`, () => {
    if (ok) assert.equal(validateEmoji(input), input);
    else assert.throws(() => validateEmoji(input), (error: any) => error.status === 400 && error.errors[0].field === 'emoji');
  });
}

test('emoji: any 1 to 32 code points free of whitespace and controls is accepted as it is', () => {
  const allowed = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 32 })
    .filter((text) => !FORBIDDEN.test(text) && [...text].length >= 1 && [...text].length <= 32);
  fc.assert(fc.property(allowed, (text) => validateEmoji(text) === text));
});

test('emoji: one forbidden character anywhere, or more than 32 code points, is a 400 naming emoji', () => {
  const forbidden = fc.constantFrom(' ', '\t', '\n', '\u0000', '\u007f', '\u0085', '\u00a0', '\u2028', '\u3000', '\u202e', '\u2066');
  const inserted = fc.tuple(fc.string({ maxLength: 10 }), forbidden, fc.string({ maxLength: 10 })).map(([a, bad, b]) => a + bad + b);
  const long = fc.string({ unit: 'grapheme-ascii', minLength: 33, maxLength: 60 });
  fc.assert(fc.property(fc.oneof(inserted, long), (text) => {
    assert.throws(() => validateEmoji(text), (error: any) => error.status === 400 && error.errors[0].field === 'emoji');
  }));
});
