// Bots, access tokens and webhooks on PostgreSQL (docs/protocol.md §16): the shared SQL of storage/integration-sql.ts.
import type { ParsedQuery } from '../../parsers/query.ts';
import type { AccessTokenRow, IntegrationRepository, WebhookRow } from '../integration-repository.ts';
import { INTEGRATION_SQL, TOKEN_LIST_COLUMNS, TOKEN_LIST_SELECT, tokenValues, WEBHOOK_LIST_COLUMNS, WEBHOOK_LIST_SELECT, webhookValues } from '../integration-sql.ts';
import type { Page } from '../rows.ts';
import type { Sql } from './connection.ts';
import { listPage } from './collections.ts';

export class PgIntegrations implements IntegrationRepository {
  private readonly sql: Sql;

  constructor(sql: Sql) {
    this.sql = sql;
  }

  async markBot(userId: string, ownerId: string): Promise<void> {
    await this.sql.run(INTEGRATION_SQL.markBot, [ownerId, userId]);
  }

  async insertAccessToken(token: AccessTokenRow): Promise<void> {
    await this.sql.run(INTEGRATION_SQL.insertToken, tokenValues(token));
  }

  findAccessToken(id: string): Promise<AccessTokenRow | undefined> {
    return this.sql.one(INTEGRATION_SQL.tokenById, [id]);
  }

  findAccessTokenByHash(tokenHash: Buffer): Promise<AccessTokenRow | undefined> {
    return this.sql.one(INTEGRATION_SQL.tokenByHash, [tokenHash]);
  }

  async touchAccessToken(id: string, now: number): Promise<void> {
    await this.sql.run(INTEGRATION_SQL.touchToken, [now, id]);
  }

  async deleteAccessToken(id: string): Promise<boolean> {
    return (await this.sql.count(INTEGRATION_SQL.deleteToken, [id])) === 1;
  }

  async findAccessTokenIdsOf(userId: string): Promise<string[]> {
    return (await this.sql.rows<{ id: string }>(INTEGRATION_SQL.tokenIdsOf, [userId])).map((row) => row.id);
  }

  async deleteAccessTokensOf(userId: string): Promise<string[]> {
    return (await this.sql.rows<{ id: string }>(INTEGRATION_SQL.deleteTokensOf, [userId])).map((row) => row.id);
  }

  listAccessTokens(userId: string, query: ParsedQuery): Promise<Page<AccessTokenRow>> {
    return listPage(this.sql, { select: TOKEN_LIST_SELECT, columns: TOKEN_LIST_COLUMNS, scope: 't.user_id = ?', scopeParams: [userId] }, query);
  }

  async findLiveAccessTokens(ids: readonly string[], now: number): Promise<Map<string, number>> {
    if (ids.length === 0) return new Map();
    const rows = await this.sql.rows<{ id: string; until: string | null }>('SELECT id, expires_at AS until FROM access_tokens WHERE id = ANY(?::text[]) AND (expires_at IS NULL OR expires_at > ?)', [ids, now]);
    return new Map(rows.map((row) => [row.id, row.until === null ? Number.POSITIVE_INFINITY : Number(row.until)]));
  }

  async insertWebhook(webhook: WebhookRow): Promise<void> {
    await this.sql.run(INTEGRATION_SQL.insertWebhook, webhookValues(webhook));
  }

  findWebhook(id: string): Promise<WebhookRow | undefined> {
    return this.sql.one(INTEGRATION_SQL.webhookById, [id]);
  }

  findWebhookBySecretHash(secretHash: Buffer): Promise<WebhookRow | undefined> {
    return this.sql.one(INTEGRATION_SQL.webhookBySecret, [secretHash]);
  }

  listWebhooks(chatId: string, query: ParsedQuery): Promise<Page<WebhookRow>> {
    return listPage(this.sql, { select: WEBHOOK_LIST_SELECT, columns: WEBHOOK_LIST_COLUMNS, scope: 'w.chat_id = ?', scopeParams: [chatId] }, query);
  }

  async disableWebhook(id: string, now: number): Promise<boolean> {
    return (await this.sql.count(INTEGRATION_SQL.disableWebhook, [now, id])) === 1;
  }

  async deleteWebhook(id: string): Promise<boolean> {
    return (await this.sql.count(INTEGRATION_SQL.deleteWebhook, [id])) === 1;
  }

  findAccessTokensOfUser(userId: string): Promise<Omit<AccessTokenRow, 'tokenHash'>[]> {
    return this.sql.rows(INTEGRATION_SQL.tokensOfUser, [userId]);
  }

  async findBotIdsOfOwner(ownerId: string): Promise<string[]> {
    return (await this.sql.rows<{ id: string }>(INTEGRATION_SQL.botIdsOfOwner, [ownerId])).map((row) => row.id);
  }

  findWebhooksOfChatsOwnedBy(ownerId: string): Promise<Omit<WebhookRow, 'secretHash' | 'signingSecret'>[]> {
    return this.sql.rows(INTEGRATION_SQL.webhooksOfOwnedChats, [ownerId, ownerId]);
  }
}
