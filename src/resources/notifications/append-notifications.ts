// Writes the `notification` events a message deserves (docs/protocol.md §14.4), in the transaction of the message.
import { publicMessage } from '../../representations/public-fields.ts';
import type { ChatKind, MemberRow, MessageRow, Repositories } from '../../storage/store.ts';
import { decideNotifications } from './decide.ts';
import { queuePushes } from '../push/queue-pushes.ts';

/**
 * One event per notified member, for them alone (onlyUserId), carrying the message and the reason. Its subject is the
 * message, so deleting the message removes the notification from the log too (src/events/purge-rule.ts).
 * `previousMentions`: for an edit, whom the message mentioned before (only the newly notified hear of it). `basePath`
 * prefixes the hrefs of the message's attachments (docs/protocol.md §15.1).
 * The same members' push subscriptions get a Web Push delivery (docs/protocol.md §17.3), queued in this transaction.
 */
export async function appendNotifications(
  tx: Repositories, basePath: string, kind: ChatKind, message: MessageRow, members: readonly MemberRow[], previousMentions?: readonly string[],
): Promise<void> {
  const notified = decideNotifications({
    kind, authorId: message.authorId, mentions: JSON.parse(message.mentions) as string[], members, ...(previousMentions ? { previousMentions } : {}),
  });
  if (notified.length === 0) return;
  const data = publicMessage(message, basePath);
  const eventIds = new Map<string, number>();
  for (const { userId, reason } of notified) {
    const eventId = await tx.events.append({
      type: 'notification', chatId: message.chatId, createdAt: message.updatedAt, data: { reason, message: data }, onlyUserId: userId, subjectId: message.id,
    });
    eventIds.set(userId, eventId);
  }
  await queuePushes(tx, message, notified, eventIds);
}
