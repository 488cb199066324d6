// The invites of the Store (docs/protocol.md §13.5), beside store.ts: each backend implements it on its own table.
import type { ParsedQuery } from '../parsers/query.ts';
import type { Page } from './rows.ts';
import type { InviteRow } from './account-rows.ts';

/** Invites (docs/protocol.md §13.5): sign-up codes, kept as their SHA-256 only. */
export interface InviteRepository {
  insertInvite(invite: InviteRow): Promise<void>;
  findInviteById(id: string): Promise<InviteRow | undefined>;
  findInviteByCodeHash(codeHash: Buffer): Promise<InviteRow | undefined>;
  /**
   * Counts one sign-up with the invite if it still holds at `now` (not revoked, not expired, a use left), in one
   * conditional UPDATE: of two sign-ups racing for its last use exactly one gets true. False when it did not hold.
   */
  useInvite(id: string, now: number): Promise<boolean>;
  /** Sets revokedAt unless it is set already; true when this call revoked it. */
  revokeInvite(id: string, now: number): Promise<boolean>;
  /**
   * A page of invites: every one, or only those `createdBy` made. Fields id, role, createdBy, maxUses, uses,
   * expiresAt, createdAt, revokedAt.
   */
  listInvites(createdBy: string | undefined, query: ParsedQuery): Promise<Page<InviteRow>>;
}
