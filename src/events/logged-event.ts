// One event of the log as it goes out: the public event object as JSON text and its SSE frame, made once per event.
import { NO_CHAT, type EventRecord } from '../storage/rows.ts';
import { formatSseEvent, lazyChunkBytes } from './sse-frame.ts';

export interface LoggedEvent {
  id: number;
  type: string;
  chatId: string;
  onlyUserId: string | null;
  alsoUserIds: readonly string[];
  /** The message a message.* or reaction.* event is about, else null: what a later delete purges by. */
  subjectId: string | null;
  /**
   * Set when a later event removed this one from the log (src/events/purge-rule.ts): a replay that already holds
   * it must not send it any more (docs/events.md).
   */
  purged: boolean;
  /** {"id","type","chatId","createdAt","data"} as one line of JSON (docs/protocol.md §9.2). */
  json: string;
  /** `id:`, `event:` and `data:` lines, ready for every stream that may see the event. */
  frameText: string;
  /** The same as one chunk of a chunked answer, encoded once on first use and shared by every stream it is written to live. */
  chunkBytes(): Buffer;
  /** The data object's JSON text, parsed only where membership is read from it. */
  data: string;
}

/** Event ids are JSON strings like every id (docs/protocol.md §1.2); the log's integer is their text. */
export function toLoggedEvent(record: EventRecord): LoggedEvent {
  const id = String(record.id);
  // An event about no chat (a user's, a session's) says chatId null.
  const chatId = record.chatId === NO_CHAT ? 'null' : JSON.stringify(record.chatId);
  const json = `{"id":"${id}","type":${JSON.stringify(record.type)},"chatId":${chatId},`
    + `"createdAt":"${new Date(record.createdAt).toISOString()}","data":${record.data}}`;
  const frameText = formatSseEvent(id, record.type, json);
  return {
    id: record.id,
    type: record.type,
    chatId: record.chatId,
    onlyUserId: record.onlyUserId,
    alsoUserIds: record.alsoUserIds === null ? [] : JSON.parse(record.alsoUserIds) as string[],
    subjectId: record.subjectId,
    purged: false,
    json,
    frameText,
    chunkBytes: lazyChunkBytes(frameText),
    data: record.data,
  };
}
