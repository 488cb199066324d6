// Accept negotiation: q-values, wildcards, specificity, real browser headers, and malformed input.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { negotiateMediaType, REPRESENTATION_TYPES } from '../../src/http/negotiate.ts';

const JSON_TYPE = 'application/json';
const XML = 'application/xml';
const HTML = 'text/html';

const rows: { what: string; input: string | undefined; expected: string | null }[] = [
  { what: 'no Accept header gives the default', input: undefined, expected: JSON_TYPE },
  { what: 'an empty header gives the default', input: '', expected: JSON_TYPE },
  { what: 'a blank list gives the default', input: ' , ,, ', expected: JSON_TYPE },
  { what: '*/* gives the default', input: '*/*', expected: JSON_TYPE },
  { what: 'an exact type', input: 'application/xml', expected: XML },
  { what: 'types are case-insensitive', input: 'TEXT/HTML', expected: HTML },
  { what: 'application/* prefers the server order', input: 'application/*', expected: JSON_TYPE },
  { what: 'text/* means html', input: 'text/*', expected: HTML },
  { what: 'the highest q wins', input: 'application/json;q=0.5, application/xml;q=0.8', expected: XML },
  { what: 'equal q falls back to the server order', input: 'text/html, application/xml', expected: XML },
  { what: 'equal q with a default in the list', input: 'text/html, application/json', expected: JSON_TYPE },
  { what: 'q=0 excludes a type', input: 'application/json;q=0, */*', expected: XML },
  { what: 'q=0 on every type', input: 'application/json;q=0, application/xml;q=0, text/html;q=0', expected: null },
  { what: '*/*;q=0 alone excludes everything', input: '*/*;q=0', expected: null },
  { what: 'a specific type overrides */*;q=0', input: 'text/html, */*;q=0', expected: HTML },
  { what: 'text/html;q=0 overrides text/*', input: 'text/*;q=0.5, text/html;q=0', expected: null },
  { what: 'order of ranges does not change specificity', input: 'text/html;q=0, text/*;q=0.5', expected: null },
  { what: 'a specific low q beats a general high q', input: 'application/json;q=0.1, */*', expected: XML },
  { what: 'application/* with json excluded', input: 'application/*, application/json;q=0', expected: XML },
  { what: 'q=1.000 is valid', input: 'text/html;q=1.000, application/json;q=0.999', expected: HTML },
  { what: 'q=0.001 still counts', input: 'text/html;q=0.001', expected: HTML },
  { what: 'Q is case-insensitive', input: 'application/json;Q=0, text/html', expected: HTML },
  { what: 'whitespace around ; and ,', input: ' text/html ; q=0.9 ,application/xml ;q=0.1', expected: HTML },
  { what: 'an empty parameter is allowed', input: 'text/html;;q=0.5', expected: HTML },
  { what: 'charset=utf-8 matches', input: 'application/json; charset=UTF-8', expected: JSON_TYPE },
  { what: 'another charset does not', input: 'application/json;charset=iso-8859-1, text/html;q=0.1', expected: HTML },
  { what: 'an unknown parameter does not match', input: 'application/json;version=2, text/html;q=0.1', expected: HTML },
  { what: 'a quoted comma stays in its parameter', input: 'application/json;x="a,text/html", application/xml;q=0.1', expected: XML },
  { what: 'parameters after q are accept-extensions', input: 'text/html;q=0.5;level=1', expected: HTML },
  { what: 'image/png only', input: 'image/png', expected: null },
  { what: 'an unrelated wildcard', input: 'image/*', expected: null },
  { what: 'problem+json is none of ours', input: 'application/problem+json', expected: null },
  {
    what: 'Chrome',
    input:
      'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7',
    expected: HTML,
  },
  { what: 'Firefox', input: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', expected: HTML },
  { what: 'Safari', input: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', expected: HTML },
  { what: 'curl', input: '*/*', expected: JSON_TYPE },
  { what: 'fetch() default', input: '*/*', expected: JSON_TYPE },
  { what: 'a browser image request', input: 'image/avif,image/webp,image/apng,image/*,*/*;q=0.8', expected: JSON_TYPE },
  // Malformed elements are dropped; a header with nothing valid in it counts as absent.
  { what: 'q above 1 drops the range', input: 'application/json;q=2, text/html;q=0.1', expected: HTML },
  { what: 'q with four decimals drops the range', input: 'application/json;q=0.5000, text/html;q=0.1', expected: HTML },
  { what: 'a non-numeric q drops the range', input: 'application/json;q=abc, text/html;q=0.1', expected: HTML },
  { what: 'a negative q drops the range', input: 'application/json;q=-1, text/html;q=0.1', expected: HTML },
  { what: 'a bad q on the only range: as absent', input: 'text/html;q=abc', expected: JSON_TYPE },
  { what: 'no slash drops the range', input: 'json, application/xml;q=0.1', expected: XML },
  { what: '*/html is not a range', input: '*/html, application/xml;q=0.1', expected: XML },
  { what: 'a parameter without a value', input: 'text/html;level, application/xml;q=0.1', expected: XML },
  { what: 'spaces around = are not allowed', input: 'text/html;q = 0.5, application/xml;q=0.1', expected: XML },
  { what: 'an unterminated quote', input: 'text/html;a="b, application/xml', expected: JSON_TYPE },
  { what: 'only garbage', input: ';;;,,,///', expected: JSON_TYPE },
  { what: 'a lone slash', input: '/', expected: JSON_TYPE },
  { what: 'non-ASCII', input: 'téxt/html', expected: JSON_TYPE },
];

for (const { what, input, expected } of rows) {
  test(`negotiateMediaType: ${what}`, () => {
    assert.equal(negotiateMediaType(input, REPRESENTATION_TYPES), expected);
  });
}

test('negotiateMediaType: nothing available gives null', () => {
  assert.equal(negotiateMediaType(undefined, []), null);
  assert.equal(negotiateMediaType('*/*', []), null);
});

test('negotiateMediaType: available types may carry parameters', () => {
  assert.equal(negotiateMediaType('text/html;level=1', ['application/json', 'text/html;level=1']), 'text/html;level=1');
  assert.equal(negotiateMediaType('text/html;level=2', ['application/json', 'text/html;level=1']), null);
});

test('negotiateMediaType: never throws, answers null or a member of available', () => {
  const piece = fc.oneof(
    fc.string({ unit: 'binary' }),
    fc.constantFrom(',', ';', '=', '"', '\\', '/', '*', '*/*', 'q=', 'q=0', 'q=1', 'text/html', 'application/json', ' '),
  );
  const header = fc.array(piece, { maxLength: 12 }).map((parts) => parts.join(''));
  const available = fc.subarray([...REPRESENTATION_TYPES, 'text/plain;charset=utf-8', 'garbage']);
  fc.assert(
    fc.property(header, available, (accept, types) => {
      const chosen = negotiateMediaType(accept, types);
      assert.ok(chosen === null || types.includes(chosen));
    }),
    { numRuns: 2000 },
  );
});

test('negotiateMediaType: listing one available type explicitly always selects it', () => {
  fc.assert(
    fc.property(fc.constantFrom(...REPRESENTATION_TYPES), fc.string(), (type, noise) => {
      assert.equal(negotiateMediaType(`${noise.replace(/[,;"\\]/g, '')};q=0.5, ${type}`, REPRESENTATION_TYPES), type);
    }),
  );
});
