// One request's reads that may be kept between requests (storage/read-through.ts makes them): what the Store hands
// the layers above, the same on every backend, whether it keeps anything or not.
import type { KeptKind } from './kept-entries.ts';
import type { ChatAccess, SessionRow } from './rows.ts';

/** The kinds of value the layers above may keep through `keep`: a caller's own, or one shared by every reader. */
export type KeptValueKind = Extract<KeptKind, 'shared' | 'per-caller'>;

export interface KeptReads {
  /** sessions.findSessionByTokenHash, found kept while nothing was written. */
  findSessionByTokenHash(tokenHash: Buffer): Promise<SessionRow | undefined>;
  /** chats.findChatForMember, found kept while nothing was written. */
  findChatForMember(chatId: string, userId: string): Promise<ChatAccess | undefined>;
  /**
   * `read()`'s answer for `key`, kept when `keepable` says so (it may make the value unchangeable first: it is
   * shared by every request that finds it). `read` must depend on nothing but the database and the key.
   */
  keep<T>(kind: KeptValueKind, key: string, read: () => Promise<T>, keepable: (value: T) => boolean): Promise<T>;
}
