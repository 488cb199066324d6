// Web Push's keys and subscriptions on PostgreSQL (docs/protocol.md §17): the SQL SQLite runs too (push-sql.ts).
import type { PushRepository, PushSubscriptionRow, VapidKeyRow } from '../push-repository.ts';
import * as SQL from '../push-sql.ts';
import type { Sql } from './connection.ts';

/** bigint and integer columns arrive as text or numbers: made the row's types. */
function toRow(row: Record<string, unknown> | undefined): PushSubscriptionRow | undefined {
  if (!row) return undefined;
  return { ...(row as unknown as PushSubscriptionRow), pageHidden: Number(row['pageHidden']) !== 0, createdAt: Number(row['createdAt']) };
}

export class PgPush implements PushRepository {
  private readonly sql: Sql;

  constructor(sql: Sql) {
    this.sql = sql;
  }

  async findVapidKey(): Promise<VapidKeyRow | undefined> {
    const row = await this.sql.one<Record<string, unknown>>(SQL.VAPID_SELECT_SQL, []);
    return row ? { ...(row as unknown as VapidKeyRow), createdAt: Number(row['createdAt']) } : undefined;
  }

  async insertVapidKeyIfAbsent(key: VapidKeyRow): Promise<void> {
    await this.sql.count(SQL.VAPID_INSERT_SQL, [key.publicKey, key.privateKey, key.createdAt]);
  }

  async insertPushSubscription(row: PushSubscriptionRow): Promise<void> {
    await this.sql.count(SQL.SUBSCRIPTION_INSERT_SQL, [row.id, row.userId, row.sessionId, row.endpoint, row.p256dh, row.auth, row.pageHidden ? 1 : 0, row.createdAt]);
  }

  async findPushSubscription(id: string): Promise<PushSubscriptionRow | undefined> {
    return toRow(await this.sql.one<Record<string, unknown>>(SQL.SUBSCRIPTION_BY_ID_SQL, [id]));
  }

  async findPushSubscriptionAt(endpoint: string): Promise<PushSubscriptionRow | undefined> {
    return toRow(await this.sql.one<Record<string, unknown>>(SQL.SUBSCRIPTION_AT_SQL, [endpoint]));
  }

  async listPushSubscriptionsOfUser(userId: string): Promise<PushSubscriptionRow[]> {
    return (await this.sql.rows<Record<string, unknown>>(SQL.SUBSCRIPTIONS_OF_USER_SQL, [userId])).map((row) => toRow(row)!);
  }

  async listPushSubscriptionsInChat(chatId: string): Promise<PushSubscriptionRow[]> {
    return (await this.sql.rows<Record<string, unknown>>(SQL.SUBSCRIPTIONS_IN_CHAT_SQL, [chatId])).map((row) => toRow(row)!);
  }

  async deletePushSubscription(id: string): Promise<boolean> {
    return (await this.sql.count(SQL.SUBSCRIPTION_DELETE_SQL, [id])) === 1;
  }

  async deletePushSubscriptionsOfSessions(sessionIds: readonly string[]): Promise<string[]> {
    const ids: string[] = [];
    for (const sessionId of sessionIds) ids.push(...(await this.sql.rows<{ id: string }>(SQL.SUBSCRIPTIONS_OF_SESSION_DELETE_SQL, [sessionId])).map((row) => row.id));
    return ids;
  }

  async deletePushSubscriptionsOfUser(userId: string): Promise<string[]> {
    return (await this.sql.rows<{ id: string }>(SQL.SUBSCRIPTIONS_OF_USER_DELETE_SQL, [userId])).map((row) => row.id);
  }

  setPageHidden(sessionId: string, hidden: boolean): Promise<number> {
    return this.sql.count(SQL.PAGE_HIDDEN_SQL, [hidden ? 1 : 0, sessionId]);
  }
}
