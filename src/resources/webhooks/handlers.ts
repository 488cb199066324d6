// Webhooks of a chat (docs/protocol.md §16.3 to §16.5): the chat's owner or an administrator makes one (with its own
// bot user, made a member), lists, reads and deletes them, and reads an outgoing one's deliveries.
import type { Reply, RequestContext } from '../context.ts';
import { HttpError } from '../../http/http-error.ts';
import { readJsonBody } from '../../http/json-body.ts';
import { fieldsOf, type CollectionSpec, type ParsedQuery } from '../../parsers/query.ts';
import { publicDelivery, publicWebhook, type PublicDelivery } from '../../representations/integration-schemas.ts';
import { publicMember, publicChat } from '../../representations/public-fields.ts';
import { newId } from '../../storage/ids.ts';
import type { ChatAccess, DeliveryAttemptRow, Page, WebhookRow } from '../../storage/store.ts';
import { recordAudit } from '../audit/record.ts';
import { insertBotUser } from '../bots/bot-user.ts';
import { findModeratedChat } from '../chats/access.ts';
import { collectionReply } from '../collection.ts';
import { singleReply } from '../single-reply.ts';
import { hashAccessToken } from '../tokens/access-token.ts';
import { isAdmin } from '../users/roles.ts';
import { newSigningSecret } from './signing.ts';
import { newHookSecret } from './hook-secret.ts';
import { validateNewWebhook } from './validate.ts';
import { PATHS } from '../../paths.ts';

export const WEBHOOK_FIELDS: CollectionSpec = { fields: fieldsOf({ id: 'id', name: 'string', direction: 'string', createdAt: 'timestamp', disabledAt: 'timestamp' }) };
export const DELIVERY_FIELDS: CollectionSpec = {
  fields: fieldsOf({ id: 'number', eventId: 'number', state: 'string', attempts: 'number', nextAttemptAt: 'timestamp', createdAt: 'timestamp', lastAttemptAt: 'timestamp', lastStatus: 'number' }),
};

/** The chat, when the caller is its owner or an administrator; the 404 of a missing chat for anyone else who cannot see it. */
async function findManagedChat(ctx: RequestContext): Promise<ChatAccess> {
  const admin = await isAdmin(ctx);
  const access = await findModeratedChat(ctx, ctx.params['chatId']!, admin);
  if (!admin && access.ownerId !== ctx.caller!.userId) throw new HttpError('ERR_FORBIDDEN', 'Only the chat\'s owner or an administrator manages its webhooks');
  return access;
}

async function findWebhookOf(ctx: RequestContext, chatId: string): Promise<WebhookRow> {
  const hookId = ctx.params['hookId']!;
  const hook = await ctx.services.storage.integrations.findWebhook(hookId);
  if (!hook || hook.chatId !== chatId) throw new HttpError('ERR_NOT_FOUND', `No webhook ${hookId}`);
  return hook;
}

export async function createWebhook(ctx: RequestContext): Promise<Reply> {
  const { storage, clock, config } = ctx.services;
  const chat = await findManagedChat(ctx);
  const wanted = await validateNewWebhook(await readJsonBody(ctx, config.maxBodyBytes, ['application/json']), config.webhookAllowPrivate);
  const now = clock.now();
  const id = newId(now);
  const secret = wanted.direction === 'incoming' ? newHookSecret() : undefined;
  const signingSecret = wanted.direction === 'outgoing' ? newSigningSecret() : null;
  const row = await storage.transaction(async (tx) => {
    const bot = await insertBotUser(tx, `webhook-${id.slice(-12).toLowerCase()}`, ctx.caller!.userId, now);
    const hook: WebhookRow = {
      id, chatId: chat.id, botId: bot.id, createdBy: ctx.caller!.userId, name: wanted.name, direction: wanted.direction,
      secretHash: secret === undefined ? null : hashAccessToken(secret), url: wanted.url, signingSecret,
      events: wanted.events === null ? null : JSON.stringify(wanted.events), trigger: wanted.trigger, createdAt: now, disabledAt: null,
    };
    await tx.integrations.insertWebhook(hook);
    // Its bot joins the chat like any member: the members hear of it.
    await tx.chats.addMember(chat.id, bot.id, now);
    await tx.chats.touchChat(chat.id, now);
    const member = await tx.chats.findMember(chat.id, bot.id);
    await tx.events.append({ type: 'member.added', chatId: chat.id, createdAt: now, data: publicMember(member!) });
    const updated = await tx.chats.findChat(chat.id);
    await tx.events.append({ type: 'chat.updated', chatId: chat.id, createdAt: now, data: publicChat(updated!) });
    await recordAudit(tx, ctx, { action: 'webhook.create', targetType: 'webhook', targetId: id, detail: { chatId: chat.id, direction: wanted.direction } });
    return hook;
  });
  const shown = secret === undefined ? { secret: signingSecret! } : { url: `${ctx.services.publicOrigin()}${ctx.href(PATHS.hook, { secret })}` };
  return singleReply('webhook', publicWebhook(row, shown), [{ rel: 'collection', href: ctx.href(PATHS.webhooks, { chatId: chat.id }) }], {
    status: 201, headers: { Location: ctx.href(PATHS.webhook, { chatId: chat.id, hookId: id }) },
  });
}

export async function listWebhooks(ctx: RequestContext): Promise<Reply> {
  const chat = await findManagedChat(ctx);
  return collectionReply<WebhookRow>(ctx, {
    type: 'webhook',
    spec: WEBHOOK_FIELDS,
    list: (query) => ctx.services.storage.integrations.listWebhooks(chat.id, query),
    toPublic: (row) => publicWebhook(row),
    itemHref: (hook) => ctx.href(PATHS.webhook, { chatId: chat.id, hookId: String(hook['id']) }),
  });
}

export async function getWebhook(ctx: RequestContext): Promise<Reply> {
  const chat = await findManagedChat(ctx);
  const hook = await findWebhookOf(ctx, chat.id);
  return singleReply('webhook', publicWebhook(hook), [
    { rel: 'collection', href: ctx.href(PATHS.webhooks, { chatId: chat.id }) },
    ...(hook.direction === 'outgoing' ? [{ rel: 'deliveries', href: ctx.href(PATHS.webhookDeliveries, { chatId: chat.id, hookId: hook.id }) }] : []),
  ]);
}

/** The webhook goes at once (an incoming URL stops working, pending deliveries are dropped); its bot stays, as an author. */
export async function deleteWebhook(ctx: RequestContext): Promise<Reply> {
  const chat = await findManagedChat(ctx);
  const hook = await findWebhookOf(ctx, chat.id);
  await ctx.services.storage.transaction(async (tx) => {
    if (!(await tx.integrations.deleteWebhook(hook.id))) return;
    await tx.outbound.deleteDeliveriesOf('webhook', hook.id);
    await recordAudit(tx, ctx, { action: 'webhook.delete', targetType: 'webhook', targetId: hook.id, detail: { chatId: chat.id } });
  });
  return { status: 204 };
}

/** A page of deliveries with their attempts: one more query for the page's attempts. */
async function listDeliveriesWithAttempts(ctx: RequestContext, hookId: string, query: ParsedQuery): Promise<Page<PublicDelivery>> {
  const { outbound } = ctx.services.storage;
  const page = await outbound.listDeliveries('webhook', hookId, query);
  const attempts = new Map<number, DeliveryAttemptRow[]>();
  for (const attempt of await outbound.listAttempts(page.rows.map((row) => row.id))) {
    const list = attempts.get(attempt.deliveryId);
    if (list) list.push(attempt);
    else attempts.set(attempt.deliveryId, [attempt]);
  }
  return { rows: page.rows.map((row) => publicDelivery(row, attempts.get(row.id) ?? [])), total: page.total };
}

export async function listDeliveries(ctx: RequestContext): Promise<Reply> {
  const chat = await findManagedChat(ctx);
  const hook = await findWebhookOf(ctx, chat.id);
  return collectionReply<PublicDelivery>(ctx, {
    type: 'delivery',
    spec: DELIVERY_FIELDS,
    list: (query) => listDeliveriesWithAttempts(ctx, hook.id, query),
    toPublic: (delivery) => delivery,
    itemHref: (delivery) => ctx.href(PATHS.webhookDelivery, { chatId: chat.id, hookId: hook.id, deliveryId: String(delivery['id']) }),
    defaultSort: '-id',
  });
}

export async function getDelivery(ctx: RequestContext): Promise<Reply> {
  const chat = await findManagedChat(ctx);
  const hook = await findWebhookOf(ctx, chat.id);
  const deliveryId = ctx.params['deliveryId']!;
  const { outbound } = ctx.services.storage;
  const row = /^[0-9]{1,15}$/.test(deliveryId) ? await outbound.findDelivery(Number(deliveryId)) : undefined;
  if (!row || row.kind !== 'webhook' || row.targetId !== hook.id) throw new HttpError('ERR_NOT_FOUND', `No delivery ${deliveryId}`);
  const delivery = publicDelivery(row, await outbound.listAttempts([row.id]));
  return singleReply('delivery', delivery, [{ rel: 'collection', href: ctx.href(PATHS.webhookDeliveries, { chatId: chat.id, hookId: hook.id }) }]);
}
