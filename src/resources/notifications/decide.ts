// Who is notified of a message, and why (docs/protocol.md §14.4): the one decision the event stream's `notification`
// events and Web Push both follow. Pure: the chat's kind, the message's author and mentions, the members' levels.
import type { ChatKind, NotificationLevel } from '../../storage/store.ts';

export type NotificationReason = 'direct' | 'mention' | 'all';

/** A member of the chat with the level they chose, or null for the default of the chat's kind. */
export interface MemberLevel {
  userId: string;
  notificationLevel: NotificationLevel | null;
}

export interface NotificationInput {
  kind: ChatKind;
  authorId: string;
  /** The members the message mentions now. */
  mentions: readonly string[];
  members: readonly MemberLevel[];
  /** For an edit: whom the message mentioned before it. Only those the edit newly notifies are answered. */
  previousMentions?: readonly string[];
}

export interface Notification {
  userId: string;
  reason: NotificationReason;
}

/** docs/protocol.md §14.3: all in a direct chat, mentions in a group, until the member chooses. */
export function effectiveLevel(kind: ChatKind, chosen: NotificationLevel | null): NotificationLevel {
  return chosen ?? (kind === 'direct' ? 'all' : 'mentions');
}

/** Why one member is notified of a message mentioning `mentioned`, or undefined: never the author, never under none. */
function reasonFor(input: NotificationInput, member: MemberLevel, mentioned: ReadonlySet<string>): NotificationReason | undefined {
  if (member.userId === input.authorId) return undefined;
  const level = effectiveLevel(input.kind, member.notificationLevel);
  if (level === 'none') return undefined;
  if (mentioned.has(member.userId)) return 'mention';
  if (level !== 'all') return undefined;
  return input.kind === 'direct' ? 'direct' : 'all';
}

/**
 * The members to notify, in the order of `members`. A new message: everyone with a reason. An edit: only those with
 * a reason now who had none under the previous mentions (an edit that adds a mention notifies the newly mentioned
 * once; nobody hears of the same message twice).
 */
export function decideNotifications(input: NotificationInput): Notification[] {
  const now = new Set(input.mentions);
  const before = input.previousMentions === undefined ? undefined : new Set(input.previousMentions);
  const notified: Notification[] = [];
  for (const member of input.members) {
    const reason = reasonFor(input, member, now);
    if (reason === undefined) continue;
    if (before !== undefined && reasonFor(input, member, before) !== undefined) continue;
    notified.push({ userId: member.userId, reason });
  }
  return notified;
}
