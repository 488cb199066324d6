// Web Push's keys and subscriptions on SQLite (docs/protocol.md §17).
import type { PushSubscriptionRow, VapidKeyRow } from '../push-repository.ts';
import * as SQL from '../push-sql.ts';
import type { Db } from './database.ts';
import { prepareStatements } from './statements.ts';

type Stored = Omit<PushSubscriptionRow, 'pageHidden'> & { pageHidden: number };

function toRow(row: Stored | undefined): PushSubscriptionRow | undefined {
  return row ? { ...row, pageHidden: row.pageHidden !== 0 } : undefined;
}

export class PushStore {
  private readonly statements;

  constructor(db: Db) {
    this.statements = prepareStatements(db, {
      key: SQL.VAPID_SELECT_SQL,
      insertKey: SQL.VAPID_INSERT_SQL,
      insert: SQL.SUBSCRIPTION_INSERT_SQL,
      byId: SQL.SUBSCRIPTION_BY_ID_SQL,
      at: SQL.SUBSCRIPTION_AT_SQL,
      ofUser: SQL.SUBSCRIPTIONS_OF_USER_SQL,
      inChat: SQL.SUBSCRIPTIONS_IN_CHAT_SQL,
      remove: SQL.SUBSCRIPTION_DELETE_SQL,
      removeOfSession: SQL.SUBSCRIPTIONS_OF_SESSION_DELETE_SQL,
      removeOfUser: SQL.SUBSCRIPTIONS_OF_USER_DELETE_SQL,
      hidden: SQL.PAGE_HIDDEN_SQL,
    });
  }

  findVapidKey(): VapidKeyRow | undefined {
    return this.statements.key.get() as VapidKeyRow | undefined;
  }

  insertVapidKeyIfAbsent(key: VapidKeyRow): void {
    this.statements.insertKey.run(key.publicKey, key.privateKey, key.createdAt);
  }

  insertPushSubscription(row: PushSubscriptionRow): void {
    this.statements.insert.run(row.id, row.userId, row.sessionId, row.endpoint, row.p256dh, row.auth, row.pageHidden ? 1 : 0, row.createdAt);
  }

  findPushSubscription(id: string): PushSubscriptionRow | undefined {
    return toRow(this.statements.byId.get(id) as Stored | undefined);
  }

  findPushSubscriptionAt(endpoint: string): PushSubscriptionRow | undefined {
    return toRow(this.statements.at.get(endpoint) as Stored | undefined);
  }

  listPushSubscriptionsOfUser(userId: string): PushSubscriptionRow[] {
    return (this.statements.ofUser.all(userId) as Stored[]).map((row) => toRow(row)!);
  }

  listPushSubscriptionsInChat(chatId: string): PushSubscriptionRow[] {
    return (this.statements.inChat.all(chatId) as Stored[]).map((row) => toRow(row)!);
  }

  deletePushSubscription(id: string): boolean {
    return this.statements.remove.run(id).changes === 1;
  }

  deletePushSubscriptionsOfSessions(sessionIds: readonly string[]): string[] {
    return sessionIds.flatMap((sessionId) => (this.statements.removeOfSession.all(sessionId) as { id: string }[]).map((row) => row.id));
  }

  deletePushSubscriptionsOfUser(userId: string): string[] {
    return (this.statements.removeOfUser.all(userId) as { id: string }[]).map((row) => row.id);
  }

  setPageHidden(sessionId: string, hidden: boolean): number {
    return this.statements.hidden.run(hidden ? 1 : 0, sessionId).changes;
  }
}
