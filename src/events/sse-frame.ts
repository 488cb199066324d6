// Server-Sent Events framing (WHATWG HTML §9.2.6): the one place that writes `id:`, `event:`, `data:`, `retry:` and comments.

/** A line break inside a field would end it early: every field value here is one line. */
function oneLine(value: string): string {
  return value.includes('\n') || value.includes('\r') ? value.replace(/[\r\n]+/g, ' ') : value;
}

/** An event: the stream's last event id becomes `id`, a listener for `type` receives `data`. */
export function formatSseEvent(id: string, type: string, data: string): string {
  return `id: ${oneLine(id)}\nevent: ${oneLine(type)}\ndata: ${oneLine(data)}\n\n`;
}

/** An event without an id (reset): it must not move the client's last event id. */
export function formatSseEventWithoutId(type: string, data: string): string {
  return `event: ${oneLine(type)}\ndata: ${oneLine(data)}\n\n`;
}

/** The reconnection delay the client waits after the stream ends (milliseconds). */
export function formatSseRetry(ms: number): string {
  return `retry: ${Math.trunc(ms)}\n\n`;
}

/** A comment line: ignored by clients, keeps proxies and the connection from idling out. */
export function formatSseComment(text: string): string {
  return `: ${oneLine(text)}\n\n`;
}

/** A frame as the streams take it: its text, and the same as one chunk of a chunked answer, encoded once for all. */
export interface SseFrame {
  frameText: string;
  chunkBytes(): Buffer;
}

/** A frame as one HTTP/1.1 chunk (RFC 9112 §7.1), as a chunked answer carries it: its size in hexadecimal, CRLF, the bytes, CRLF. */
export function chunkOf(frameText: string): string {
  return `${Buffer.byteLength(frameText).toString(16)}\r\n${frameText}\r\n`;
}

/**
 * A frame's chunk (`chunkOf`) as bytes, encoded once on first use and shared by every stream it goes to. They get
 * memory of their own: Buffer.from would cut them from Node's shared pool (64 KiB on Node 24), and the log tail keeps
 * thousands of recent events, each of which would then hold a whole pool alive (95 MiB at 5,000 users, bench/RESULTS.md).
 */
export function lazyChunkBytes(frameText: string): () => Buffer {
  let bytes: Buffer | undefined;
  return () => {
    if (bytes === undefined) {
      const chunk = chunkOf(frameText);
      bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(chunk));
      bytes.write(chunk);
    }
    return bytes;
  };
}
