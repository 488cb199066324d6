// The walk back to a resume point (src/events/walk-back.ts): a user's chats at an earlier id, from their chats now.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toLoggedEvent, type LoggedEvent } from '../../src/events/logged-event.ts';
import { chatsBefore } from '../../src/events/walk-back.ts';

let nextId = 0;
function event(type: string, chatId: string, data: Record<string, unknown>, alsoUserIds: string[] | null = null): LoggedEvent {
  return toLoggedEvent({ id: ++nextId, type, chatId, onlyUserId: null, alsoUserIds: alsoUserIds && JSON.stringify(alsoUserIds), subjectId: null, createdAt: 0, data: JSON.stringify(data) });
}
const created = (chatId: string, members: string[]): LoggedEvent => event('chat.created', chatId, { id: chatId, members });
const added = (chatId: string, userId: string): LoggedEvent => event('member.added', chatId, { userId });
const removed = (chatId: string, userId: string): LoggedEvent => event('member.removed', chatId, { userId }, [userId]);
const deleted = (chatId: string, members: string[]): LoggedEvent => event('chat.deleted', chatId, { id: chatId }, members);

/** The events in id order, walked newest first, as the hub does. */
function walk(userId: string, now: string[], inIdOrder: LoggedEvent[]): string[] {
  return [...chatsBefore(userId, now, [...inIdOrder].reverse())].sort();
}

test('no membership event in between: the chats now', () => {
  assert.deepEqual(walk('u', ['a', 'b'], []), ['a', 'b']);
});

test('an addition after the point: not a member before it; a removal: a member before it', () => {
  assert.deepEqual(walk('u', ['a'], [added('a', 'u')]), []);
  assert.deepEqual(walk('u', [], [removed('a', 'u')]), ['a']);
  assert.deepEqual(walk('u', ['a'], [removed('a', 'u'), added('a', 'u')]), ['a'], 'removed, then added again');
  assert.deepEqual(walk('u', ['a'], [added('a', 'v'), removed('a', 'v')]), ['a'], 'another user\'s changes change nothing');
});

test('a creation after the point: no one was a member before it', () => {
  assert.deepEqual(walk('u', ['a'], [created('a', ['u', 'v'])]), []);
});

test('a deletion names the members at the time: they were members before it, no one else', () => {
  assert.deepEqual(walk('u', [], [deleted('a', ['u', 'v'])]), ['a']);
  assert.deepEqual(walk('w', [], [deleted('a', ['u', 'v'])]), []);
});

test('a re-created id: members of the old incarnation, of the new one, of both', () => {
  // a: created with old and both, deleted, created again with both and new, all after the point.
  const events = [created('a', ['old', 'both']), deleted('a', ['old', 'both']), created('a', ['both', 'fresh'])];
  assert.deepEqual(walk('old', [], events), []);
  assert.deepEqual(walk('both', ['a'], events), []);
  assert.deepEqual(walk('fresh', ['a'], events), []);
  // The point inside the old incarnation (after its creation): its members were in it then.
  const tail = events.slice(1);
  assert.deepEqual(walk('old', [], tail), ['a']);
  assert.deepEqual(walk('both', ['a'], tail), ['a']);
  assert.deepEqual(walk('fresh', ['a'], tail), []);
});

test('a deletion whose earlier events were purged with it still tells who was a member before it', () => {
  // The log lost the old incarnation's membership events (chat.deleted removes them): only the deletion is left.
  assert.deepEqual(walk('old', [], [deleted('a', ['old'])]), ['a']);
  assert.deepEqual(walk('fresh', [], [deleted('a', ['old'])]), []);
});
