// What a handler answers: a status, headers, and a representation, raw bytes or an event stream for send.ts to write.
import type { Representation } from '../representations/representation.ts';
import type { SseWriter } from './sse.ts';

export interface Reply {
  status: number;
  headers?: Record<string, string | string[]>;
  representation?: Representation;
  /** Raw bytes (avatar images): sent as they are, never negotiated. */
  bytes?: { data: Buffer; contentType: string };
  /**
   * Bytes read as they are sent (attachments, docs/protocol.md §15.6): the head goes out with Content-Length =
   * length, then `chunks()` is read only for a GET that is answered with a body, as fast as the client takes it.
   */
  stream?: { contentType: string; length: number; chunks: () => AsyncIterable<Buffer> };
  /** A Server-Sent Events answer: headers go out at once, then this writes the stream (not for HEAD). */
  eventStream?: (writer: SseWriter) => void;
}
