// Routes of the audit log: one collection, read by admins.
import type { Route } from '../context.ts';
import { one, page } from '../../openapi/route-doc.ts';
import { AUDIT_FIELDS, getAuditEntry, listAudit } from './handlers.ts';
import { PATHS } from '../../paths.ts';

export const AUDIT_ROUTES: Route[] = [
  {
    method: 'GET', pattern: PATHS.audit, handler: listAudit, summary: 'The audit log, newest first unless sorted (admins only)',
    responses: { 200: page('AuditEntry') }, problems: [403], query: { fields: AUDIT_FIELDS },
  },
  { method: 'GET', pattern: PATHS.auditEntry, handler: getAuditEntry, summary: 'One entry of the audit log (admins only)', responses: { 200: one('AuditEntry') }, problems: [403] },
];
