// Queues the Web Push deliveries a message's notifications deserve (docs/protocol.md §17.3), in the transaction of
// the message and its `notification` events: the members are those decide.ts chose, never a second rule.
import type { MessageRow, Repositories } from '../../storage/store.ts';
import type { Notification } from '../notifications/decide.ts';

export const PUSH_KIND = 'push';

/** What a push delivery keeps: enough to read the message again when it is sent (deleted meanwhile: not sent). */
export type QueuedPush =
  | { type: 'message'; chatId: string; messageId: string; reason: Notification['reason'] }
  | { type: 'test' };

/** One delivery per subscription of each notified member; whether their session is attended is judged when sending. */
export async function queuePushes(tx: Repositories, message: MessageRow, notified: readonly Notification[], eventIds: ReadonlyMap<string, number>): Promise<void> {
  const reasons = new Map(notified.map((entry) => [entry.userId, entry.reason]));
  const subscriptions = reasons.size === 1
    ? await tx.push.listPushSubscriptionsOfUser(notified[0]!.userId)
    : await tx.push.listPushSubscriptionsInChat(message.chatId);
  for (const subscription of subscriptions) {
    const reason = reasons.get(subscription.userId);
    if (reason === undefined) continue;
    const payload: QueuedPush = { type: 'message', chatId: message.chatId, messageId: message.id, reason };
    await tx.outbound.enqueueDelivery({ kind: PUSH_KIND, targetId: subscription.id, eventId: eventIds.get(subscription.userId) ?? null, payload: JSON.stringify(payload), createdAt: message.updatedAt });
  }
}
