// A Server-Sent Events answer (WHATWG HTML §9.2, docs/protocol.md §9.2): its headers, and a writer for its frames.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { formatSseComment, formatSseEvent, formatSseEventWithoutId, formatSseRetry } from '../events/sse-frame.ts';

/** A client that falls this far behind is cut off; it resumes by id and loses nothing (docs/protocol.md §9.7). */
export const MAX_UNSENT_BYTES = 1024 * 1024;
/** While replaying the log, reading stops until the client has taken what was written beyond this. */
const REPLAY_HIGH_WATER = 64 * 1024;
const RETRY_MS = 3000;

export class SseWriter {
  private closed = false;
  /** Anything was written since the hub's last tick (ping): the stream has not been silent for a whole tick. */
  private wroteSinceTick = true;
  private closeListener: (() => void) | undefined;

  private readonly res: ServerResponse;
  private readonly maxUnsentBytes: number;

  constructor(res: ServerResponse, maxUnsentBytes = MAX_UNSENT_BYTES) {
    this.res = res;
    this.maxUnsentBytes = maxUnsentBytes;
    // One listener for the stream's lifetime ('close' comes once): `on`, not `once`, which wraps it in one more closure.
    res.on('close', () => {
      this.closed = true;
      this.closeListener?.();
    });
  }

  get isClosed(): boolean {
    return this.closed || this.res.destroyed;
  }

  /** One write for all of them: a replay sends slices of the log, not a syscall per event. */
  deliver(events: readonly { frameText: string; frameBytes(): Buffer }[]): void {
    if (events.length === 1) this.write(events[0]!.frameBytes());
    else if (events.length > 1) this.write(events.map((event) => event.frameText).join(''));
  }

  /** The end of the replay: `id` is the newest event id, so a reconnect resumes from here. */
  ready(newestId: number): void {
    const id = String(newestId);
    this.write(formatSseEvent(id, 'ready', JSON.stringify({ lastEventId: id })));
  }

  /** The resume id cannot be honoured: the client must re-read what it shows. No id, so it does not move. */
  reset(reason: string): void {
    this.write(formatSseEventWithoutId('reset', JSON.stringify({ reason })));
  }

  /**
   * The hub's tick, twice in each ping interval: a comment line when nothing was written since the tick before, so
   * a stream is never silent longer than the interval (docs/protocol.md §9.2), and one that carries events gets
   * none: at 10,000 streams the pings were a write a second for every 15 streams, nearly all of them needless.
   */
  ping(): void {
    if (this.wroteSinceTick) this.wroteSinceTick = false;
    else this.write(formatSseComment('ping'));
  }

  isCongested(): boolean {
    return this.res.writableLength >= REPLAY_HIGH_WATER;
  }

  whenDrained(): Promise<void> {
    if (this.isClosed || !this.isCongested()) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        this.res.off('drain', done);
        this.res.off('close', done);
        resolve();
      };
      this.res.on('drain', done);
      this.res.on('close', done);
    });
  }

  /** Ends the answer cleanly (shutdown, session over); the client's EventSource reconnects after `retry`. */
  end(): void {
    if (this.isClosed) return;
    this.closed = true;
    this.res.end();
  }

  /** The one listener told when the connection closes (the hub's detach). */
  onClose(listener: () => void): void {
    this.closeListener = listener;
  }

  private write(chunk: string | Buffer): void {
    if (this.isClosed) return;
    this.wroteSinceTick = true;
    this.res.write(chunk);
    // A reader that stopped reading: drop the connection and the buffer with it, instead of growing it.
    if (this.res.writableLength > this.maxUnsentBytes) {
      this.closed = true;
      this.res.destroy();
    }
  }
}

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
  res.write(formatSseRetry(RETRY_MS));
  flattenHeaderBlock(res);
  return new SseWriter(res);
}

/**
 * Node keeps an answer's header block for the answer's lifetime as the rope of pieces it was joined from (a few dozen
 * strings, about 1.4 KiB). A stream lives for hours: once the block is sent, keep it as one flat string (a third of that).
 */
function flattenHeaderBlock(res: ServerResponse): void {
  const sent = res as unknown as { _header: string | null };
  if (typeof sent._header === 'string') sent._header = Buffer.from(sent._header, 'latin1').toString('latin1');
}
