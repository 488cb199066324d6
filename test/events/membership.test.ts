// Who sees an event (src/events/membership.ts): a notification reaches its user only while they are a member of its
// chat (docs/protocol.md §14.4), so one that raced with their removal never reaches them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Membership } from '../../src/events/membership.ts';
import { toLoggedEvent } from '../../src/events/logged-event.ts';
import { NO_CHAT } from '../../src/storage/rows.ts';

function event(id: number, type: string, chatId: string, data: Record<string, unknown>, onlyUserId: string | null = null) {
  return toLoggedEvent({ id, type, chatId, onlyUserId, alsoUserIds: null, subjectId: null, createdAt: 0, data: JSON.stringify(data) });
}

test('a notification reaches its user only while they are a member; their other own events always', () => {
  const membership = new Membership();
  membership.track('carol', ['a']);
  const early = event(1, 'notification', 'a', { reason: 'mention' }, 'carol');
  assert.ok(membership.canSee('carol', early));
  assert.deepEqual(membership.audience(early), ['carol']);
  assert.ok(!membership.canSee('bob', early), 'for carol alone');
  membership.apply(event(2, 'member.removed', 'a', { userId: 'carol' }));
  const late = event(3, 'notification', 'a', { reason: 'mention' }, 'carol');
  assert.ok(!membership.canSee('carol', late));
  assert.deepEqual(membership.audience(late), []);
  const ended = event(4, 'session.ended', NO_CHAT, {}, 'carol');
  assert.ok(membership.canSee('carol', ended));
  assert.deepEqual(membership.audience(ended), ['carol']);
  assert.ok(membership.canSee('carol', event(5, 'read.updated', 'a', {}, 'carol')));
});
