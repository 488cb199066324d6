// GET /audit: the audit log, for admins only, newest first unless the query sorts otherwise (docs/protocol.md §13).
import type { Reply, RequestContext } from '../context.ts';
import { HttpError } from '../../http/http-error.ts';
import { fieldsOf, parseQuery, type CollectionSpec } from '../../parsers/query.ts';
import { PATHS } from '../../paths.ts';
import { singleReply } from '../single-reply.ts';
import { publicAuditEntry } from '../../representations/public-fields.ts';
import type { AuditRow } from '../../storage/store.ts';
import { collectionReply } from '../collection.ts';
import { requireAdmin } from '../users/roles.ts';

export const AUDIT_FIELDS: CollectionSpec = {
  fields: fieldsOf({ id: 'id', at: 'timestamp', actorId: 'id', action: 'string', targetType: 'string', targetId: 'id' }),
};

export async function listAudit(ctx: RequestContext): Promise<Reply> {
  await requireAdmin(ctx);
  return collectionReply<AuditRow>(ctx, {
    type: 'auditEntry',
    spec: AUDIT_FIELDS,
    list: (query) => ctx.services.storage.collections.listAudit(query),
    toPublic: publicAuditEntry,
    itemHref: (entry) => ctx.href(PATHS.auditEntry, { entryId: String(entry['id']) }),
    defaultSort: '-id',
  });
}

/** One entry, found through the log's own id filter. */
export async function getAuditEntry(ctx: RequestContext): Promise<Reply> {
  await requireAdmin(ctx);
  const id = ctx.params['entryId']!;
  const { rows } = await ctx.services.storage.collections.listAudit(parseQuery(`id=${encodeURIComponent(id)}`, AUDIT_FIELDS));
  if (rows[0] === undefined) throw new HttpError('ERR_NOT_FOUND', `No audit entry ${id}`);
  return singleReply('auditEntry', publicAuditEntry(rows[0]), [{ rel: 'collection', href: ctx.href(PATHS.audit) }]);
}
