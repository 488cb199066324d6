// The repositories of conversations: chats and their members, messages, read markers, reactions and revisions.
import type { ChatAccess, ChatForCallerRow, ChatRow, MemberRow, MessageRow, NewChatRow, NotificationLevel, ReactionRow, ReadMarkerRow, RevisionRow } from './rows.ts';

export interface ChatRepository {
  /** Any chat, visible or not: only for deciding between create, replace and 404 in PUT. */
  findChat(id: string): Promise<ChatRow | undefined>;
  /** The chat if the user is one of its members; the same undefined when it does not exist. */
  findChatForMember(chatId: string, userId: string): Promise<ChatAccess | undefined>;
  /**
   * The chat as one member reads it (with their marker and unread count), undefined when the user is not a
   * member or there is no chat, in one read: what GET /chats/{id} answers.
   */
  findChatForCaller(chatId: string, userId: string): Promise<ChatForCallerRow | undefined>;
  /** Rejects with a unique StoreConstraintError when a direct chat of that pair exists (directKey is unique). */
  insertChat(chat: NewChatRow): Promise<void>;
  updateChatTitle(id: string, title: string, updatedAt: number): Promise<void>;
  /** A member list change is a change of the chat, so its updatedAt moves too. */
  touchChat(id: string, updatedAt: number): Promise<void>;
  /** The chat and its member rows; delete its messages first (messages.deleteChatMessages), in the same transaction. */
  deleteChat(id: string): Promise<void>;
  /** True when the user was not a member yet. Rejects with a foreign-key StoreConstraintError for an unknown user. */
  addMember(chatId: string, userId: string, addedAt: number): Promise<boolean>;
  removeMember(chatId: string, userId: string): Promise<boolean>;
  /** Removes every member not in userIds; answers how many went. */
  keepOnlyMembers(chatId: string, userIds: readonly string[]): Promise<number>;
  findMember(chatId: string, userId: string): Promise<MemberRow | undefined>;
  /** In the order they joined (ties by user id). */
  findMembers(chatId: string): Promise<MemberRow[]>;
  /** The ids of userIds that name no user, in the order given: one query for the whole list. */
  findUnknownUsers(userIds: readonly string[]): Promise<string[]>;
  /** Hands the chat to another member (the caller checked they are one); its updatedAt moves. */
  setChatOwner(id: string, ownerId: string, updatedAt: number): Promise<void>;
  /** Everyone who shares at least one chat with the user, the user not included, by id: who hears of their changes. */
  findChatPeers(userId: string): Promise<string[]>;
  // Direct chats and notification levels (docs/protocol.md §14.1, §14.3).
  /** The direct chat of a pair by its key ("<smaller id>:<larger id>"), members or not. */
  findDirectChat(directKey: string): Promise<ChatRow | undefined>;
  /** The member's level in the chat; null returns to the default of the chat's kind. */
  setNotificationLevel(chatId: string, userId: string, level: NotificationLevel | null): Promise<void>;
}

/** A message as it is inserted: no reactions or edit yet; attachments absent for none. */
export type NewMessage = Omit<MessageRow, 'reactions' | 'editedAt' | 'attachments'> & { attachments?: string };

export interface MessageRepository {
  /** attachments: the summary of the files it holds (NO_ATTACHMENTS when absent), written once with the message. */
  insertMessage(message: NewMessage): Promise<void>;
  /** Any message, in any chat: the caller checks that the reader may see its chat. */
  findMessage(id: string): Promise<MessageRow | undefined>;
  findMessageInChat(chatId: string, id: string): Promise<MessageRow | undefined>;
  /**
   * True when `replyTo` is a message of the chat stored before `messageId` (in insertion order, whatever
   * the ids say; any message of the chat when messageId is null): replies never form a cycle.
   */
  isEarlierMessageInChat(chatId: string, replyTo: string, messageId: string | null): Promise<boolean>;
  /** A change of the text also keeps the text it replaces as a revision. */
  updateMessage(message: Pick<MessageRow, 'id' | 'text' | 'replyTo' | 'updatedAt' | 'editedAt' | 'mentions'>): Promise<void>;
  /** The messages that reply to this one, by id. */
  findReplies(id: string): Promise<MessageRow[]>;
  /** Deletes one message; its replies lose their replyTo and their updatedAt becomes `now`. */
  deleteMessage(id: string, now: number): Promise<void>;
  /** Every message of a chat; answers how many went. */
  deleteChatMessages(chatId: string): Promise<number>;
}

export interface ReadMarkerRepository {
  /** The member's marker, or undefined when the user is not a member. */
  findMarker(chatId: string, userId: string): Promise<ReadMarkerRow | undefined>;
  /** Moves the marker (forward or back) and recounts; the caller checked that lastReadId is a message of the chat. */
  setMarker(chatId: string, userId: string, lastReadId: string | null): Promise<ReadMarkerRow | undefined>;
}

export interface ReactionRepository {
  findReaction(messageId: string, emoji: string, userId: string): Promise<ReactionRow | undefined>;
  /** True when the reaction is new; false when this user had already reacted so. */
  addReaction(reaction: ReactionRow): Promise<boolean>;
  removeReaction(messageId: string, emoji: string, userId: string): Promise<boolean>;
}

export interface RevisionRepository {
  /** Revision n of a message (1 = as posted; the highest = the current text), or undefined. */
  findRevision(messageId: string, n: number): Promise<RevisionRow | undefined>;
}
