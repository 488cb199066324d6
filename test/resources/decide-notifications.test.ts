// Who is notified of a message and why (src/resources/notifications/decide.ts, docs/protocol.md §14.4): the one
// decision the event stream and Web Push share.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decideNotifications, effectiveLevel, type MemberLevel } from '../../src/resources/notifications/decide.ts';

const members = (levels: Record<string, MemberLevel['notificationLevel']>): MemberLevel[] =>
  Object.entries(levels).map(([userId, notificationLevel]) => ({ userId, notificationLevel }));

test('the default level is all in a direct chat and mentions in a group', () => {
  assert.equal(effectiveLevel('direct', null), 'all');
  assert.equal(effectiveLevel('group', null), 'mentions');
  assert.equal(effectiveLevel('group', 'none'), 'none');
});

test('table: reasons by kind, level and mention; never the author, never under none', () => {
  const rows = [
    { what: 'group, default level, not mentioned', kind: 'group', levels: { b: null }, mentions: [], expected: [] },
    { what: 'group, default level, mentioned', kind: 'group', levels: { b: null }, mentions: ['b'], expected: [{ userId: 'b', reason: 'mention' }] },
    { what: 'group, all', kind: 'group', levels: { b: 'all' }, mentions: [], expected: [{ userId: 'b', reason: 'all' }] },
    { what: 'group, all and mentioned: the mention is the reason', kind: 'group', levels: { b: 'all' }, mentions: ['b'], expected: [{ userId: 'b', reason: 'mention' }] },
    { what: 'group, none, mentioned', kind: 'group', levels: { b: 'none' }, mentions: ['b'], expected: [] },
    { what: 'direct, default', kind: 'direct', levels: { b: null }, mentions: [], expected: [{ userId: 'b', reason: 'direct' }] },
    { what: 'direct, mentions only, not mentioned', kind: 'direct', levels: { b: 'mentions' }, mentions: [], expected: [] },
    { what: 'direct, none', kind: 'direct', levels: { b: 'none' }, mentions: ['b'], expected: [] },
    { what: 'the author, mentioned and all', kind: 'group', levels: { a: 'all' }, mentions: ['a'], expected: [] },
    { what: 'a chat with oneself', kind: 'direct', levels: { a: null }, mentions: [], expected: [] },
  ] as const;
  for (const row of rows) {
    const notified = decideNotifications({ kind: row.kind, authorId: 'a', mentions: row.mentions, members: members(row.levels) });
    assert.deepEqual(notified, row.expected, row.what);
  }
});

test('an edit notifies only those it newly gives a reason', () => {
  const levels = members({ a: null, b: null, c: 'all', d: null });
  const edit = (previousMentions: string[], mentions: string[]) => decideNotifications({ kind: 'group', authorId: 'a', mentions, members: levels, previousMentions });
  assert.deepEqual(edit(['b'], ['b', 'd']), [{ userId: 'd', reason: 'mention' }]);
  assert.deepEqual(edit([], ['c']), [], 'c was notified of the message already (all)');
  assert.deepEqual(edit(['b'], []), []);
});
