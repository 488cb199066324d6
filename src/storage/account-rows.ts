// The rows of a user's records as a whole (export, erasure), invites and the audit log (docs/protocol.md §3.6, §13).
import type { ReactionRow, RevisionRow } from './rows.ts';

/** One of a user's chats as their export shows it: the chat's title and owner, their join time and read marker. */
export interface MembershipRow {
  chatId: string;
  /** Null for a direct chat (docs/protocol.md §14.1). */
  title: string | null;
  ownerId: string;
  addedAt: number;
  lastReadId: string | null;
  unreadCount: number;
  mentionCount: number;
}

/** A reaction with the chat of its message (an export places it without another read). */
export interface ReactionOfUserRow extends ReactionRow {
  chatId: string;
}

/** An earlier text of one of a user's messages (revision n of messageId). */
export interface RevisionOfMessageRow extends RevisionRow {
  messageId: string;
}

/** An invite (docs/protocol.md §13.5): found by the SHA-256 of its code, never by the code itself. */
export interface InviteRow {
  id: string;
  /** The SHA-256 of the code: the code itself is shown once, in the answer that made it, and never stored. */
  codeHash: Buffer;
  createdBy: string;
  /** The role an account made with it gets. */
  role: 'admin' | 'member';
  /** null: any number of sign-ups. */
  maxUses: number | null;
  uses: number;
  /** null: never expires. */
  expiresAt: number | null;
  createdAt: number;
  /** When it was revoked (DELETE /invites/{id}); null while it holds. */
  revokedAt: number | null;
}

/** One entry of the audit log (docs/protocol.md §13): who did what to which resource, and when. */
export interface AuditRow {
  id: string;
  at: number;
  /** The user who acted; null when it was the server itself (`chat-server admin`) or the user is gone. */
  actorId: string | null;
  /** `<noun>.<verb>`: user.promote, invite.create, message.delete, ... */
  action: string;
  targetType: string;
  targetId: string;
  /** What else the entry says (a chat id, an author, a role), or null. */
  detail: Record<string, unknown> | null;
}
