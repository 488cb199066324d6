import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import fc from 'fast-check';
import { sha256Base64url, sha256Bytes } from '../../src/http/sha256.ts';

test('the one-call SHA-256 gives the digest createHash gives, for any text (UTF-8, lone surrogates included)', () => {
  fc.assert(fc.property(fc.string({ unit: 'binary' }), (text) => {
    assert.equal(sha256Base64url(text), createHash('sha256').update(text).digest('base64url'));
    assert.deepEqual(sha256Bytes(text), createHash('sha256').update(text).digest());
  }), { numRuns: 2000 });
});
