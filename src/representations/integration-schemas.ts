// The public shapes of access tokens, webhooks and their deliveries (docs/protocol.md §16), and their serializers:
// the schemas for the OpenAPI document, and through Infer the serializers' return types, so the two cannot drift.
import { arrayOf, describe, id, integer, nullable, object, oneOfValues, text, timestamp, type Infer, type Schema } from '../openapi/schema.ts';
import type { AccessTokenRow, DeliveryAttemptRow, OutboundDeliveryRow, WebhookRow } from '../storage/store.ts';
import { isoTime } from './iso-time.ts';

const AT = '2026-11-21T09:30:00.000Z';
const USER_ID = '01JDAXW3K8Q7M2C6R9T0V5B4NE';
const CHAT_ID = '01JDAXZ9M4B1F7E2A8D3C6K0PQ';

export const ACCESS_TOKEN = object({
  id: id(),
  userId: id('Whose token it is: a person, or a bot'),
  name: text(undefined, { description: 'What it is for, 1 to 100 characters' }),
  token: describe(nullable(text()), 'The bearer token: in the answer to POST only, null in every later answer'),
  scopes: describe(arrayOf(oneOfValues(['read', 'write'])), '["read"] or ["read", "write"]'),
  createdAt: timestamp(),
  lastUsedAt: describe(nullable(timestamp()), 'When it last authenticated a request (to the minute); null: never'),
  expiresAt: describe(nullable(timestamp()), 'When it stops working; null: never'),
}, {
  description: 'A personal access token (docs/protocol.md §16.1).',
  example: { id: '01JDB0TOKEN00000000000000A', userId: USER_ID, name: 'CI', token: 'chat_pat_3q2-7wEXAMPLEx0aZkP8Vf1sQb9mN4rT6yU2hJ5cL0dE', scopes: ['read', 'write'], createdAt: AT, lastUsedAt: null, expiresAt: null },
});

export const WEBHOOK = object({
  id: id(),
  chatId: id(),
  name: text(undefined, { description: 'Also the name of its bot user' }),
  direction: oneOfValues(['incoming', 'outgoing']),
  botId: id('The bot user it posts as (incoming) or that answers (outgoing)'),
  createdBy: describe(nullable(id()), 'Who made it; null once erased'),
  url: describe(nullable(text()), 'Incoming: its secret address, in the answer to POST only (else null). Outgoing: where deliveries go'),
  secret: describe(nullable(text()), 'Outgoing: the signing secret, whsec_<base64>, in the answer to POST only (else null)'),
  events: describe(nullable(arrayOf(text())), 'Outgoing: the event types delivered'),
  trigger: { anyOf: [oneOfValues(['all', 'mentions']), { type: 'null' }], description: 'Outgoing: every matching event ("all"), or only those that mention its bot ("mentions"); null for an incoming one' } as Schema<'all' | 'mentions' | null>,
  createdAt: timestamp(),
  disabledAt: describe(nullable(timestamp()), 'When 24 h of failing deliveries disabled it; null while it works'),
}, {
  description: 'A webhook of a chat (docs/protocol.md §16.3, §16.4).',
  example: {
    id: '01JDB0HOOK000000000000000A', chatId: CHAT_ID, name: 'CI', direction: 'outgoing', botId: '01JDB0BOT0000000000000000A', createdBy: USER_ID,
    url: 'https://ci.example/chat', secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', events: ['message.created'], trigger: 'mentions', createdAt: AT, disabledAt: null,
  },
});

export const DELIVERY_ATTEMPT = object({
  attempt: describe(integer({ minimum: 1 }), 'Its number: 1 for the first'),
  at: timestamp('When it ended'),
  status: describe(nullable(integer()), 'The HTTP status of the reply; null when none came'),
  durationMs: describe(nullable(integer({ minimum: 0 })), 'How long it took; null when it never started (its webhook was gone)'),
  error: describe(nullable(text()), 'Why it failed: a network error, a timeout, a redirect, a refused address, a status; null when it delivered'),
}, { description: 'One attempt of a delivery (docs/protocol.md §16.4).' });

export const DELIVERY = object({
  id: text(undefined, { description: 'Also the webhook-id header of its POSTs' }),
  eventId: describe(nullable(text()), 'The event delivered'),
  state: oneOfValues(['pending', 'delivered', 'failed', 'dropped'] as const, 'pending: to be tried (again); failed: given up after 24 h; dropped: its webhook was disabled or deleted first'),
  attempts: integer({ minimum: 0 }),
  nextAttemptAt: describe(nullable(timestamp()), 'While pending: when it is tried next'),
  createdAt: timestamp(),
  lastAttemptAt: describe(nullable(timestamp()), 'The last attempt; null before the first'),
  lastStatus: describe(nullable(integer()), 'The HTTP status of the last reply; null when none came'),
  lastError: describe(nullable(text()), 'Why the last attempt failed: a network error, a timeout, a redirect, a refused address, a status'),
  lastDurationMs: describe(nullable(integer({ minimum: 0 })), 'How long the last attempt took'),
  attemptLog: describe(arrayOf(DELIVERY_ATTEMPT), 'Every attempt, oldest first: the newest 40 of a delivery are kept'),
}, {
  description: 'A delivery of one event to an outgoing webhook and its attempts (docs/protocol.md §16.5).',
  example: {
    id: '42', eventId: '1017', state: 'delivered', attempts: 1, nextAttemptAt: null, createdAt: AT, lastAttemptAt: AT, lastStatus: 200, lastError: null, lastDurationMs: 12,
    attemptLog: [{ attempt: 1, at: AT, status: 200, durationMs: 12, error: null }],
  },
});

export type PublicAccessToken = Infer<typeof ACCESS_TOKEN>;
export type PublicWebhook = Infer<typeof WEBHOOK>;
export type PublicDelivery = Infer<typeof DELIVERY>;

const formatOptionalTime = (at: number | null): string | null => (at === null ? null : isoTime(at));

export function publicAccessToken(row: Omit<AccessTokenRow, 'tokenHash'>, token?: string): PublicAccessToken {
  return {
    id: row.id, userId: row.userId, name: row.name, token: token ?? null, scopes: row.scopes === 'read' ? ['read'] : ['read', 'write'],
    createdAt: isoTime(row.createdAt), lastUsedAt: formatOptionalTime(row.lastUsedAt), expiresAt: formatOptionalTime(row.expiresAt),
  };
}

export function publicWebhook(row: Omit<WebhookRow, 'secretHash' | 'signingSecret'>, shown?: { url?: string; secret?: string }): PublicWebhook {
  const outgoing = row.direction === 'outgoing';
  return {
    id: row.id, chatId: row.chatId, name: row.name, direction: row.direction, botId: row.botId, createdBy: row.createdBy,
    url: outgoing ? row.url : (shown?.url ?? null), secret: shown?.secret ?? null,
    events: outgoing && row.events !== null ? JSON.parse(row.events) as string[] : null, trigger: outgoing ? row.trigger : null,
    createdAt: isoTime(row.createdAt), disabledAt: formatOptionalTime(row.disabledAt),
  };
}

/** A delivery with its kept attempts (any order: they are sorted by number). */
export function publicDelivery(row: OutboundDeliveryRow, attempts: readonly DeliveryAttemptRow[]): PublicDelivery {
  const attemptLog = [...attempts].sort((a, b) => a.attempt - b.attempt)
    .map((attempt) => ({ attempt: attempt.attempt, at: isoTime(attempt.at), status: attempt.status, durationMs: attempt.durationMs, error: attempt.error }));
  return {
    id: String(row.id), eventId: row.eventId === null ? null : String(row.eventId), state: row.state, attempts: row.attempts,
    nextAttemptAt: row.state === 'pending' ? isoTime(row.nextAttemptAt) : null, createdAt: isoTime(row.createdAt),
    lastAttemptAt: formatOptionalTime(row.lastAttemptAt), lastStatus: row.lastStatus, lastError: row.lastError, lastDurationMs: row.lastDurationMs, attemptLog,
  };
}
