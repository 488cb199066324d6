// The 'push' kind of outbound delivery (docs/protocol.md §17.3-§17.5): the notification as JSON, encrypted for the
// subscription (RFC 8291), with RFC 8030's headers and a VAPID Authorization (RFC 8292). A 404 or 410 says the
// subscription is gone: it is removed. Sent only while the session is not attended (no open stream here, or hidden).
import type { AppServices } from '../context.ts';
import { judgeByStatus, type OutboundKind, type PreparedPost, type Verdict } from '../../outbound/outbound-kind.ts';
import type { PostReply } from '../../outbound/post-once.ts';
import type { CryptoPool } from '../../outbound/crypto-pool.ts';
import type { VapidSigner } from '../../outbound/vapid.ts';
import type { OutboundDeliveryRow, PushSubscriptionRow } from '../../storage/store.ts';
import { PUSH_KIND, type QueuedPush } from './queue-pushes.ts';
import { describePush, type PushNotice } from './push-notice.ts';
import { findLiveSessions } from '../session/live-sessions.ts';

/**
 * Pushes sent at once by a process: a quarter of the outbound loop's 64, so a fan-out's replies never crowd the event
 * loop (docs/push.md, "What runs where"); 16 at 100 ms a push service reply is 160 pushes a second.
 */
export const PUSH_IN_FLIGHT = 16;

/**
 * Pushes started a second by a process: each costs about 1 ms of CPU on this 2-core machine (the encryption on the
 * pool's thread, the reads and the POST on the event loop), so a fan-out takes a sixth of the cores at most while the
 * API goes on, however fast the push service answers; 1,000 pushes in about 7 s (docs/push.md, "What runs where").
 */
export const PUSH_PER_SECOND = 150;

/** RFC 8030 §5.2: a notification older than a day is no longer worth showing. */
export const PUSH_TTL_SECONDS = 86_400;

type Services = Pick<AppServices, 'storage' | 'clock' | 'config' | 'events' | 'publicOrigin'>;

/** The session still signs in (a login session or a token); an ended one's subscription goes (docs/protocol.md §17.2). */
async function isSessionLive(services: Services, subscription: PushSubscriptionRow, now: number): Promise<boolean> {
  return (await findLiveSessions(services.storage, [subscription.sessionId], now)).size > 0;
}

/** docs/protocol.md §17.3: a session with an open stream in this process whose page is not hidden reads it there. */
function isAttended(services: Services, subscription: PushSubscriptionRow): boolean {
  return !subscription.pageHidden && services.events.hasStreamOfSession(subscription.userId, subscription.sessionId);
}

export function judgePushReply(reply: PostReply): Verdict {
  // RFC 8030 §7.3: 404 and 410 mean the subscription expired or was removed.
  if (reply.error === null && (reply.status === 404 || reply.status === 410)) return { outcome: 'give-up' };
  return judgeByStatus(reply);
}

/** The encryption and the signature run on the pool's threads, never on the event loop (docs/push.md, "What runs where"). */
export function createPushKind(services: Services, signer: VapidSigner, pool: CryptoPool): OutboundKind {
  const { storage, config } = services;
  return {
    kind: PUSH_KIND,
    maxInFlight: PUSH_IN_FLIGHT,
    perSecond: PUSH_PER_SECOND,
    async prepare(delivery: OutboundDeliveryRow, now: number): Promise<PreparedPost | null> {
      if (config.pushSubject === '') return null;
      const subscription = await storage.push.findPushSubscription(delivery.targetId);
      if (!subscription) return null;
      if (!(await isSessionLive(services, subscription, now))) {
        await storage.push.deletePushSubscription(subscription.id);
        return null;
      }
      const queued = JSON.parse(delivery.payload) as QueuedPush;
      if (queued.type === 'message' && isAttended(services, subscription)) return null;
      const notice: PushNotice | undefined = await describePush(services, queued, now);
      if (!notice) return null;
      const [body, authorization] = await Promise.all([
        pool.run({ type: 'encrypt', payload: JSON.stringify(notice), p256dh: subscription.p256dh, auth: subscription.auth }),
        signer.authorization(subscription.endpoint, config.pushSubject, Math.floor(now / 1000)),
      ]);
      const headers: Record<string, string> = {
        'content-type': 'application/octet-stream',
        'content-encoding': 'aes128gcm',
        ttl: String(PUSH_TTL_SECONDS),
        // RFC 8030 §5.3: a mention or a direct message is high; a message under "all" is normal.
        urgency: queued.type === 'message' && queued.reason === 'all' ? 'normal' : 'high',
        authorization,
      };
      // RFC 8030 §5.4: one topic per chat, so a newer notification of the chat replaces an older one not yet delivered.
      if (queued.type === 'message') headers['topic'] = queued.chatId;
      return { url: subscription.endpoint, headers, body: Buffer.from(body.buffer, body.byteOffset, body.byteLength) };
    },
    judge: judgePushReply,
    async gaveUp(delivery: OutboundDeliveryRow, reply: PostReply): Promise<void> {
      if (reply.status !== 404 && reply.status !== 410) return;
      await storage.transaction(async (tx) => {
        await tx.push.deletePushSubscription(delivery.targetId);
        await tx.outbound.dropPendingDeliveries(PUSH_KIND, delivery.targetId);
      });
    },
  };
}
