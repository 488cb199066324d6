// Web Push of the Store (docs/protocol.md §17), beside store.ts: each backend implements it on its tables push_keys
// and push_subscriptions, with the SQL both share (push-sql.ts).

/** The server's VAPID key pair (RFC 8292 §3.2), base64url: the uncompressed P-256 point and the scalar d. */
export interface VapidKeyRow {
  publicKey: string;
  privateKey: string;
  createdAt: number;
}

/** A browser's push subscription (the W3C Push API's PushSubscription), tied to the session that made it. */
export interface PushSubscriptionRow {
  id: string;
  userId: string;
  /** The login session's id, or the personal access token's, that made it: its end removes the subscription. */
  sessionId: string;
  endpoint: string;
  /** base64url: the browser's P-256 public key (65 bytes) and its auth secret (16 bytes), RFC 8291 §3. */
  p256dh: string;
  auth: string;
  /** The session's page said it is hidden (POST /push/visibility). */
  pageHidden: boolean;
  createdAt: number;
}

export interface PushRepository {
  findVapidKey(): Promise<VapidKeyRow | undefined>;
  /** Inserts the key unless one is kept already (race-free: the first process's key wins); answers nothing. */
  insertVapidKeyIfAbsent(key: VapidKeyRow): Promise<void>;
  insertPushSubscription(row: PushSubscriptionRow): Promise<void>;
  findPushSubscription(id: string): Promise<PushSubscriptionRow | undefined>;
  /** The subscription at this endpoint, whoever made it (a browser re-subscribing sends the same endpoint). */
  findPushSubscriptionAt(endpoint: string): Promise<PushSubscriptionRow | undefined>;
  /** The user's subscriptions, oldest first. */
  listPushSubscriptionsOfUser(userId: string): Promise<PushSubscriptionRow[]>;
  /** The subscriptions of every member of the chat, by user then age (a message's pushes are queued from these). */
  listPushSubscriptionsInChat(chatId: string): Promise<PushSubscriptionRow[]>;
  deletePushSubscription(id: string): Promise<boolean>;
  /** Deletes the subscriptions the sessions made; answers their ids. */
  deletePushSubscriptionsOfSessions(sessionIds: readonly string[]): Promise<string[]>;
  /** Deletes every subscription of the user; answers their ids. */
  deletePushSubscriptionsOfUser(userId: string): Promise<string[]>;
  /** Marks the session's subscriptions hidden or not; answers how many. */
  setPageHidden(sessionId: string, hidden: boolean): Promise<number>;
}
