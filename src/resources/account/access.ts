// Who may read and end a user's sessions, export or erase them: the user themself, or an administrator (docs/protocol.md §3.5).
import type { RequestContext } from '../context.ts';
import { HttpError } from '../../http/http-error.ts';
import type { Repositories, UserRow } from '../../storage/store.ts';
import { isAdmin } from '../users/roles.ts';

/** What the caller may do with the account: `self` when it is their own, else they are an administrator. */
export interface AccountAccess {
  user: UserRow;
  self: boolean;
}

/**
 * The user of the path, when the caller is that user or an active administrator. An unknown (or erased) user is a
 * 404; anyone else asking is a 403, not a 404: users are public (GET /users/{id}), so hiding that one exists
 * would hide nothing.
 */
export async function findOwnAccount(ctx: RequestContext, what: string, db: Repositories = ctx.services.storage): Promise<AccountAccess> {
  const userId = ctx.params['userId']!;
  const user = await db.users.findUserById(userId);
  if (!user) throw new HttpError('ERR_NOT_FOUND', `No user ${userId}`);
  const self = userId === ctx.caller!.userId;
  if (!self && !(await isAdmin(ctx))) throw new HttpError('ERR_FORBIDDEN', `Only the user themself or an administrator may ${what}`);
  return { user, self };
}
