// Who may sign up (docs/protocol.md §13): --registration open, invite or closed; the first account of an empty
// database always may, and is an admin.
import type { RequestContext } from '../context.ts';
import { HttpError } from '../../http/http-error.ts';
import type { Role, Tx, UserRow } from '../../storage/store.ts';
import { authenticate } from '../session/authenticate.ts';
import { isActiveAdmin } from './roles.ts';
import { recordAudit } from '../audit/record.ts';
import { findUsableInvite, takeInviteUse } from '../invites/redeem.ts';

/** What a sign-up that may go ahead gets: the new account's role, and what its insert's transaction also writes. */
export interface SignUpGrant {
  role: Role;
  /** Runs in the transaction that inserts the user (an invite's use is counted there, or the insert is undone). */
  redeem?: (tx: Tx, user: UserRow) => Promise<void>;
}

function inviteRequired(): HttpError {
  return new HttpError('ERR_INVITE_REQUIRED', 'Sign-up on this server needs an invite: ask a member for an invite link',
    { errors: [{ field: 'inviteCode', message: 'is required' }] });
}

/** Closed: only an admin's own request (a bearer token or their session cookie) creates an account. */
async function requireAdminCaller(ctx: RequestContext): Promise<void> {
  const caller = ctx.caller ?? await authenticate(ctx.req, ctx.services, 'optional', ctx.kept);
  const user = caller === undefined ? undefined : await ctx.services.storage.users.findUserById(caller.userId);
  if (!isActiveAdmin(user)) throw new HttpError('ERR_REGISTRATION_CLOSED', 'Sign-up is closed on this server: an admin creates accounts');
}

/**
 * docs/protocol.md §13.2: a code, in any mode, must be usable now (checked here before any hash runs), gives the
 * account its role, and has one of its uses taken in the transaction that inserts the user, audited as the new
 * account's act. The check is made again there: another sign-up may have taken the last use meanwhile.
 */
async function inviteGrant(ctx: RequestContext, inviteCode: string): Promise<SignUpGrant> {
  const { storage, clock } = ctx.services;
  const invite = await findUsableInvite(storage, inviteCode, clock.now());
  return {
    role: invite.role,
    redeem: async (tx, user) => {
      const used = await takeInviteUse(tx, inviteCode, clock.now());
      await recordAudit(tx, ctx, { action: 'invite.use', targetType: 'invite', targetId: used.id, actorId: user.id, detail: { userId: user.id, role: used.role } });
    },
  };
}

/** Checks the sign-up rules before any password is hashed; throws the 403 that says why not. */
export async function checkSignUp(ctx: RequestContext, inviteCode: string | undefined): Promise<SignUpGrant> {
  switch (ctx.services.config.registration) {
    case 'closed':
      // A code opens nothing here; an admin creating an account may still give one, for its role.
      await requireAdminCaller(ctx);
      return inviteCode === undefined ? { role: 'member' } : inviteGrant(ctx, inviteCode);
    case 'invite':
      if (inviteCode === undefined) throw inviteRequired();
      return inviteGrant(ctx, inviteCode);
    case 'open':
      return inviteCode === undefined ? { role: 'member' } : inviteGrant(ctx, inviteCode);
  }
}
