// The public shapes of Web Push (docs/protocol.md §17): the server's VAPID key and a push subscription, with their
// serializers; the schemas feed the OpenAPI document, and through Infer the serializers' types.
import { boolean, id, object, text, timestamp, type Infer } from '../openapi/schema.ts';
import type { PushSubscriptionRow } from '../storage/store.ts';
import { isoTime } from './iso-time.ts';

export const PUSH_KEY = object({
  publicKey: text(undefined, { description: 'The VAPID public key (RFC 8292 §3.2), base64url of the uncompressed P-256 point: the applicationServerKey of PushManager.subscribe()' }),
  sending: boolean('Whether the server sends pushes (--push-subject is set)'),
}, {
  description: 'The server\'s Web Push key (docs/protocol.md §17.1).',
  example: { publicKey: 'BDd3_hVL9fZi9Ybo2UUzA284WG5FZR8uHcCYcCu9SebhpHk2sWXrtl1u9V5ZNGLBmE8ZQ6L7Rt1q0b2HOq1xXNs', sending: true },
});

export const PUSH_SUBSCRIPTION = object({
  id: id(),
  endpoint: text(undefined, { description: 'The push service\'s URL for this browser' }),
  createdAt: timestamp(),
}, {
  description: 'A browser\'s push subscription, tied to the session that made it (docs/protocol.md §17.2). Its keys are never shown.',
  example: { id: '01JDB0PUSH000000000000000A', endpoint: 'https://push.example.net/wpush/v2/gAAAAABnEXAMPLE', createdAt: '2026-11-21T09:30:00.000Z' },
});

export type PublicPushKey = Infer<typeof PUSH_KEY>;
export type PublicPushSubscription = Infer<typeof PUSH_SUBSCRIPTION>;

export function publicPushSubscription(row: PushSubscriptionRow): PublicPushSubscription {
  return { id: row.id, endpoint: row.endpoint, createdAt: isoTime(row.createdAt) };
}
