// Which earlier events an event removes from the log (docs/events.md, "What a replay leaves out"), written once:
// handlers purge the store with it in the transaction of the delete, and every process's hub purges the events it
// holds in memory with it when it dispatches the deleting event.
import type { EventPurge, EventRepository, NewEvent } from '../storage/store.ts';

/**
 * The events about messages: what deleting one message (by subject) or clearing a chat (all of them) removes. A
 * notification carries its message (docs/protocol.md §14.4), so it goes with it.
 */
export const MESSAGE_EVENT_TYPES: readonly string[] = [
  'message.created', 'message.updated', 'message.deleted', 'messages.cleared', 'reaction.added', 'reaction.removed', 'notification',
];

/** What a purging event needs: its id, type, chat, and the message it is about (message.deleted). */
export interface PurgingEvent {
  id: number;
  type: string;
  chatId: string;
  subjectId?: string | null;
}

/** What a logged event is matched on. */
export interface PurgeCandidate {
  id: number;
  type: string;
  chatId: string;
  subjectId: string | null;
}

/**
 * message.deleted removes the earlier events of that message; messages.cleared every earlier message and reaction
 * event of the chat; chat.deleted every earlier event of the chat. The deleting event itself stays. Other events
 * remove nothing: undefined.
 */
export function purgeRuleOf(event: PurgingEvent): EventPurge | undefined {
  switch (event.type) {
    case 'message.deleted':
      if (event.subjectId === undefined || event.subjectId === null) throw new Error('message.deleted needs its subjectId');
      return { beforeId: event.id, chatId: event.chatId, subjectId: event.subjectId, types: MESSAGE_EVENT_TYPES };
    case 'messages.cleared':
      return { beforeId: event.id, chatId: event.chatId, subjectId: null, types: MESSAGE_EVENT_TYPES };
    case 'chat.deleted':
      return { beforeId: event.id, chatId: event.chatId, subjectId: null, types: null };
    default:
      return undefined;
  }
}

/** Whether the purge removes this event: the one test the hub applies in memory, as the stores apply it in SQL. */
export function isPurgedBy(purge: EventPurge, event: PurgeCandidate): boolean {
  return event.id < purge.beforeId
    && event.chatId === purge.chatId
    && (purge.subjectId === null || event.subjectId === purge.subjectId)
    && (purge.types === null || purge.types.includes(event.type));
}

/** Appends an event inside the caller's transaction and removes, in the same transaction, the earlier events it purges. */
export async function appendPurging(events: EventRepository, event: NewEvent): Promise<number> {
  const id = await events.append(event);
  const purge = purgeRuleOf({ ...event, id });
  // 0: a benchmark that records no events; nothing was appended, nothing to purge.
  if (purge !== undefined && id > 0) await events.purge(purge);
  return id;
}
