// Row -> public fields: the one place that picks what a client sees of each stored row. The return types
// come from the schemas of the OpenAPI document (schemas.ts): a field added to one and not the other fails tsc.
import type { AttachmentRow, AvatarRow, ChatRow, MemberRow, MessageRow, ReactionRow, ReadMarkerRow, RevisionRow, SessionRow, UserRow } from '../storage/rows.ts';
import type { AuditRow, InviteRow } from '../storage/account-rows.ts';
import { isoTime } from './iso-time.ts';
import { PATHS } from '../paths.ts';
import { buildPath } from '../router/compile-pattern.ts';
import type {
  PublicAction, PublicAttachment, PublicAuditEntry, PublicAvatar, PublicChat, PublicInvite, PublicMember, PublicMessage, PublicSession, PublicUser, PublicUserSession,
} from './schemas.ts';

export { isoTime };

/**
 * Never the password hash. `presence` is given by whoever answers (docs/protocol.md §14.6): it is computed at that
 * moment, so it is left out where the user is stored for later (a user.updated event in the log).
 */
export function publicUser(row: UserRow, presence?: PublicUser['presence']): PublicUser {
  const user = {
    id: row.id, login: row.login, avatar: row.avatarId, role: row.role, active: row.deactivatedAt === null,
    kind: row.kind, ownerId: row.ownerId,
  };
  const at = { createdAt: isoTime(row.createdAt), updatedAt: isoTime(row.updatedAt) };
  return presence === undefined ? { ...user, ...at } : { ...user, presence, ...at };
}

export function publicAuditEntry(row: AuditRow): PublicAuditEntry {
  return {
    id: row.id, at: isoTime(row.at), actorId: row.actorId, action: row.action,
    targetType: row.targetType as PublicAuditEntry['targetType'], targetId: row.targetId, detail: row.detail,
  };
}

/** `avatar` is the path of the image bytes, built by the caller (under the base path); never the bytes or the stored ETag. */
export function publicAvatar(row: AvatarRow, imagePath: string): PublicAvatar {
  return {
    id: row.id,
    userId: row.userId,
    avatar: imagePath,
    // Stored only after image-info.ts recognised the bytes as one of the four formats.
    contentType: row.contentType as PublicAvatar['contentType'],
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
export function publicSession(row: SessionRow): PublicSession {
  return { userId: row.userId, expiresAt: isoTime(row.expiresAt), createdAt: isoTime(row.createdAt) };
}

/** One of a user's sessions as they list it (docs/protocol.md §3.5): never the token or its hash. */
export function publicUserSession(row: SessionRow, currentId: string | undefined): PublicUserSession {
  return {
    id: row.id,
    createdAt: isoTime(row.createdAt),
    lastUsedAt: isoTime(row.lastUsedAt),
    expiresAt: isoTime(row.expiresAt),
    userAgent: row.userAgent,
    address: row.address,
    current: row.id === currentId,
  };
}

/** The chat as every member sees it: what events carry (docs/protocol.md §9.1 leaves the per-caller fields out). */
export function publicChat(row: ChatRow): PublicChat {
  return { id: row.id, kind: row.kind, title: row.title, ownerId: row.ownerId, members: row.members, createdAt: isoTime(row.createdAt), updatedAt: isoTime(row.updatedAt) };
}

/** The chat as one member reads it: with their own read marker and unread count (docs/protocol.md §10.1). */
export function publicChatForCaller(row: ChatRow, marker: Pick<ReadMarkerRow, 'lastReadId' | 'unreadCount' | 'mentionCount'>): Record<string, unknown> {
  // One literal, not a spread of publicChat: a page of 50 chats is serialised about twice as fast.
  return {
    id: row.id,
    kind: row.kind,
    title: row.title,
    ownerId: row.ownerId,
    members: row.members,
    createdAt: isoTime(row.createdAt),
    updatedAt: isoTime(row.updatedAt),
    lastReadId: marker.lastReadId,
    unreadCount: marker.unreadCount,
    mentionCount: marker.mentionCount,
  };
}

export function publicReadMarker(row: ReadMarkerRow): Record<string, unknown> {
  return { chatId: row.chatId, lastReadId: row.lastReadId, unreadCount: row.unreadCount, mentionCount: row.mentionCount };
}

/** One user's reaction; messageId only where the reaction travels alone (in events), so a client can place it. */
export function publicReaction(row: ReactionRow, withMessageId = false): Record<string, unknown> {
  const reaction = { emoji: row.emoji, userId: row.userId, createdAt: isoTime(row.createdAt) };
  return withMessageId ? { messageId: row.messageId, ...reaction } : reaction;
}

/** Revision ids are JSON strings like every id (docs/protocol.md §1.2): "1" is the text the message was posted with. */
export function publicRevision(row: RevisionRow): Record<string, unknown> {
  return { id: String(row.id), text: row.text, createdAt: isoTime(row.createdAt) };
}

/**
 * One membership: who, under which login (so a client can show names without a lookup per member), since
 * when. `id` is the user's id, so a member is addressable like every other row (docs/protocol.md §1.6).
 */
export function publicMember(row: MemberRow): PublicMember {
  return { id: row.userId, userId: row.userId, login: row.login, addedAt: isoTime(row.addedAt) };
}

/** What a message keeps of each of its files (MessageRow.attachments): the public fields but the href, which depends on the base path. */
export type AttachmentSummary = Omit<PublicAttachment, 'href'>;

export function attachmentSummary(row: AttachmentRow): AttachmentSummary {
  const summary: AttachmentSummary = { id: row.id, name: row.name, contentType: row.contentType as AttachmentSummary['contentType'], size: row.size, sha256: row.sha256 };
  if (row.width !== null && row.height !== null) Object.assign(summary, { width: row.width, height: row.height });
  return summary;
}

/** docs/protocol.md §15.1: the summary with the path of the bytes (under the base path), in the documented order. */
export function publicAttachment(summary: AttachmentSummary, chatId: string, basePath: string): PublicAttachment {
  const { id, name, contentType, size, sha256, width, height } = summary;
  const href = `${basePath}${buildPath(PATHS.attachment, { chatId, attachmentId: id })}`;
  return width === undefined || height === undefined ? { id, name, contentType, size, sha256, href } : { id, name, contentType, size, sha256, href, width, height };
}

/** basePath: the server's --base-path, which the attachments' hrefs start with. */
export function publicMessage(row: MessageRow, basePath: string): PublicMessage {
  return {
    id: row.id,
    chatId: row.chatId,
    authorId: row.authorId,
    text: row.text,
    replyTo: row.replyTo,
    createdAt: isoTime(row.createdAt),
    updatedAt: isoTime(row.updatedAt),
    editedAt: row.editedAt === null ? null : isoTime(row.editedAt),
    // Most messages have none: skip the parse.
    reactions: row.reactions === '[]' ? [] : JSON.parse(row.reactions) as PublicMessage['reactions'],
    mentions: row.mentions === '[]' ? [] : JSON.parse(row.mentions) as string[],
    attachments: row.attachments === '[]' ? [] : (JSON.parse(row.attachments) as AttachmentSummary[]).map((summary) => publicAttachment(summary, row.chatId, basePath)),
  };
}

/** Something the caller may do to a message now (docs/protocol.md §4.5): the method and the complete path to call. */
export function publicAction(row: { id: string; method: PublicAction['method']; href: string }): PublicAction {
  return { id: row.id, method: row.method, href: row.href };
}

/**
 * Never the code's hash. The code and its join URL exist only in the answer that made the invite (`shown`): the
 * server keeps no copy of the code, so every later answer has null for both (docs/protocol.md §13.5).
 */
export function publicInvite(row: InviteRow, shown?: { code: string; url: string }): PublicInvite {
  return {
    id: row.id,
    code: shown?.code ?? null,
    url: shown?.url ?? null,
    maxUses: row.maxUses,
    uses: row.uses,
    expiresAt: row.expiresAt === null ? null : isoTime(row.expiresAt),
    role: row.role,
    createdBy: row.createdBy,
    createdAt: isoTime(row.createdAt),
    revokedAt: row.revokedAt === null ? null : isoTime(row.revokedAt),
  };
}
