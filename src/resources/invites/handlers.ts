// Invites (docs/protocol.md §13.5): create one (its code shown once), list, read and revoke them.
import type { Reply, RequestContext } from '../context.ts';
import { checkPreconditions, etagOf } from '../../http/conditional.ts';
import { HttpError } from '../../http/http-error.ts';
import { readJsonBody } from '../../http/json-body.ts';
import { fieldsOf, type CollectionSpec } from '../../parsers/query.ts';
import { publicInvite } from '../../representations/public-fields.ts';
import type { Resource } from '../../representations/representation.ts';
import { newId } from '../../storage/ids.ts';
import type { InviteRow } from '../../storage/store.ts';
import { recordAudit } from '../audit/record.ts';
import { collectionReply } from '../collection.ts';
import { singleReply } from '../single-reply.ts';
import { isAdmin } from '../users/roles.ts';
import { hashInviteCode, newInviteCode } from './invite-code.ts';
import { validateNewInvite } from './validate.ts';
import { PATHS } from '../../paths.ts';

export const INVITE_FIELDS: CollectionSpec = {
  fields: fieldsOf({
    id: 'id', role: 'string', createdBy: 'id', maxUses: 'number', uses: 'number', expiresAt: 'timestamp', createdAt: 'timestamp', revokedAt: 'timestamp',
  }),
};

function inviteReply(ctx: RequestContext, invite: Resource, status = 200, headers?: Record<string, string>): Reply {
  return singleReply('invite', invite, [{ rel: 'collection', href: ctx.href(PATHS.invites) }], headers === undefined ? { status } : { status, headers });
}

/** The absolute address of a code's join page: the public origin (never the client's Host), the base path, /join/<code>. */
export function joinUrl(ctx: RequestContext, code: string): string {
  return `${ctx.services.publicOrigin()}${ctx.href(PATHS.join, { code })}`;
}

/** docs/protocol.md §13.5: administrators invite; members too with --members-invite, never to a role above their own. */
export async function createInvite(ctx: RequestContext): Promise<Reply> {
  const { storage, clock, config } = ctx.services;
  const admin = await isAdmin(ctx);
  if (!admin && !config.membersInvite) throw new HttpError('ERR_FORBIDDEN', 'Only administrators may invite on this server');
  const now = clock.now();
  const wanted = validateNewInvite(await readJsonBody(ctx, config.maxBodyBytes, ['application/json']), now, ctx.form !== undefined);
  if (wanted.role === 'admin' && !admin) {
    const message = 'may be "admin" only in an administrator\'s invite';
    throw new HttpError('ERR_FORBIDDEN', `data.role: ${message}`, { errors: [{ field: 'data.role', message }] });
  }
  const code = newInviteCode();
  const row: InviteRow = { id: newId(now), codeHash: hashInviteCode(code), createdBy: ctx.caller!.userId, ...wanted, uses: 0, createdAt: now, revokedAt: null };
  await storage.transaction(async (tx) => {
    await tx.invites.insertInvite(row);
    await recordAudit(tx, ctx, { action: 'invite.create', targetType: 'invite', targetId: row.id, detail: { role: row.role, maxUses: row.maxUses, expiresAt: row.expiresAt } });
  });
  const invite = publicInvite(row, { code, url: joinUrl(ctx, code) });
  return inviteReply(ctx, invite, 201, { Location: ctx.href(PATHS.invite, { inviteId: row.id }) });
}

/** Administrators read every invite; anyone else only their own. */
export async function listInvites(ctx: RequestContext): Promise<Reply> {
  const createdBy = (await isAdmin(ctx)) ? undefined : ctx.caller!.userId;
  return collectionReply<InviteRow>(ctx, {
    type: 'invite',
    spec: INVITE_FIELDS,
    list: (query) => ctx.services.storage.invites.listInvites(createdBy, query),
    toPublic: (row) => publicInvite(row),
    itemHref: (invite) => ctx.href(PATHS.invite, { inviteId: String(invite['id']) }),
  });
}

/** The invite if the caller may see it (its maker, or an administrator); 404 alike for none and another's. */
async function findVisibleInvite(ctx: RequestContext): Promise<InviteRow> {
  const inviteId = ctx.params['inviteId']!;
  const invite = await ctx.services.storage.invites.findInviteById(inviteId);
  if (invite === undefined || (invite.createdBy !== ctx.caller!.userId && !(await isAdmin(ctx)))) {
    throw new HttpError('ERR_NOT_FOUND', `No invite ${inviteId}`);
  }
  return invite;
}

export async function getInvite(ctx: RequestContext): Promise<Reply> {
  return inviteReply(ctx, publicInvite(await findVisibleInvite(ctx)));
}

/**
 * DELETE revokes: the code stops working at once, and the invite stays listed with its revokedAt (the trail of who
 * invited whom). Revoking a revoked invite changes nothing and answers 204 again.
 */
export async function revokeInvite(ctx: RequestContext): Promise<Reply> {
  const { storage, clock } = ctx.services;
  const invite = await findVisibleInvite(ctx);
  // docs/protocol.md §7.7: If-Match with the invite's ETag, as GET answered it, or 412 and nothing revoked.
  checkPreconditions(ctx.req.headers, etagOf(publicInvite(invite)));
  await storage.transaction(async (tx) => {
    if (await tx.invites.revokeInvite(invite.id, clock.now())) {
      await recordAudit(tx, ctx, { action: 'invite.revoke', targetType: 'invite', targetId: invite.id, detail: { createdBy: invite.createdBy } });
    }
  });
  return { status: 204 };
}
