// Field rules of a new webhook (docs/protocol.md §16.3, §16.4): name and direction; an outgoing one's url, events
// and trigger. The URL's host is resolved and checked here too, so a refused target is a 400 now, not a failed
// delivery later (each delivery checks again).
import { invalidField } from '../../http/http-error.ts';
import { rejectUnknownFields, requireString, unwrapEnvelope, type Body } from '../../parsers/body-fields.ts';
import { resolveSafeTarget, TargetRefusedError } from '../../outbound/safe-target.ts';
import type { WebhookDirection, WebhookTrigger } from '../../storage/store.ts';

/** The chat's events a webhook may hear: never a reader's own (read.updated) nor one about no chat. */
export const WEBHOOK_EVENT_TYPES = [
  'message.created', 'message.updated', 'message.deleted', 'messages.cleared', 'reaction.added', 'reaction.removed',
  'member.added', 'member.removed', 'chat.updated', 'chat.deleted',
] as const;

export interface NewWebhook {
  name: string;
  direction: WebhookDirection;
  url: string | null;
  events: string[] | null;
  trigger: WebhookTrigger | null;
}

function checkEvents(value: unknown): string[] {
  const list = typeof value === 'string' ? value.split(/[\s,]+/).filter((item) => item !== '') : value;
  const message = `must be a non-empty list of: ${WEBHOOK_EVENT_TYPES.join(', ')}`;
  if (!Array.isArray(list) || list.length === 0 || list.some((item) => !(WEBHOOK_EVENT_TYPES as readonly unknown[]).includes(item))) throw invalidField('data.events', message);
  return [...new Set(list as string[])];
}

export async function validateNewWebhook(body: Body, allowPrivate: boolean): Promise<NewWebhook> {
  const data = unwrapEnvelope(body);
  const direction = data['direction'];
  if (direction !== 'incoming' && direction !== 'outgoing') throw invalidField('data.direction', 'must be "incoming" or "outgoing"');
  rejectUnknownFields(data, direction === 'incoming' ? ['name', 'direction'] : ['name', 'direction', 'url', 'events', 'trigger'], 'data.');
  const name = requireString(data, 'name', { min: 1, max: 100 }, 'data.');
  if (direction === 'incoming') return { name, direction, url: null, events: null, trigger: null };
  const url = requireString(data, 'url', { min: 1, max: 2000 }, 'data.');
  try {
    await resolveSafeTarget(url, { allowPrivate });
  } catch (error) {
    if (error instanceof TargetRefusedError) throw invalidField('data.url', error.message);
    throw error;
  }
  const trigger = data['trigger'] ?? 'all';
  if (trigger !== 'all' && trigger !== 'mentions') throw invalidField('data.trigger', 'must be "all" or "mentions"');
  return { name, direction, url, events: data['events'] === undefined ? ['message.created'] : checkEvents(data['events']), trigger };
}
