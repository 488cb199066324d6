// The 'webhook' kind of outbound delivery (docs/protocol.md §16.4, §16.5): the event object, as the stream sends it,
// signed as Standard Webhooks says; a 2xx reply's {"text"} answers in the chat as the webhook's bot; a delivery given
// up after 24 h of failing disables the webhook and tells its maker (a webhook.disabled event).
import type { AppServices } from '../context.ts';
import { toLoggedEvent } from '../../events/logged-event.ts';
import type { OutboundKind, PreparedPost } from '../../outbound/outbound-kind.ts';
import type { PostReply } from '../../outbound/post-once.ts';
import { publicWebhook } from '../../representations/integration-schemas.ts';
import { NO_CHAT, type EventRecord, type OutboundDeliveryRow } from '../../storage/store.ts';
import { checkHookText, postAsBot } from './post-as-bot.ts';
import { signedHeaders } from './signing.ts';

export const WEBHOOK_DISABLED = 'webhook.disabled';

/** The answer a receiver's 2xx may carry: {"text"} as JSON, else nothing. */
function readAnswer(reply: PostReply): string | undefined {
  if (!/^application\/json\b/i.test(String(reply.headers['content-type'] ?? ''))) return undefined;
  try {
    const body = JSON.parse(reply.body.toString('utf8')) as { text?: unknown };
    return typeof body?.text === 'string' && body.text.trim() !== '' ? checkHookText(body.text) : undefined;
  } catch {
    return undefined;
  }
}

export function createWebhookKind(services: Pick<AppServices, 'storage' | 'clock' | 'config'>): OutboundKind {
  const { storage } = services;
  return {
    kind: 'webhook',
    async prepare(delivery: OutboundDeliveryRow, now: number): Promise<PreparedPost | null> {
      const hook = await storage.integrations.findWebhook(delivery.targetId);
      if (!hook || hook.disabledAt !== null || hook.url === null || hook.signingSecret === null) return null;
      const stored = JSON.parse(delivery.payload) as Pick<EventRecord, 'id' | 'type' | 'chatId' | 'createdAt' | 'data'>;
      const record: EventRecord = { ...stored, onlyUserId: null, alsoUserIds: null, subjectId: null };
      const body = Buffer.from(toLoggedEvent(record).json);
      return { url: hook.url, headers: signedHeaders(hook.signingSecret, String(delivery.id), Math.floor(now / 1000), body), body };
    },
    async delivered(delivery: OutboundDeliveryRow, reply: PostReply): Promise<void> {
      const text = readAnswer(reply);
      const hook = text === undefined ? undefined : await storage.integrations.findWebhook(delivery.targetId);
      if (hook && text !== undefined) await postAsBot(services, hook.chatId, hook.botId, text);
    },
    async gaveUp(delivery: OutboundDeliveryRow): Promise<void> {
      await disableFailingWebhook(services, delivery.targetId);
    },
    /** A crash between a delivery's giving up and the disabling leaves a failed delivery of an enabled webhook. */
    async resume(): Promise<void> {
      for (const hookId of await storage.outbound.listTargetsWithFailures('webhook')) {
        // Most are disabled already (each disabled webhook keeps its failed delivery): a read, not a write, for those.
        if ((await storage.integrations.findWebhook(hookId))?.disabledAt === null) await disableFailingWebhook(services, hookId);
      }
    },
  };
}

/** Disables the webhook, drops its pending deliveries and tells its maker, once: nothing when it is already disabled or gone. */
async function disableFailingWebhook({ storage, clock }: Pick<AppServices, 'storage' | 'clock'>, hookId: string): Promise<void> {
  await storage.transaction(async (tx) => {
    const now = clock.now();
    if (!(await tx.integrations.disableWebhook(hookId, now))) return;
    await tx.outbound.dropPendingDeliveries('webhook', hookId);
    const hook = (await tx.integrations.findWebhook(hookId))!;
    if (hook.createdBy !== null) {
      await tx.events.append({ type: WEBHOOK_DISABLED, chatId: NO_CHAT, onlyUserId: hook.createdBy, createdAt: now, data: publicWebhook(hook) });
    }
  });
}
