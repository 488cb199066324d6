// Field rules of a new personal access token (docs/protocol.md §16.1): name, expiresAt, scopes.
import { invalidField } from '../../http/http-error.ts';
import { rejectUnknownFields, requireString, unwrapEnvelope, type Body } from '../../parsers/body-fields.ts';
import { parseFieldValue } from '../../parsers/query-values.ts';
import type { TokenScopes } from '../../storage/store.ts';

export const TOKEN_NAME_RULE = { min: 1, max: 100 };

export interface NewToken {
  name: string;
  expiresAt: number | null;
  scopes: TokenScopes;
}

/** ["read"] or ["read", "write"] in any order (from a form: "read" or "read write"); write alone is refused. */
function checkScopes(value: unknown): TokenScopes {
  const list = typeof value === 'string' ? value.split(/[\s,]+/).filter((item) => item !== '') : value;
  const message = 'must be ["read"] or ["read", "write"]';
  if (!Array.isArray(list) || list.length === 0 || list.some((item) => item !== 'read' && item !== 'write')) throw invalidField('data.scopes', message);
  if (!list.includes('read')) throw invalidField('data.scopes', `${message}: write comes with read`);
  return list.includes('write') ? 'read write' : 'read';
}

function checkExpiresAt(value: unknown, now: number): number | null {
  if (value === null || value === '') return null;
  const parsed = typeof value === 'string' ? parseFieldValue('timestamp', value) : undefined;
  if (parsed === undefined || !parsed.ok) throw invalidField('data.expiresAt', 'must be an ISO 8601 date-time such as 2026-12-01T09:30:00Z, or null for never');
  if ((parsed.value as number) <= now) throw invalidField('data.expiresAt', 'must be in the future');
  return parsed.value as number;
}

export function validateNewToken(body: Body, now: number): NewToken {
  const data = unwrapEnvelope(body);
  rejectUnknownFields(data, ['name', 'expiresAt', 'scopes'], 'data.');
  return {
    name: requireString(data, 'name', TOKEN_NAME_RULE, 'data.'),
    expiresAt: data['expiresAt'] === undefined ? null : checkExpiresAt(data['expiresAt'], now),
    scopes: data['scopes'] === undefined ? 'read write' : checkScopes(data['scopes']),
  };
}
