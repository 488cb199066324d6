// Row -> public fields: the one place that picks what a client sees of each stored row.
import type { AvatarRow } from '../storage/avatar-store.ts';
import type { ChatRow, MemberRow } from '../storage/chat-store.ts';
import type { MessageRow } from '../storage/message-store.ts';
import type { SessionRow } from '../storage/session-store.ts';
import type { UserRow } from '../storage/user-store.ts';

export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}

/** Never the password hash. */
export function publicUser(row: UserRow): Record<string, unknown> {
  return { id: row.id, login: row.login, avatar: row.avatarId, createdAt: isoTime(row.createdAt), updatedAt: isoTime(row.updatedAt) };
}

/** `avatar` is the path of the image bytes, built by the caller (under the base path); never the bytes or the stored ETag. */
export function publicAvatar(row: AvatarRow, imagePath: string): Record<string, unknown> {
  return {
    id: row.id,
    userId: row.userId,
    avatar: imagePath,
    contentType: row.contentType,
    imageWidth: row.imageWidth,
    imageHeight: row.imageHeight,
    x: row.x,
    y: row.y,
    width: row.width,
    height: row.height,
    createdAt: isoTime(row.createdAt),
  };
}

/** Never the token or its hash: the token is shown once, in the answer to POST /session. */
export function publicSession(row: SessionRow): Record<string, unknown> {
  return { userId: row.userId, expiresAt: isoTime(row.expiresAt), createdAt: isoTime(row.createdAt) };
}

export function publicChat(row: ChatRow): Record<string, unknown> {
  return { id: row.id, title: row.title, ownerId: row.ownerId, members: row.members, createdAt: isoTime(row.createdAt), updatedAt: isoTime(row.updatedAt) };
}

/**
 * One membership: who, under which login (so a client can show names without a lookup per member), since
 * when. `id` is the user's id, so a member is addressable like every other row (CONTRACT §1).
 */
export function publicMember(row: MemberRow): Record<string, unknown> {
  return { id: row.userId, userId: row.userId, login: row.login, addedAt: isoTime(row.addedAt) };
}

export function publicMessage(row: MessageRow): Record<string, unknown> {
  return {
    id: row.id,
    chatId: row.chatId,
    authorId: row.authorId,
    text: row.text,
    replyTo: row.replyTo,
    createdAt: isoTime(row.createdAt),
    updatedAt: isoTime(row.updatedAt),
  };
}

/** Something the caller may do to a message now (CONTRACT §4): the method and the complete path to call. */
export function publicAction(row: { id: string; method: string; href: string }): Record<string, unknown> {
  return { id: row.id, method: row.method, href: row.href };
}
