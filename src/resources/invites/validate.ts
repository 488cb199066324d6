// Field rules of a new invite (docs/protocol.md §13.5): maxUses, expiresAt and role, each with its default.
import { invalidField } from '../../http/http-error.ts';
import { rejectUnknownFields, unwrapEnvelope, type Body } from '../../parsers/body-fields.ts';
import { parseFieldValue } from '../../parsers/query-values.ts';

/** Without maxUses an invite makes one account; without expiresAt it holds for seven days. */
export const DEFAULT_MAX_USES = 1;
export const MAX_MAX_USES = 10_000;
export const DEFAULT_INVITE_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;
export const ROLES = ['admin', 'member'] as const;

export interface NewInvite {
  maxUses: number | null;
  expiresAt: number | null;
  role: 'admin' | 'member';
}

/** A whole number from JSON, or its decimal text from an HTML form (whose fields are all text). */
function checkMaxUses(value: unknown, fromForm: boolean): number | null {
  if (value === null) return null;
  const number = fromForm && typeof value === 'string' && /^\d{1,9}$/.test(value.trim()) ? Number(value.trim()) : value;
  if (typeof number !== 'number' || !Number.isInteger(number) || number < 1 || number > MAX_MAX_USES) {
    throw invalidField('data.maxUses', `must be a whole number from 1 to ${MAX_MAX_USES}, or null for no limit`);
  }
  return number;
}

/** An ISO 8601 date-time (docs/protocol.md §1.3; without a zone it is UTC, as a form's datetime-local sends it), after now. */
function checkExpiresAt(value: unknown, now: number): number | null {
  if (value === null) return null;
  const parsed = typeof value === 'string' ? parseFieldValue('timestamp', value) : undefined;
  if (parsed === undefined || !parsed.ok) throw invalidField('data.expiresAt', 'must be an ISO 8601 date-time such as 2026-12-01T09:30:00Z, or null for never');
  if ((parsed.value as number) <= now) throw invalidField('data.expiresAt', 'must be in the future');
  return parsed.value as number;
}

export function validateNewInvite(body: Body, now: number, fromForm: boolean): NewInvite {
  const data = unwrapEnvelope(body);
  rejectUnknownFields(data, ['maxUses', 'expiresAt', 'role'], 'data.');
  const role = data['role'] ?? 'member';
  if (!ROLES.includes(role as NewInvite['role'])) throw invalidField('data.role', 'must be "admin" or "member"');
  return {
    maxUses: data['maxUses'] === undefined ? DEFAULT_MAX_USES : checkMaxUses(data['maxUses'], fromForm),
    expiresAt: data['expiresAt'] === undefined ? now + DEFAULT_INVITE_LIFETIME_MS : checkExpiresAt(data['expiresAt'], now),
    role: role as NewInvite['role'],
  };
}
