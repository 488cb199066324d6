// Who may see an event when it is delivered (docs/protocol.md §9.4): the members of its chat now, kept current by the
// membership events themselves as the hub reads the log in id order, for the users with open streams only.
import type { LoggedEvent } from './logged-event.ts';

export class Membership {
  /** Tracked user -> the chats they are a member of. */
  private readonly chatsOf = new Map<string, Set<string>>();
  /** Chat -> its tracked members: who an event of the chat goes to, without looking at every stream. */
  private readonly membersOf = new Map<string, Set<string>>();

  isTracked(userId: string): boolean {
    return this.chatsOf.has(userId);
  }

  /** The chats a followed user is a member of now, or undefined when the user is not followed. */
  chatIdsOf(userId: string): string[] | undefined {
    const chats = this.chatsOf.get(userId);
    return chats === undefined ? undefined : [...chats];
  }

  /** Starts following a user's membership from their chats as storage has them now; a no-op when already followed. */
  track(userId: string, chatIds: readonly string[]): void {
    if (this.chatsOf.has(userId)) return;
    this.chatsOf.set(userId, new Set());
    for (const chatId of chatIds) this.join(userId, chatId);
  }

  untrack(userId: string): void {
    for (const chatId of this.chatsOf.get(userId) ?? []) this.leave(userId, chatId);
    this.chatsOf.delete(userId);
  }

  /** Applies what a membership event changes; call before delivering it, so an added member receives it. */
  apply(event: LoggedEvent): void {
    switch (event.type) {
      case 'chat.created':
      case 'chat.updated': {
        const members = new Set((JSON.parse(event.data) as { members: string[] }).members);
        for (const userId of [...this.membersOf.get(event.chatId) ?? []]) if (!members.has(userId)) this.leave(userId, event.chatId);
        for (const userId of members) this.join(userId, event.chatId);
        break;
      }
      case 'member.added':
        this.join((JSON.parse(event.data) as { userId: string }).userId, event.chatId);
        break;
      case 'member.removed':
        // The removed member still receives this event: it names them in alsoUserIds.
        this.leave((JSON.parse(event.data) as { userId: string }).userId, event.chatId);
        break;
      case 'chat.deleted':
        for (const userId of [...this.membersOf.get(event.chatId) ?? []]) this.leave(userId, event.chatId);
        break;
    }
  }

  /**
   * A notification reaches its user only while they are a member of its chat, live and in a replay alike
   * (docs/protocol.md §14.4): one written by a post that raced with their removal never reaches them. Other events
   * for one user (read.updated, session.ended) are theirs whatever the membership.
   */
  private receivesOwn(userId: string, event: LoggedEvent): boolean {
    return event.type !== 'notification' || this.chatsOf.get(userId)?.has(event.chatId) === true;
  }

  canSee(userId: string, event: LoggedEvent): boolean {
    if (event.onlyUserId !== null) return event.onlyUserId === userId && this.receivesOwn(userId, event);
    return this.chatsOf.get(userId)?.has(event.chatId) === true || event.alsoUserIds.includes(userId);
  }

  /** The tracked users who may see the event. */
  audience(event: LoggedEvent): string[] {
    if (event.onlyUserId !== null) return this.chatsOf.has(event.onlyUserId) && this.receivesOwn(event.onlyUserId, event) ? [event.onlyUserId] : [];
    const users = new Set(this.membersOf.get(event.chatId));
    for (const userId of event.alsoUserIds) if (this.chatsOf.has(userId)) users.add(userId);
    return [...users];
  }

  /** The tracked members of any of these chats, each once (who an ephemeral event goes to). */
  membersOfChats(chatIds: readonly string[]): Set<string> {
    if (chatIds.length === 1) return new Set(this.membersOf.get(chatIds[0]!));
    const users = new Set<string>();
    for (const chatId of chatIds) for (const userId of this.membersOf.get(chatId) ?? []) users.add(userId);
    return users;
  }

  private join(userId: string, chatId: string): void {
    const chats = this.chatsOf.get(userId);
    if (!chats) return;
    chats.add(chatId);
    let members = this.membersOf.get(chatId);
    if (!members) this.membersOf.set(chatId, members = new Set());
    members.add(userId);
  }

  private leave(userId: string, chatId: string): void {
    this.chatsOf.get(userId)?.delete(chatId);
    const members = this.membersOf.get(chatId);
    if (!members) return;
    members.delete(userId);
    if (members.size === 0) this.membersOf.delete(chatId);
  }
}
