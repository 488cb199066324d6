// TEMPORARY stub of the foundation's roles.ts (replaced by main's at merge).
import type { RequestContext } from '../context.ts';
import { HttpError } from '../../http/http-error.ts';

export async function isAdmin(ctx: RequestContext): Promise<boolean> {
  const row = ctx.caller ? await ctx.services.storage.users.findUserById(ctx.caller.userId) : undefined;
  return (row as { role?: string } | undefined)?.role === 'admin';
}

export async function requireAdmin(ctx: RequestContext): Promise<void> {
  if (!(await isAdmin(ctx))) throw new HttpError('ERR_FORBIDDEN', 'Only an administrator may do this');
}
