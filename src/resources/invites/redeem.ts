// Whether an invite code may make an account now, and taking one of its uses in the sign-up's transaction.
import { HttpError } from '../../http/http-error.ts';
import type { InviteRow, Repositories, Tx } from '../../storage/store.ts';
import { hashInviteCode } from './invite-code.ts';

export type InviteRefusal = 'ERR_INVITE_INVALID' | 'ERR_INVITE_REVOKED' | 'ERR_INVITE_EXPIRED' | 'ERR_INVITE_USED_UP';

const MESSAGES: Record<InviteRefusal, string> = {
  ERR_INVITE_INVALID: 'is not a known invite code',
  ERR_INVITE_REVOKED: 'was revoked',
  ERR_INVITE_EXPIRED: 'has expired',
  ERR_INVITE_USED_UP: 'has been used as many times as it allows',
};

/**
 * Why the invite cannot make an account at `now`, or undefined when it can. docs/protocol.md §13.2: unknown first,
 * then revoked, expired and used up, in that order, so an invite that is several of these names the first.
 */
export function refusalOf(invite: InviteRow | undefined, now: number): InviteRefusal | undefined {
  if (invite === undefined) return 'ERR_INVITE_INVALID';
  if (invite.revokedAt !== null) return 'ERR_INVITE_REVOKED';
  if (invite.expiresAt !== null && invite.expiresAt <= now) return 'ERR_INVITE_EXPIRED';
  if (invite.maxUses !== null && invite.uses >= invite.maxUses) return 'ERR_INVITE_USED_UP';
  return undefined;
}

/**
 * refusalOf, and one rule that needs the database: the invite of a deactivated account (or of one erased) is
 * revoked with it (docs/protocol.md §13.5), so a removed troublemaker's links let nobody in.
 */
export async function refusalNow(repositories: Repositories, invite: InviteRow | undefined, now: number): Promise<InviteRefusal | undefined> {
  const refusal = refusalOf(invite, now);
  if (refusal !== undefined || invite === undefined) return refusal;
  const maker = await repositories.users.findUserById(invite.createdBy);
  return maker === undefined || maker.deactivatedAt !== null ? 'ERR_INVITE_REVOKED' : undefined;
}

/** The 403 of an unusable code, naming the field it came in. */
export function inviteRefused(code: InviteRefusal, field = 'inviteCode'): HttpError {
  const message = MESSAGES[code];
  return new HttpError(code, `${field}: ${message}`, { errors: [{ field, message }] });
}

/** The invite of a code that may make an account now; else the 403 that says why. */
export async function findUsableInvite(repositories: Repositories, code: string, now: number): Promise<InviteRow> {
  const invite = await repositories.invites.findInviteByCodeHash(hashInviteCode(code));
  const refusal = await refusalNow(repositories, invite, now);
  if (refusal !== undefined) throw inviteRefused(refusal);
  return invite!;
}

/**
 * Takes one use of the code inside the sign-up's transaction: one conditional UPDATE, so of two sign-ups racing for
 * the last use exactly one gets it (the other hears ERR_INVITE_USED_UP), and a sign-up that fails later (a taken
 * login) gives the use back with its rollback.
 */
export async function takeInviteUse(tx: Tx, code: string, now: number): Promise<InviteRow> {
  const invite = await findUsableInvite(tx, code, now);
  if (await tx.invites.useInvite(invite.id, now)) return { ...invite, uses: invite.uses + 1 };
  throw inviteRefused(refusalOf(await tx.invites.findInviteById(invite.id), now) ?? 'ERR_INVITE_USED_UP');
}
