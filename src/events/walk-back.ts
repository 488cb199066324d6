// Where a replay starts (docs/events.md, "Who receives what"): the chats a user was a member of at a resume id,
// found from the chats they are in now by undoing, newest first, the membership events between the two.
import type { LoggedEvent } from './logged-event.ts';

/** The events that change who is a member: all a walk back reads. (chat.updated only follows member.* events.) */
export const MEMBERSHIP_EVENT_TYPES: readonly string[] = ['chat.created', 'member.added', 'member.removed', 'chat.deleted'];

type MembershipEvent = Pick<LoggedEvent, 'type' | 'chatId' | 'alsoUserIds' | 'data'>;

/**
 * The user's chats just before `newestFirst` (every membership event after the point wanted, newest first),
 * given `chatsAfter`, their chats after the newest of them. A chat id can be re-created after a delete: each
 * event speaks of the incarnation it belongs to, and walking back in id order crosses them in turn.
 */
export function chatsBefore(userId: string, chatsAfter: Iterable<string>, newestFirst: Iterable<MembershipEvent>): Set<string> {
  const chats = new Set(chatsAfter);
  for (const event of newestFirst) {
    switch (event.type) {
      case 'member.added':
        if (memberOf(event) === userId) chats.delete(event.chatId);
        break;
      case 'member.removed':
        if (memberOf(event) === userId) chats.add(event.chatId);
        break;
      case 'chat.created':
        // Before its creation no one was a member of this incarnation.
        chats.delete(event.chatId);
        break;
      case 'chat.deleted':
        // It names every member at the deletion (src/resources/chats/handlers.ts).
        if (event.alsoUserIds.includes(userId)) chats.add(event.chatId);
        else chats.delete(event.chatId);
        break;
    }
  }
  return chats;
}

function memberOf(event: MembershipEvent): string {
  return (JSON.parse(event.data) as { userId: string }).userId;
}
