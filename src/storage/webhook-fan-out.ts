// Which outgoing webhooks an event is delivered to (docs/protocol.md §16.4), written once for both backends: each
// calls it inside events.append, so the deliveries commit with the event, in the event log's order.
import type { NewEvent } from './rows.ts';
import type { NewDelivery } from './outbound-repository.ts';

/** The outgoing webhooks of a chat, as the fan-out reads them (enabled ones only). */
export interface OutgoingHook {
  id: string;
  botId: string;
  /** JSON array text of event types. */
  events: string;
  trigger: 'all' | 'mentions';
}

export const OUTGOING_HOOKS_SQL = 'SELECT id, bot_id AS "botId", events, trigger_on AS "trigger" FROM webhooks'
  + " WHERE chat_id = ? AND direction = 'outgoing' AND disabled_at IS NULL ORDER BY id";

function isWanted(hook: OutgoingHook, event: NewEvent): boolean {
  if (!(JSON.parse(hook.events) as string[]).includes(event.type)) return false;
  // A webhook never hears of its own bot's doing: its answers would otherwise call it again.
  const data = event.data as { authorId?: unknown; userId?: unknown; mentions?: unknown };
  if (data.authorId === hook.botId || data.userId === hook.botId) return false;
  return hook.trigger === 'all' || (Array.isArray(data.mentions) && data.mentions.includes(hook.botId));
}

/**
 * Whether an event can be delivered to webhooks at all: not one of no chat, nor one of one reader only (read.updated,
 * every chat switch), whose chat's webhooks are then not even read.
 */
export function goesToWebhooks(event: NewEvent): boolean {
  return event.chatId !== '' && event.onlyUserId === undefined;
}

/**
 * The deliveries of one appended event: none unless it goesToWebhooks, one per enabled outgoing webhook of its
 * chat that wants it. The payload is the log's record; the webhook kind formats it.
 */
export function webhookDeliveries(eventId: number, event: NewEvent, hooks: readonly OutgoingHook[]): NewDelivery[] {
  if (hooks.length === 0 || !goesToWebhooks(event)) return [];
  const payload = JSON.stringify({ id: eventId, type: event.type, chatId: event.chatId, createdAt: event.createdAt, data: JSON.stringify(event.data) });
  return hooks.filter((hook) => isWanted(hook, event))
    .map((hook) => ({ kind: 'webhook', targetId: hook.id, eventId, payload, createdAt: event.createdAt }));
}
