// Removes push subscriptions with their queued deliveries (docs/protocol.md §17.2): a session's end, erasure, DELETE.
import type { Repositories } from '../../storage/store.ts';
import { PUSH_KIND } from './queue-pushes.ts';

/** Deletes the subscriptions the sessions made, and every delivery queued or kept for them. */
export async function forgetPushSubscriptionsOfSessions(tx: Repositories, sessionIds: readonly string[]): Promise<void> {
  for (const id of await tx.push.deletePushSubscriptionsOfSessions(sessionIds)) await tx.outbound.deleteDeliveriesOf(PUSH_KIND, id);
}

export async function forgetPushSubscriptionsOfUser(tx: Repositories, userId: string): Promise<void> {
  for (const id of await tx.push.deletePushSubscriptionsOfUser(userId)) await tx.outbound.deleteDeliveriesOf(PUSH_KIND, id);
}

export async function forgetPushSubscription(tx: Repositories, id: string): Promise<boolean> {
  const deleted = await tx.push.deletePushSubscription(id);
  await tx.outbound.deleteDeliveriesOf(PUSH_KIND, id);
  return deleted;
}
