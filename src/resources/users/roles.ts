// Who is an admin (docs/protocol.md §13): read from the caller's user row on every request, so a demotion or a
// deactivation takes effect at once, on every process.
import type { RequestContext } from '../context.ts';
import { HttpError } from '../../http/http-error.ts';
import type { UserRow } from '../../storage/store.ts';

/** The caller's user row, or undefined for an anonymous request (or a user erased since the session began). */
export async function findCallerUser(ctx: RequestContext): Promise<UserRow | undefined> {
  return ctx.caller === undefined ? undefined : ctx.services.storage.users.findUserById(ctx.caller.userId);
}

export function isActiveAdmin(user: UserRow | undefined): boolean {
  return user !== undefined && user.role === 'admin' && user.deactivatedAt === null;
}

export async function isAdmin(ctx: RequestContext): Promise<boolean> {
  return isActiveAdmin(await findCallerUser(ctx));
}

/** 403 unless the caller is an active admin; answers the caller's row. */
export async function requireAdmin(ctx: RequestContext): Promise<UserRow> {
  const user = await findCallerUser(ctx);
  if (!isActiveAdmin(user)) throw new HttpError('ERR_FORBIDDEN', 'Only an admin may do this');
  return user!;
}
