// One request's reads that may be kept between requests (storage/read-through.ts makes them): what the Store hands
// the layers above, the same on every backend, whether it keeps anything or not.
import type { KeptKind } from './kept-entries.ts';
import type { ChatAccess, SessionRow } from './rows.ts';

/**
 * The kinds of value the layers above may keep: a caller's own ('per-caller', through `keep`), or one the same for
 * every member of a chat and made of its messages only ('shared', through `keepInChat`).
 */
export type KeptValueKind = Extract<KeptKind, 'shared' | 'per-caller'>;

export interface KeptReads {
  /**
   * sessions.findSessionByTokenHash, found kept while no session ended and no user was deactivated (while nothing
   * was written, on a store without a version of its sessions). A kept row may show an earlier use than the
   * database (another process's): one that has expired by `now` as kept is read again.
   */
  findSessionByTokenHash(tokenHash: Buffer, now: number): Promise<SessionRow | undefined>;
  /** The request wrote the use of the session it found (sessions.recordSessionUse): `used` is the row as it is now. */
  sessionUsed(tokenHash: Buffer, used: SessionRow): void;
  /** chats.findChatForMember, found kept while the chat's members and owner stay as they were. */
  findChatForMember(chatId: string, userId: string): Promise<ChatAccess | undefined>;
  /**
   * `read()`'s answer for `key`, kept when `keepable` says so (it may make the value unchangeable first: it is
   * shared by every request that finds it), while nothing is written. `read` must depend on nothing but the
   * database and the key.
   */
  keep<T>(kind: 'per-caller', key: string, read: () => Promise<T>, keepable: (value: T) => boolean): Promise<T>;
  /**
   * As `keep`, kept while chat `chatId`'s messages and members stay as they were, whatever else is written: `read`
   * must depend on nothing but those and the key (a page of the chat's history; access is the caller's to check).
   */
  keepInChat<T>(chatId: string, key: string, read: () => Promise<T>, keepable: (value: T) => boolean): Promise<T>;
}
