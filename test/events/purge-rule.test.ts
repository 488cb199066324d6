// What a delete removes from the log (src/events/purge-rule.ts; docs/events.md, "What a replay leaves out").
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isPurgedBy, purgeRuleOf, type PurgeCandidate } from '../../src/events/purge-rule.ts';

const candidate = (id: number, type: string, chatId: string, subjectId: string | null = null): PurgeCandidate => ({ id, type, chatId, subjectId });

test('events that remove nothing have no rule', () => {
  for (const type of ['message.created', 'message.updated', 'reaction.added', 'reaction.removed', 'chat.created', 'chat.updated', 'member.added', 'member.removed', 'read.updated']) {
    assert.equal(purgeRuleOf({ id: 9, type, chatId: 'a', subjectId: 'm' }), undefined, type);
  }
});

test('message.deleted removes the earlier events of that message only, in its chat; itself and later ones stay', () => {
  const rule = purgeRuleOf({ id: 10, type: 'message.deleted', chatId: 'a', subjectId: 'm' })!;
  assert.ok(isPurgedBy(rule, candidate(1, 'message.created', 'a', 'm')));
  assert.ok(isPurgedBy(rule, candidate(2, 'message.updated', 'a', 'm')));
  assert.ok(isPurgedBy(rule, candidate(3, 'reaction.added', 'a', 'm')));
  assert.ok(isPurgedBy(rule, candidate(4, 'reaction.removed', 'a', 'm')));
  assert.ok(isPurgedBy(rule, candidate(4, 'notification', 'a', 'm')), 'a notification carries the message (docs/protocol.md §14.4)');
  assert.ok(!isPurgedBy(rule, candidate(5, 'message.created', 'a', 'other')), 'another message');
  assert.ok(!isPurgedBy(rule, candidate(6, 'message.updated', 'a', 'reply')), 'a reply to it (its replyTo became null)');
  assert.ok(!isPurgedBy(rule, candidate(7, 'member.added', 'a')), 'membership');
  assert.ok(!isPurgedBy(rule, candidate(8, 'message.created', 'b', 'm')), 'another chat');
  assert.ok(!isPurgedBy(rule, candidate(10, 'message.deleted', 'a', 'm')), 'itself');
  assert.ok(!isPurgedBy(rule, candidate(11, 'reaction.added', 'a', 'm')), 'a later event');
  assert.throws(() => purgeRuleOf({ id: 10, type: 'message.deleted', chatId: 'a' }), /subjectId/);
});

test('messages.cleared removes every earlier message and reaction event of the chat, and earlier clears', () => {
  const rule = purgeRuleOf({ id: 10, type: 'messages.cleared', chatId: 'a' })!;
  for (const type of ['message.created', 'message.updated', 'message.deleted', 'reaction.added', 'reaction.removed', 'notification']) {
    assert.ok(isPurgedBy(rule, candidate(1, type, 'a', 'm')), type);
  }
  assert.ok(isPurgedBy(rule, candidate(2, 'messages.cleared', 'a')));
  for (const type of ['chat.created', 'chat.updated', 'member.added', 'member.removed', 'read.updated']) {
    assert.ok(!isPurgedBy(rule, candidate(3, type, 'a')), type);
  }
  assert.ok(!isPurgedBy(rule, candidate(4, 'message.created', 'b', 'm')), 'another chat');
  assert.ok(!isPurgedBy(rule, candidate(11, 'message.created', 'a', 'm')), 'a later event');
});

test('chat.deleted removes every earlier event of the chat, membership and earlier deletions included', () => {
  const rule = purgeRuleOf({ id: 10, type: 'chat.deleted', chatId: 'a' })!;
  for (const type of ['chat.created', 'chat.updated', 'member.added', 'member.removed', 'message.created', 'reaction.added', 'read.updated', 'chat.deleted']) {
    assert.ok(isPurgedBy(rule, candidate(1, type, 'a', type.startsWith('message') || type.startsWith('reaction') ? 'm' : null)), type);
  }
  assert.ok(!isPurgedBy(rule, candidate(2, 'chat.created', 'b')), 'another chat');
  assert.ok(!isPurgedBy(rule, candidate(10, 'chat.deleted', 'a')), 'itself');
  assert.ok(!isPurgedBy(rule, candidate(11, 'chat.created', 'a')), 'the next incarnation');
});
