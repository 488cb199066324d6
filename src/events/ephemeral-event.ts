// An ephemeral event (docs/protocol.md §14.5): typing and presence.changed. Never in the log, never replayed, sent on
// streams without an `id:` field, so a client's Last-Event-ID and the log's order are untouched.
import { formatSseEventWithoutId } from './sse-frame.ts';

export type EphemeralType = 'typing' | 'presence.changed';

export interface EphemeralEvent {
  type: EphemeralType;
  /** The chat of the event (typing), or null (presence.changed: about a user). */
  chatId: string | null;
  /** Who may see it: the members, now, of any of these chats (the hub's Membership knows them). */
  audienceChatIds: readonly string[];
  /** Never delivered to this user's own streams (the one typing, the one whose presence changed). */
  exceptUserId: string;
  createdAt: number;
  data: Record<string, unknown>;
}

/** {"type","chatId","createdAt","data"}: a logged event's shape without its id (docs/protocol.md §14.5). */
export function formatEphemeralJson(event: EphemeralEvent): string {
  return JSON.stringify({ type: event.type, chatId: event.chatId, createdAt: new Date(event.createdAt).toISOString(), data: event.data });
}

/** `event:` and `data:` lines, no `id:`: the client's last event id stays where the log left it. */
export function formatEphemeralFrame(event: EphemeralEvent): string {
  return formatSseEventWithoutId(event.type, formatEphemeralJson(event));
}

const TYPES = new Set<string>(['typing', 'presence.changed']);

/** An event as another process sent it (ephemeral-bus.ts), or undefined when it is not one. */
export function parseEphemeralEvent(value: unknown): EphemeralEvent | undefined {
  const event = value as Partial<EphemeralEvent> | null;
  if (typeof event !== 'object' || event === null || !TYPES.has(event.type as string)) return undefined;
  if (!Array.isArray(event.audienceChatIds) || typeof event.exceptUserId !== 'string' || typeof event.createdAt !== 'number') return undefined;
  if (typeof event.data !== 'object' || event.data === null) return undefined;
  return { type: event.type!, chatId: typeof event.chatId === 'string' ? event.chatId : null, audienceChatIds: event.audienceChatIds, exceptUserId: event.exceptUserId, createdAt: event.createdAt, data: event.data };
}
