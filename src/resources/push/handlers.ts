// Web Push (docs/protocol.md §17): the server's key, the caller's push subscriptions (tied to their session), the
// page's hidden/visible report, and a test push to the caller's own subscriptions.
import type { Reply, RequestContext } from '../context.ts';
import { HttpError } from '../../http/http-error.ts';
import { readJsonBody } from '../../http/json-body.ts';
import { fieldsOf, type CollectionSpec } from '../../parsers/query.ts';
import { publicPushSubscription } from '../../representations/push-schemas.ts';
import { newId } from '../../storage/ids.ts';
import type { PushSubscriptionRow } from '../../storage/store.ts';
import { collectionReply } from '../collection.ts';
import { singleReply } from '../single-reply.ts';
import { PATHS } from '../../paths.ts';
import { forgetPushSubscription } from './forget-subscriptions.ts';
import { PUSH_KIND, type QueuedPush } from './queue-pushes.ts';
import { validateNewPushSubscription, validateVisibility } from './validate.ts';

/** Only paged: a person has a subscription per browser, a handful at most. */
export const PUSH_SUBSCRIPTION_FIELDS: CollectionSpec = { fields: fieldsOf({ id: 'id' }) };

export function getPushKey(ctx: RequestContext): Reply {
  const { services } = ctx;
  return singleReply('pushKey', { publicKey: services.push.signer.publicKey, sending: services.config.pushSubject !== '' }, [], { enveloped: false });
}

/**
 * Subscribes the caller's session. The same endpoint again (a browser subscribes again after a reload) replaces the
 * subscription kept for it, whoever's it was: an endpoint belongs to one browser profile, the one now signed in.
 */
export async function createPushSubscription(ctx: RequestContext): Promise<Reply> {
  const { storage, clock, config } = ctx.services;
  const caller = ctx.caller!;
  const wanted = await validateNewPushSubscription(await readJsonBody(ctx, config.maxBodyBytes), config.pushAllowInsecure);
  const now = clock.now();
  const row: PushSubscriptionRow = { id: newId(now), userId: caller.userId, sessionId: caller.sessionId, ...wanted, pageHidden: false, createdAt: now };
  await storage.transaction(async (tx) => {
    const earlier = await tx.push.findPushSubscriptionAt(wanted.endpoint);
    if (earlier) await forgetPushSubscription(tx, earlier.id);
    await tx.push.insertPushSubscription(row);
  });
  return singleReply('pushSubscription', publicPushSubscription(row), [{ rel: 'collection', href: ctx.href(PATHS.pushSubscriptions) }], {
    status: 201, headers: { Location: ctx.href(PATHS.pushSubscription, { subscriptionId: row.id }) },
  });
}

export async function listPushSubscriptions(ctx: RequestContext): Promise<Reply> {
  const { storage } = ctx.services;
  return collectionReply<PushSubscriptionRow>(ctx, {
    type: 'pushSubscription',
    spec: PUSH_SUBSCRIPTION_FIELDS,
    list: async (query) => {
      if (query.filters.length > 0 || query.sort.length > 0) throw new HttpError('ERR_BAD_QUERY', 'Push subscriptions are listed oldest first, without filters or sorting');
      const rows = await storage.push.listPushSubscriptionsOfUser(ctx.caller!.userId);
      return { rows: rows.slice(query.offset, query.offset + query.limit), total: rows.length };
    },
    toPublic: publicPushSubscription,
    itemHref: (item) => ctx.href(PATHS.pushSubscription, { subscriptionId: String(item['id']) }),
  });
}

/** Only the caller's own: another's answers 404, as if it did not exist. */
async function findOwnSubscription(ctx: RequestContext): Promise<PushSubscriptionRow> {
  const id = ctx.params['subscriptionId']!;
  const row = await ctx.services.storage.push.findPushSubscription(id);
  if (!row || row.userId !== ctx.caller!.userId) throw new HttpError('ERR_NOT_FOUND', `No push subscription ${id}`);
  return row;
}

export async function getPushSubscription(ctx: RequestContext): Promise<Reply> {
  const row = await findOwnSubscription(ctx);
  return singleReply('pushSubscription', publicPushSubscription(row), [{ rel: 'collection', href: ctx.href(PATHS.pushSubscriptions) }]);
}

export async function deletePushSubscription(ctx: RequestContext): Promise<Reply> {
  const row = await findOwnSubscription(ctx);
  await ctx.services.storage.transaction((tx) => forgetPushSubscription(tx, row.id));
  return { status: 204 };
}

/** docs/protocol.md §17.3: the page says it is hidden (pushes go even with its stream open) or visible again. */
export async function putVisibility(ctx: RequestContext): Promise<Reply> {
  const { storage, config } = ctx.services;
  const hidden = validateVisibility(await readJsonBody(ctx, config.maxBodyBytes));
  await storage.push.setPageHidden(ctx.caller!.sessionId, hidden);
  return { status: 204 };
}

/** Queues a test push to each of the caller's subscriptions (every session's): 204, or 409 with none to send to. */
export async function sendTestPush(ctx: RequestContext): Promise<Reply> {
  const { storage, clock, config } = ctx.services;
  if (config.pushSubject === '') throw new HttpError('ERR_PUSH_DISABLED', 'This server sends no push: its operator has not set --push-subject');
  await storage.transaction(async (tx) => {
    const subscriptions = await tx.push.listPushSubscriptionsOfUser(ctx.caller!.userId);
    if (subscriptions.length === 0) throw new HttpError('ERR_NO_PUSH_SUBSCRIPTION', 'You have no push subscription: choose Notify me first');
    const payload: QueuedPush = { type: 'test' };
    for (const subscription of subscriptions) {
      await tx.outbound.enqueueDelivery({ kind: PUSH_KIND, targetId: subscription.id, eventId: null, payload: JSON.stringify(payload), createdAt: clock.now() });
    }
  });
  return { status: 204 };
}
