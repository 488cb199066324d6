// The API documentation and the error catalogue stay in step: every code with its status, no stale code.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { ERROR_CATALOGUE } from '../src/http/error-catalogue.ts';

test('docs/api.md lists every error code with its status, and no code the catalogue lacks', () => {
  const doc = readFileSync(new URL('../docs/api.md', import.meta.url), 'utf8');
  const rows = new Map([...doc.matchAll(/^\| `(ERR_[A-Z_]+)` \| (\d{3}) \|/gm)].map((m) => [m[1]!, Number(m[2])]));
  assert.deepEqual(Object.fromEntries(rows), Object.fromEntries(Object.entries(ERROR_CATALOGUE).map(([code, { status }]) => [code, status])));
});
