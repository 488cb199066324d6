// Parsers' typed failures become the HTTP layer's problems: one code per kind, the field kept for `errors`.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HttpError, httpErrorOf } from '../../src/http/http-error.ts';
import { fieldFailure, ParseFailure, type ParseFailureKind } from '../../src/parsers/parse-failure.ts';

const rows: { kind: ParseFailureKind; status: number; code: string }[] = [
  { kind: 'invalid', status: 400, code: 'ERR_VALIDATION' },
  { kind: 'bad-query', status: 400, code: 'ERR_BAD_QUERY' },
  { kind: 'bad-multipart', status: 400, code: 'ERR_BAD_MULTIPART' },
  { kind: 'too-large', status: 413, code: 'ERR_BODY_TOO_LARGE' },
  { kind: 'unsupported-type', status: 415, code: 'ERR_UNSUPPORTED_MEDIA_TYPE' },
];

for (const { kind, status, code } of rows) {
  test(`a ${kind} failure is a ${status} ${code} with the same detail`, () => {
    const mapped = httpErrorOf(new ParseFailure(kind, 'what went wrong'));
    assert.ok(mapped instanceof HttpError);
    assert.deepEqual([mapped.status, mapped.code, mapped.detail, mapped.errors], [status, code, 'what went wrong', undefined]);
  });
}

test('a field failure names its field in the detail and in errors', () => {
  const mapped = httpErrorOf(fieldFailure('limit', 'must be a number', 'bad-query'))!;
  assert.deepEqual([mapped.code, mapped.detail, mapped.errors], ['ERR_BAD_QUERY', 'limit: must be a number', [{ field: 'limit', message: 'must be a number' }]]);
});

test('an HttpError is itself, anything else is not an expected failure', () => {
  const error = new HttpError('ERR_NOT_FOUND', 'No chat x');
  assert.equal(httpErrorOf(error), error);
  assert.equal(httpErrorOf(new Error('a bug')), undefined);
  assert.equal(httpErrorOf('a string'), undefined);
});
