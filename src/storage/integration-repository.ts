// Bots, personal access tokens and webhooks of the Store (docs/protocol.md §16), beside store.ts: each backend
// implements it on its tables users (kind, owner_id), access_tokens and webhooks.
import type { ParsedQuery } from '../parsers/query.ts';
import type { Page } from './rows.ts';

export type TokenScopes = 'read' | 'read write';

/** A personal access token (§16.1): found by the SHA-256 of the token, which is shown once and never stored. */
export interface AccessTokenRow {
  id: string;
  /** Whose token it is: a person, or a bot (whose owner manages it). */
  userId: string;
  name: string;
  tokenHash: Buffer;
  scopes: TokenScopes;
  createdAt: number;
  lastUsedAt: number | null;
  expiresAt: number | null;
}

export type WebhookDirection = 'incoming' | 'outgoing';
export type WebhookTrigger = 'all' | 'mentions';

/** A webhook of a chat (§16.3, §16.4), posting or heard as its bot user. */
export interface WebhookRow {
  id: string;
  chatId: string;
  botId: string;
  createdBy: string | null;
  name: string;
  direction: WebhookDirection;
  /** Incoming: the SHA-256 of the secret of its URL. */
  secretHash: Buffer | null;
  /** Outgoing: where deliveries go, the secret they are signed with (whsec_...), the event types (JSON array text), the trigger. */
  url: string | null;
  signingSecret: string | null;
  events: string | null;
  trigger: WebhookTrigger | null;
  createdAt: number;
  /** When 24 h of failing deliveries disabled it; null while it works. */
  disabledAt: number | null;
}

export interface IntegrationRepository {
  /** Makes an existing user (just inserted, without a password) a bot owned by ownerId. */
  markBot(userId: string, ownerId: string): Promise<void>;
  insertAccessToken(token: AccessTokenRow): Promise<void>;
  findAccessToken(id: string): Promise<AccessTokenRow | undefined>;
  findAccessTokenByHash(tokenHash: Buffer): Promise<AccessTokenRow | undefined>;
  touchAccessToken(id: string, now: number): Promise<void>;
  /** True when it existed. */
  deleteAccessToken(id: string): Promise<boolean>;
  /** A user's tokens. Fields id, name, scopes, createdAt, lastUsedAt, expiresAt. */
  listAccessTokens(userId: string, query: ParsedQuery): Promise<Page<AccessTokenRow>>;
  /** The ids of a user's tokens (a deactivation ends their streams). */
  findAccessTokenIdsOf(userId: string): Promise<string[]>;
  /** Deletes every token of a user (erasure); answers their ids. */
  deleteAccessTokensOf(userId: string): Promise<string[]>;
  /** Which of these ids are tokens that still hold at `now` (for streams held by tokens), each with its expiry (Infinity: none). */
  findLiveAccessTokens(ids: readonly string[], now: number): Promise<Map<string, number>>;
  insertWebhook(webhook: WebhookRow): Promise<void>;
  findWebhook(id: string): Promise<WebhookRow | undefined>;
  findWebhookBySecretHash(secretHash: Buffer): Promise<WebhookRow | undefined>;
  /** A chat's webhooks. Fields id, name, direction, createdAt, disabledAt. */
  listWebhooks(chatId: string, query: ParsedQuery): Promise<Page<WebhookRow>>;
  /** Sets disabledAt unless set already; true when this call disabled it. */
  disableWebhook(id: string, now: number): Promise<boolean>;
  /** True when it existed. Its bot user stays (its messages keep their author). */
  deleteWebhook(id: string): Promise<boolean>;
  /** For the export (§3.6): a user's tokens without their hashes, in id order. */
  findAccessTokensOfUser(userId: string): Promise<Omit<AccessTokenRow, 'tokenHash'>[]>;
  /** For the export: the ids of the bots a user owns, in id order. */
  findBotIdsOfOwner(ownerId: string): Promise<string[]>;
  /** For the export: the webhooks of the chats a user owns and those they made, without their secrets, by chat then id. */
  findWebhooksOfChatsOwnedBy(ownerId: string): Promise<Omit<WebhookRow, 'secretHash' | 'signingSecret'>[]>;
}
