// Writes the `notification` events a message deserves (docs/protocol.md §14.4), in the transaction of the message.
import { publicMessage } from '../../representations/public-fields.ts';
import type { ChatKind, MemberRow, MessageRow, Repositories } from '../../storage/store.ts';
import { decideNotifications } from './decide.ts';

/**
 * One event per notified member, for them alone (onlyUserId), carrying the message and the reason. Its subject is the
 * message, so deleting the message removes the notification from the log too (src/events/purge-rule.ts).
 * `previousMentions`: for an edit, whom the message mentioned before (only the newly notified hear of it).
 */
export async function appendNotifications(tx: Repositories, kind: ChatKind, message: MessageRow, members: readonly MemberRow[], previousMentions?: readonly string[]): Promise<void> {
  const notified = decideNotifications({
    kind, authorId: message.authorId, mentions: JSON.parse(message.mentions) as string[], members, ...(previousMentions ? { previousMentions } : {}),
  });
  if (notified.length === 0) return;
  const data = publicMessage(message);
  for (const { userId, reason } of notified) {
    await tx.events.append({
      type: 'notification', chatId: message.chatId, createdAt: message.updatedAt, data: { reason, message: data }, onlyUserId: userId, subjectId: message.id,
    });
  }
}
