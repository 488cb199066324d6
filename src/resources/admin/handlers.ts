// GET /admin: the administration page (docs/html.md, Administration): people, invites and the audit log on one page.
import type { Reply, RequestContext } from '../context.ts';
import { parseQuery } from '../../parsers/query.ts';
import { isoTime, publicAuditEntry, publicInvite, publicUser } from '../../representations/public-fields.ts';
import type { Resource } from '../../representations/representation.ts';
import type { InviteRow, UserRow } from '../../storage/store.ts';
import { AUDIT_FIELDS } from '../audit/handlers.ts';
import { INVITE_FIELDS } from '../invites/handlers.ts';
import { refusalNow } from '../invites/redeem.ts';
import { requireAdmin } from '../users/roles.ts';
import { USER_FIELDS } from '../users/handlers.ts';
import { PATHS } from '../../paths.ts';

/** The page shows the first people by login and the newest invites and audit entries; the collections hold the rest. */
export const ADMIN_PAGE_PEOPLE = 100;
export const ADMIN_PAGE_INVITES = 50;
export const ADMIN_PAGE_AUDIT = 50;

const STATES = { ERR_INVITE_REVOKED: 'revoked', ERR_INVITE_EXPIRED: 'expired', ERR_INVITE_USED_UP: 'used up', ERR_INVITE_INVALID: 'unknown' } as const;

/** A person as the page lists them: the public user with when they were last seen. */
function personOf(row: UserRow): Resource {
  return { ...publicUser(row), lastSeenAt: row.lastSeenAt === null ? null : isoTime(row.lastSeenAt) };
}

/** An invite as the page lists it: its public fields and what a sign-up with it would hear now. */
async function listedInvite(ctx: RequestContext, row: InviteRow, now: number): Promise<Resource> {
  const refusal = await refusalNow(ctx.services.storage, row, now);
  return { ...publicInvite(row), state: refusal === undefined ? 'open' : STATES[refusal] };
}

/**
 * Administrators only (403 for anyone else, in every representation). A browser gets the page; a client, which has the
 * collections themselves, gets where they are (AdminIndex).
 */
export async function getAdminPage(ctx: RequestContext): Promise<Reply> {
  await requireAdmin(ctx);
  const { storage, clock } = ctx.services;
  const links = { users: ctx.href(PATHS.users), invites: ctx.href(PATHS.invites), audit: ctx.href(PATHS.audit) };
  if (ctx.mediaType !== 'text/html') return { status: 200, representation: { kind: 'single', type: 'admin', enveloped: false, data: links } };
  const now = clock.now();
  const people = await storage.collections.listUsers(parseQuery(`limit=${ADMIN_PAGE_PEOPLE}&sort=login&order=asc`, USER_FIELDS));
  const invites = await storage.invites.listInvites(undefined, parseQuery(`limit=${ADMIN_PAGE_INVITES}&sort=createdAt&order=desc`, INVITE_FIELDS));
  const audit = await storage.collections.listAudit(parseQuery(`limit=${ADMIN_PAGE_AUDIT}&sort=id&order=desc`, AUDIT_FIELDS));
  const data = {
    people: people.rows.map(personOf),
    peopleTotal: people.total,
    invites: await Promise.all(invites.rows.map((row) => listedInvite(ctx, row, now))),
    invitesTotal: invites.total,
    audit: audit.rows.map(publicAuditEntry),
    auditTotal: audit.total,
    links,
  };
  return { status: 200, representation: { kind: 'single', type: 'admin', enveloped: false, data } };
}
