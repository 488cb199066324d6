// Server-assigned ids: 26 Crockford base32 characters that strictly increase, even within one millisecond.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isValidId, newId } from '../../src/storage/ids.ts';

test('ids are 26-character ULIDs that strictly increase within one millisecond and across a clock step back', () => {
  const time = Date.UTC(2030, 0, 1);
  const ids = [...Array.from({ length: 10_000 }, () => newId(time)), newId(time - 5000), newId(time + 1)];
  for (const id of ids) assert.match(id, /^[0-9A-HJKMNP-TV-Z]{26}$/);
  for (let i = 1; i < ids.length; i++) assert.ok(ids[i - 1]! < ids[i]!, `${ids[i - 1]} < ${ids[i]}`);
  const decodeTime = (id: string) => [...id.slice(0, 10)].reduce((n, c) => n * 32 + '0123456789ABCDEFGHJKMNPQRSTVWXYZ'.indexOf(c), 0);
  assert.equal(decodeTime(ids[0]!), time, 'the first 10 characters encode the clock');
  assert.ok(decodeTime(ids.at(-1)!) >= time + 1);
});

test('isValidId accepts the contract\'s id alphabet and nothing else', () => {
  for (const id of ['a', 'A-b_9', 'x'.repeat(64), newId()]) assert.equal(isValidId(id), true, id);
  for (const id of ['', 'x'.repeat(65), 'a b', 'é', 'a/b', 42, null]) assert.equal(isValidId(id), false, String(id));
});
