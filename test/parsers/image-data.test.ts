// JSON avatar data: plain or URL-safe base64, data: URLs, and strict rejection of anything else.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { decodeImageData } from '../../src/parsers/image-data.ts';

const BYTES = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0xfb, 0xff, 0xbf]);

const valid: { what: string; input: string; expected: Buffer }[] = [
  { what: 'standard base64 with padding', input: 'iVBOR/v/vw==', expected: BYTES },
  { what: 'standard base64 without padding', input: 'iVBOR/v/vw', expected: BYTES },
  { what: 'URL-safe base64', input: 'iVBOR_v_vw', expected: BYTES },
  { what: 'URL-safe base64 with padding', input: 'iVBOR_v_vw==', expected: BYTES },
  { what: 'a length of 4n needs no padding', input: 'QUJD', expected: Buffer.from('ABC') },
  { what: 'one padding character', input: 'QUI=', expected: Buffer.from('AB') },
  { what: 'line breaks and spaces are dropped', input: 'iVBO\r\nR/v/\n vw\t==', expected: BYTES },
  { what: 'a data: URL', input: 'data:image/png;base64,iVBOR/v/vw==', expected: BYTES },
  { what: 'a data: URL with parameters, in capitals', input: 'DATA:image/png;name=a.png;BASE64,iVBOR_v_vw', expected: BYTES },
  { what: 'a data: URL without a media type', input: 'data:;base64,QUJD', expected: Buffer.from('ABC') },
];

for (const { what, input, expected } of valid) {
  test(`decodes ${what}`, () => assert.deepEqual(decodeImageData(input), expected));
}

const invalid: { what: string; input: string; expected: string }[] = [
  { what: 'an empty string', input: '', expected: 'is empty' },
  { what: 'only whitespace', input: ' \r\n', expected: 'is empty' },
  { what: 'an empty data: URL', input: 'data:image/png;base64,', expected: 'is empty' },
  { what: 'a character outside the alphabet', input: 'iVBOR*v/vw==', expected: 'is not valid base64' },
  { what: 'non-ASCII characters', input: 'iVBORé/vw==', expected: 'is not valid base64' },
  { what: 'a mix of the two alphabets', input: 'iVBOR/v_vw==', expected: 'is not valid base64' },
  { what: 'a length of 4n+1', input: 'QUJDR', expected: 'is not valid base64' },
  { what: 'padding in the middle', input: 'QQ==QUJD', expected: 'is not valid base64' },
  { what: 'three padding characters', input: 'QQ===', expected: 'is not valid base64' },
  { what: 'incomplete padding', input: 'QQ=', expected: 'is not valid base64' },
  { what: 'padding after a full quantum', input: 'QUJD==', expected: 'is not valid base64' },
  { what: 'only padding', input: '==', expected: 'is not valid base64' },
  { what: 'non-zero unused bits (RFC 4648 §3.5)', input: 'QR==', expected: 'is not valid base64' },
  { what: 'a percent-encoded data: URL', input: 'data:image/png,%89PNG', expected: 'is not valid base64' },
  { what: 'a data: URL of another scheme', input: 'https://example.com/a.png', expected: 'is not valid base64' },
];

for (const { what, input, expected } of invalid) {
  test(`rejects ${what}`, () => {
    assert.throws(() => decodeImageData(input), {
      name: 'ParseFailure',
      kind: 'invalid',
      problem: { field: 'avatar', message: expected },
    });
  });
}

test('every encoding of random bytes decodes back to them', () => {
  fc.assert(
    fc.property(fc.uint8Array({ minLength: 1, maxLength: 64 }), (array) => {
      const bytes = Buffer.from(array);
      const standard = bytes.toString('base64');
      for (const input of [standard, standard.replace(/=+$/, ''), bytes.toString('base64url'), `data:image/png;base64,${standard}`]) {
        assert.deepEqual(decodeImageData(input), bytes, input);
      }
    }),
  );
});

test('a random string decodes exactly when it is one of the four encodings of some bytes', () => {
  fc.assert(
    fc.property(fc.string({ unit: fc.constantFrom(...'AQZaz09+/-_= \n*'), maxLength: 24 }), (input) => {
      const text = input.replace(/[\n ]/g, '');
      const bytes = Buffer.from(text, 'base64');
      const standard = bytes.toString('base64');
      const urlSafe = standard.replace(/\+/g, '-').replace(/\//g, '_');
      const encodings = [standard, urlSafe].flatMap((form) => [form, form.replace(/=+$/, '')]);
      if (text !== '' && encodings.includes(text)) assert.deepEqual(decodeImageData(input), bytes);
      else assert.throws(() => decodeImageData(input), { name: 'ParseFailure', kind: 'invalid' });
    }),
    { numRuns: 2000 },
  );
});
