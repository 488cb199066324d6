// Which outgoing webhooks an appended event goes to (docs/protocol.md §16.4): listed types only, never a reader's own
// event, never its own bot's doing, and with trigger "mentions" only messages whose `mentions` name its bot.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { webhookDeliveries, type OutgoingHook } from '../../src/storage/webhook-fan-out.ts';

const hooks: OutgoingHook[] = [
  { id: 'all', botId: 'bot-a', events: '["message.created","reaction.added"]', trigger: 'all' },
  { id: 'mentions', botId: 'bot-m', events: '["message.created"]', trigger: 'mentions' },
];
const message = (data: Record<string, unknown>) => ({ type: 'message.created', chatId: 'c1', createdAt: 5, data: { id: 'm1', authorId: 'u1', ...data } });
const targets = (event: Parameters<typeof webhookDeliveries>[1]) => webhookDeliveries(7, event, hooks).map((delivery) => delivery.targetId);

test('trigger all hears every listed type; mentions only a message that mentions its bot', () => {
  assert.deepEqual(targets(message({ text: 'hi' })), ['all']);
  assert.deepEqual(targets(message({ text: 'hi @bot', mentions: ['bot-m'] })), ['all', 'mentions']);
  assert.deepEqual(targets(message({ mentions: ['someone-else'] })), ['all']);
  assert.deepEqual(targets({ type: 'reaction.added', chatId: 'c1', createdAt: 5, data: { messageId: 'm1', userId: 'u1' } }), ['all']);
  assert.deepEqual(targets({ type: 'member.added', chatId: 'c1', createdAt: 5, data: { userId: 'u1' } }), []);
});

test('never its own bot\'s doing, never a reader\'s own event; the payload is the log record', () => {
  assert.deepEqual(targets(message({ authorId: 'bot-a' })), []);
  assert.deepEqual(targets(message({ authorId: 'bot-m', mentions: ['bot-m'] })), ['all']);
  assert.deepEqual(targets({ ...message({}), onlyUserId: 'u1' }), []);
  const [delivery] = webhookDeliveries(7, message({ text: 'x' }), hooks);
  assert.deepEqual(JSON.parse(delivery!.payload), { id: 7, type: 'message.created', chatId: 'c1', createdAt: 5, data: JSON.stringify({ id: 'm1', authorId: 'u1', text: 'x' }) });
  assert.deepEqual([delivery!.kind, delivery!.eventId, delivery!.createdAt], ['webhook', 7, 5]);
});
