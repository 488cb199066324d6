// Standard Webhooks signatures (https://www.standardwebhooks.com, docs/protocol.md §16.4): the secret is whsec_ and
// base64 of 24 random bytes; a POST carries webhook-id, webhook-timestamp (seconds) and webhook-signature
// "v1,<base64 of HMAC-SHA256(secret bytes, "<id>.<timestamp>.<body>")>".
import { createHmac, randomBytes } from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';

export function newSigningSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(24).toString('base64')}`;
}

export function signPayload(secret: string, id: string, timestampSeconds: number, body: Buffer): string {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  const mac = createHmac('sha256', key).update(`${id}.${timestampSeconds}.`).update(body).digest('base64');
  return `v1,${mac}`;
}

/** The three headers of one signed POST, with its content type. */
export function signedHeaders(secret: string, id: string, timestampSeconds: number, body: Buffer): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': 'chat-server-webhooks',
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': signPayload(secret, id, timestampSeconds, body),
  };
}
