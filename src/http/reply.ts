// What a handler answers: a status, headers, and a representation, raw bytes or an event stream for send.ts to write.
import type { Representation } from '../representations/representation.ts';
import type { SseWriter } from './sse.ts';

export interface Reply {
  status: number;
  headers?: Record<string, string | string[]>;
  representation?: Representation;
  /** Raw bytes (avatar images): sent as they are, never negotiated. */
  bytes?: { data: Buffer; contentType: string };
  /** A Server-Sent Events answer: headers go out at once, then this writes the stream (not for HEAD). */
  eventStream?: (writer: SseWriter) => void;
}
