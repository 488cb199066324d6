// GET /join/{code}: the page an invite link opens, a sign-up form with the code in it (docs/html.md, Joining).
import type { Reply, RequestContext } from '../context.ts';
import { HttpError } from '../../http/http-error.ts';
import { isoTime } from '../../representations/public-fields.ts';
import type { InviteRow } from '../../storage/store.ts';
import type { SignUpState } from '../service/index-page.ts';
import { hashInviteCode } from './invite-code.ts';
import { inviteRefused, refusalNow } from './redeem.ts';
import { PATHS } from '../../paths.ts';

/** Why this code cannot make an account now: unknown is 404, revoked, expired and used up 403 with their own code. */
async function refusalProblem(ctx: RequestContext, invite: InviteRow | undefined): Promise<HttpError | undefined> {
  if (ctx.services.config.registration === 'closed') {
    return new HttpError('ERR_FORBIDDEN', 'This server takes no sign-ups: only an administrator creates accounts');
  }
  const refusal = await refusalNow(ctx.services.storage, invite, ctx.services.clock.now());
  if (refusal === 'ERR_INVITE_INVALID') return new HttpError('ERR_NOT_FOUND', 'No invite has this code: ask for a new link');
  return refusal === undefined ? undefined : inviteRefused(refusal);
}

/**
 * The page of a code: for a browser, the sign-up form with the code as a hidden field, or the reason it cannot be used
 * (with that status); `signUp` is what a refused sign-up posted from it shows again. For a client, what the holder of
 * a usable code may know before signing up (InviteStatus), or the problem.
 */
export async function joinPageReply(ctx: RequestContext, code: string, status = 200, signUp: SignUpState = {}): Promise<Reply> {
  const invite = await ctx.services.storage.invites.findInviteByCodeHash(hashInviteCode(code));
  const problem = await refusalProblem(ctx, invite);
  if (ctx.mediaType !== 'text/html') {
    if (problem !== undefined) throw problem;
    const usable = invite!;
    const data = {
      role: usable.role,
      expiresAt: usable.expiresAt === null ? null : isoTime(usable.expiresAt),
      usesLeft: usable.maxUses === null ? null : usable.maxUses - usable.uses,
      signUp: ctx.href(PATHS.users),
    };
    return { status, representation: { kind: 'single', type: 'invite-status', enveloped: false, data } };
  }
  // For a person: "The invite was revoked", rather than the field the API's problem names.
  const reason = problem?.errors?.[0] === undefined ? problem?.detail : `The invite ${problem.errors[0].message}.`;
  const refused = problem === undefined ? undefined : { status: problem.status, title: problem.title, detail: reason };
  const data = {
    code,
    role: invite?.role ?? null,
    expiresAt: invite?.expiresAt == null ? null : isoTime(invite.expiresAt),
    refused: refused ?? null,
    signUp,
  };
  // A refused sign-up keeps its own status; a page of an unusable code has the status of the reason.
  return { status: signUp.status ?? refused?.status ?? status, representation: { kind: 'single', type: 'join', enveloped: false, data } };
}

export function getJoinPage(ctx: RequestContext): Promise<Reply> {
  return joinPageReply(ctx, ctx.params['code']!);
}
