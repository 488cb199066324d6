// An erased user leaves every chat (docs/protocol.md §3.7): an owned chat goes to its longest-standing other member,
// or is deleted when it has none, with the events a chat delete, an ownership change and a member's leaving have.
import { appendPurging } from '../../events/purge-rule.ts';
import type { Tx } from '../../storage/store.ts';
import { appendChatChangeEvents } from '../chats/handlers.ts';

/** What leaving did, for the audit row: chat ids only (they name nothing personal). */
export interface ChatsLeft {
  handedOver: string[];
  deleted: string[];
}

export async function leaveEveryChat(tx: Tx, userId: string, now: number): Promise<ChatsLeft> {
  const left: ChatsLeft = { handedOver: [], deleted: [] };
  for (const membership of await tx.accounts.findMembershipsOfUser(userId)) {
    const chatId = membership.chatId;
    const before = await tx.chats.findMembers(chatId);
    // In the order they joined (ties by id): the first other one has been there longest.
    const heir = before.find((member) => member.userId !== userId);
    if (heir === undefined) {
      // Alone in it, so its owner: the chat goes as DELETE /chats/{id} takes it, every earlier event of it purged.
      await tx.messages.deleteChatMessages(chatId);
      await tx.chats.deleteChat(chatId);
      await appendPurging(tx.events, { type: 'chat.deleted', chatId, createdAt: now, data: { id: chatId }, alsoUserIds: [userId] });
      left.deleted.push(chatId);
      continue;
    }
    if (membership.ownerId === userId) {
      await tx.chats.setChatOwner(chatId, heir.userId, now);
      left.handedOver.push(chatId);
    }
    await tx.chats.removeMember(chatId, userId);
    await tx.chats.touchChat(chatId, now);
    // member.removed (to them too), then chat.updated with the new owner and members.
    await appendChatChangeEvents(tx, chatId, before, now);
  }
  return left;
}
