// Bots, access tokens and webhooks on SQLite (docs/protocol.md §16): the shared SQL of storage/integration-sql.ts.
import type { ParsedQuery } from '../../parsers/query.ts';
import type { AccessTokenRow, WebhookRow } from '../integration-repository.ts';
import { INTEGRATION_SQL, TOKEN_LIST_COLUMNS, TOKEN_LIST_SELECT, tokenValues, WEBHOOK_LIST_COLUMNS, WEBHOOK_LIST_SELECT, webhookValues } from '../integration-sql.ts';
import type { Page } from '../rows.ts';
import type { Db } from './database.ts';
import { PageRunner } from './list-page.ts';
import { prepareStatements } from './statements.ts';

/** Which of a list of token ids hold, and until when (NULL: no expiry); the list as JSON, one statement for any length. */
const LIVE_TOKENS = 'SELECT t.id, t.expires_at AS until FROM json_each(?) j JOIN access_tokens t ON t.id = j.value WHERE t.expires_at IS NULL OR t.expires_at > ?';

export class IntegrationStore {
  private readonly sql;
  private readonly liveTokens;
  private readonly db: Db;
  private readonly pages: PageRunner;

  constructor(db: Db) {
    this.db = db;
    this.sql = prepareStatements(db, INTEGRATION_SQL);
    this.liveTokens = db.prepare(LIVE_TOKENS);
    this.pages = new PageRunner(db);
  }

  markBot(userId: string, ownerId: string): void {
    this.sql.markBot.run(ownerId, userId);
  }

  insertAccessToken(token: AccessTokenRow): void {
    this.sql.insertToken.run(...tokenValues(token));
  }

  findAccessToken(id: string): AccessTokenRow | undefined {
    return this.sql.tokenById.get(id) as AccessTokenRow | undefined;
  }

  findAccessTokenByHash(tokenHash: Buffer): AccessTokenRow | undefined {
    return this.sql.tokenByHash.get(tokenHash) as AccessTokenRow | undefined;
  }

  touchAccessToken(id: string, now: number): void {
    this.sql.touchToken.run(now, id);
  }

  deleteAccessToken(id: string): boolean {
    return this.sql.deleteToken.run(id).changes === 1;
  }

  findAccessTokenIdsOf(userId: string): string[] {
    return (this.sql.tokenIdsOf.all(userId) as { id: string }[]).map((row) => row.id);
  }

  deleteAccessTokensOf(userId: string): string[] {
    return (this.sql.deleteTokensOf.all(userId) as { id: string }[]).map((row) => row.id);
  }

  listAccessTokens(userId: string, query: ParsedQuery): Page<AccessTokenRow> {
    return this.pages.listPage<AccessTokenRow>({ select: TOKEN_LIST_SELECT, columns: TOKEN_LIST_COLUMNS, scope: 't.user_id = ?', scopeParams: [userId] }, query);
  }

  findLiveAccessTokens(ids: readonly string[], now: number): Map<string, number> {
    if (ids.length === 0) return new Map();
    const rows = this.liveTokens.all(JSON.stringify(ids), now) as { id: string; until: number | null }[];
    return new Map(rows.map((row) => [row.id, row.until ?? Number.POSITIVE_INFINITY]));
  }

  insertWebhook(webhook: WebhookRow): void {
    this.sql.insertWebhook.run(...webhookValues(webhook));
  }

  findWebhook(id: string): WebhookRow | undefined {
    return this.sql.webhookById.get(id) as WebhookRow | undefined;
  }

  findWebhookBySecretHash(secretHash: Buffer): WebhookRow | undefined {
    return this.sql.webhookBySecret.get(secretHash) as WebhookRow | undefined;
  }

  listWebhooks(chatId: string, query: ParsedQuery): Page<WebhookRow> {
    return this.pages.listPage<WebhookRow>({ select: WEBHOOK_LIST_SELECT, columns: WEBHOOK_LIST_COLUMNS, scope: 'w.chat_id = ?', scopeParams: [chatId] }, query);
  }

  disableWebhook(id: string, now: number): boolean {
    return this.sql.disableWebhook.run(now, id).changes === 1;
  }

  deleteWebhook(id: string): boolean {
    return this.sql.deleteWebhook.run(id).changes === 1;
  }

  findAccessTokensOfUser(userId: string): Omit<AccessTokenRow, 'tokenHash'>[] {
    return this.sql.tokensOfUser.all(userId) as Omit<AccessTokenRow, 'tokenHash'>[];
  }

  findBotIdsOfOwner(ownerId: string): string[] {
    return (this.sql.botIdsOfOwner.all(ownerId) as { id: string }[]).map((row) => row.id);
  }

  findWebhooksOfChatsOwnedBy(ownerId: string): Omit<WebhookRow, 'secretHash' | 'signingSecret'>[] {
    return this.sql.webhooksOfOwnedChats.all(ownerId, ownerId) as Omit<WebhookRow, 'secretHash' | 'signingSecret'>[];
  }
}
