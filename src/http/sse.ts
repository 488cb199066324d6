// A Server-Sent Events answer (WHATWG HTML §9.2, docs/protocol.md §9.2): its headers, and a writer for its frames.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { chunkOf, formatSseComment, formatSseEvent, formatSseEventWithoutId, formatSseRetry, type SseFrame } from '../events/sse-frame.ts';
import { leaveHttp } from './leave-http.ts';
import { takeWatch } from './observe-exchange.ts';

/** A client that falls this far behind is cut off; it resumes by id and loses nothing (docs/protocol.md §9.7). */
export const MAX_UNSENT_BYTES = 1024 * 1024;
/** While replaying the log, reading stops until the client has taken what was written beyond this. */
const REPLAY_HIGH_WATER = 64 * 1024;
/** A client sends nothing after its request on a stream; one that sends this much more is cut off. */
const MAX_UNREAD_BYTES = 16 * 1024;
const RETRY_MS = 3000;
/** The end of a chunked body (RFC 9112 §7.1): a chunk of size zero and no trailer. */
const LAST_CHUNK = '0\r\n\r\n';

/**
 * Writes a stream's frames. It starts as Node's answer, written through the response; a turn later, once the
 * answer has its socket and nothing queued, the stream leaves `node:http` (http/leave-http.ts) and the writer writes
 * to the socket, framing each write as a chunk itself (RFC 9112 §7.1) when the answer is chunked (HTTP/1.1), as Node
 * did. An answer pipelined behind one not yet finished stays with Node for its life (no client of ours pipelines).
 */
export class SseWriter {
  private closed = false;
  /** Anything was written since the hub's last tick (ping): the stream has not been silent for a whole tick. */
  private wroteSinceTick = true;
  private closeListener: (() => void) | undefined;
  /** Until the stream leaves node:http. */
  private res: ServerResponse | undefined;
  /** Told when the connection closes, with the body bytes sent (the access log's count). */
  private finish: ((bodyBytes: number) => void) | undefined;
  private unread = 0;

  private readonly socket: Socket;
  private readonly chunked: boolean;
  /** The socket's count of bytes written where this answer's body begins (after its head, and any answer before it). */
  private readonly bodyFrom: number;
  private readonly maxUnsentBytes: number;

  /** `bodyFrom`: see the field; by default where the socket's count stands now. */
  constructor(res: ServerResponse, bodyFrom = res.req.socket.bytesWritten, maxUnsentBytes = MAX_UNSENT_BYTES) {
    this.res = res;
    this.socket = res.req.socket;
    this.chunked = res.chunkedEncoding;
    this.bodyFrom = bodyFrom;
    this.maxUnsentBytes = maxUnsentBytes;
    // One listener for the stream's lifetime ('close' comes once): `on`, not `once`, which wraps it in one more closure.
    this.socket.on('close', () => {
      this.closed = true;
      this.closeListener?.();
      this.finish?.(this.socket.bytesWritten - this.bodyFrom);
    });
  }

  /**
   * Leaves node:http when it can: the answer has its socket (not pipelined behind another), nothing of it is queued
   * in Node, and no one waits for its 'drain' (which Node would no longer send): otherwise after the next drain.
   */
  leave(): void {
    const res = this.res;
    if (res === undefined || this.isClosed) return;
    if (res.socket !== this.socket) return;
    if (this.isCongested()) {
      void this.whenDrained().then(() => setImmediate(() => this.leave()));
      return;
    }
    this.finish = takeWatch(res);
    leaveHttp(res);
    this.res = undefined;
    const socket = this.socket;
    // Node's error listener went with it: an error is followed by 'close', but without a listener it ends the process.
    socket.on('error', ignore);
    // A client sends nothing after its request on a stream: one that sends more than a little is cut off.
    socket.on('data', (data: Buffer) => {
      this.unread += data.length;
      if (this.unread > MAX_UNREAD_BYTES) this.cut();
    });
    // The client closed its side: as node:http does, the answer ends (what is queued still goes) and the socket closes.
    socket.on('end', () => {
      this.closed = true;
      socket.end();
    });
  }

  get isClosed(): boolean {
    return this.closed || this.socket.destroyed;
  }

  /** One write for all of them: a replay sends slices of the log, not a syscall per event. */
  deliver(events: readonly SseFrame[]): void {
    if (events.length === 1 && this.chunked && this.res === undefined) this.write(events[0]!.chunkBytes());
    else if (events.length === 1) this.writeText(events[0]!.frameText);
    else if (events.length > 1) this.writeText(events.map((event) => event.frameText).join(''));
  }

  /** The end of the replay: `id` is the newest event id, so a reconnect resumes from here. */
  ready(newestId: number): void {
    const id = String(newestId);
    this.writeText(formatSseEvent(id, 'ready', JSON.stringify({ lastEventId: id })));
  }

  /** The resume id cannot be honoured: the client must re-read what it shows. No id, so it does not move. */
  reset(reason: string): void {
    this.writeText(formatSseEventWithoutId('reset', JSON.stringify({ reason })));
  }

  /**
   * The hub's tick, twice in each ping interval: a comment line when nothing was written since the tick before, so
   * a stream is never silent longer than the interval (docs/protocol.md §9.2), and one that carries events gets
   * none: at 10,000 streams the pings were a write a second for every 15 streams, nearly all of them needless.
   */
  ping(): void {
    if (this.wroteSinceTick) this.wroteSinceTick = false;
    else this.writeText(formatSseComment('ping'));
  }

  isCongested(): boolean {
    return (this.res ?? this.socket).writableLength >= REPLAY_HIGH_WATER;
  }

  whenDrained(): Promise<void> {
    if (this.isClosed || !this.isCongested()) return Promise.resolve();
    const target = this.res ?? this.socket;
    return new Promise((resolve) => {
      const done = (): void => {
        target.off('drain', done);
        this.socket.off('close', done);
        resolve();
      };
      target.on('drain', done);
      this.socket.on('close', done);
    });
  }

  /** Ends the answer cleanly (shutdown, session over); the client's EventSource reconnects after `retry`. */
  end(): void {
    if (this.isClosed) return;
    this.closed = true;
    if (this.res !== undefined) this.res.end();
    else if (this.chunked) this.socket.end(LAST_CHUNK);
    else this.socket.end();
  }

  /** The one listener told when the connection closes (the hub's detach). */
  onClose(listener: () => void): void {
    this.closeListener = listener;
  }

  private writeText(frame: string): void {
    this.write(this.chunked && this.res === undefined ? chunkOf(frame) : frame);
  }

  private write(chunk: string | Buffer): void {
    if (this.isClosed) return;
    this.wroteSinceTick = true;
    const target = this.res ?? this.socket;
    target.write(chunk);
    // A reader that stopped reading: drop the connection and the buffer with it, instead of growing it.
    if (target.writableLength > this.maxUnsentBytes) this.cut();
  }

  private cut(): void {
    this.closed = true;
    this.socket.destroy();
  }
}

function ignore(): void {}

/**
 * Writes the stream's headers and `retry:`; HEAD gets the headers alone. Never compressed, never cached,
 * and no proxy buffering (X-Accel-Buffering). The socket has no idle timeout: pings keep it alive.
 */
export function openEventStream(req: IncomingMessage, res: ServerResponse, headers: Record<string, string | string[] | number>): SseWriter | undefined {
  res.writeHead(200, {
    ...headers,
    'Content-Type': 'text/event-stream',
    'Cache-Control': 'no-cache',
    'X-Accel-Buffering': 'no',
    'X-Content-Type-Options': 'nosniff',
    // The connection ends with the stream: nothing waits behind it, and shutdown need not wait for it to idle.
    Connection: 'close',
  });
  if (req.method === 'HEAD') {
    res.end();
    return undefined;
  }
  req.socket.setTimeout(0);
  req.socket.setNoDelay(true);
  // The head goes out with the first write: the body begins after it (Node keeps the head as a latin1 string).
  const bodyFrom = req.socket.bytesWritten + Buffer.byteLength((res as unknown as { _header: string })._header, 'latin1');
  res.write(formatSseRetry(RETRY_MS));
  const writer = new SseWriter(res, bodyFrom);
  // A turn later: never inside the parser's own call stack, which the parser's release must not run in.
  setImmediate(leaveLater, writer);
  return writer;
}

function leaveLater(writer: SseWriter): void {
  writer.leave();
}
