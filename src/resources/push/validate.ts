// The browser's PushSubscription JSON (docs/protocol.md §17.2): {endpoint, keys: {p256dh, auth}}, with an optional
// expirationTime, the endpoint checked as every outbound target is (src/outbound/safe-target.ts).
import { invalidField } from '../../http/http-error.ts';
import { rejectUnknownFields, requireString, unwrapEnvelope, type Body } from '../../parsers/body-fields.ts';
import { resolveSafeTarget, TargetRefusedError } from '../../outbound/safe-target.ts';

export interface NewPushSubscription {
  endpoint: string;
  p256dh: string;
  auth: string;
}

const BASE64URL = /^[A-Za-z0-9_-]+=*$/;

function requireKey(keys: Body, name: 'p256dh' | 'auth', bytes: number): string {
  const text = requireString(keys, name, { min: 1, max: 200 }, 'keys.');
  const decoded = BASE64URL.test(text) ? Buffer.from(text, 'base64url') : Buffer.alloc(0);
  if (decoded.length !== bytes || (name === 'p256dh' && decoded[0] !== 0x04)) {
    throw invalidField(`keys.${name}`, name === 'p256dh' ? 'must be an uncompressed P-256 point, 65 bytes in base64url' : 'must be 16 bytes in base64url');
  }
  return decoded.toString('base64url');
}

/** Accepts the PushSubscription as toJSON() gives it, bare or in {"data": ...}. */
export async function validateNewPushSubscription(body: Body, allowInsecure: boolean): Promise<NewPushSubscription> {
  const data = 'data' in body ? unwrapEnvelope(body) : body;
  rejectUnknownFields(data, ['endpoint', 'keys', 'expirationTime']);
  const endpoint = requireString(data, 'endpoint', { min: 1, max: 2000 });
  const keys = data['keys'];
  if (keys === null || typeof keys !== 'object' || Array.isArray(keys)) throw invalidField('keys', 'must be an object with p256dh and auth');
  rejectUnknownFields(keys as Body, ['p256dh', 'auth'], 'keys.');
  const p256dh = requireKey(keys as Body, 'p256dh', 65);
  const auth = requireKey(keys as Body, 'auth', 16);
  try {
    await resolveSafeTarget(endpoint, { allowPrivate: allowInsecure });
  } catch (error) {
    if (error instanceof TargetRefusedError) throw invalidField('endpoint', error.message);
    throw error;
  }
  return { endpoint, p256dh, auth };
}

/** POST /push/visibility: {"hidden": true|false}. */
export function validateVisibility(body: Body): boolean {
  const data = 'data' in body ? unwrapEnvelope(body) : body;
  rejectUnknownFields(data, ['hidden']);
  const hidden = data['hidden'];
  if (typeof hidden === 'boolean') return hidden;
  // A form posts text.
  if (hidden === 'true' || hidden === 'false') return hidden === 'true';
  throw invalidField('hidden', 'must be true or false');
}
