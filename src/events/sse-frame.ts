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

/**
 * A frame's bytes, encoded once on first use and shared by every stream it goes to. They get memory of their own:
 * Buffer.from would cut them from Node's shared pool (64 KiB on Node 24), and the log tail keeps thousands of recent
 * events, each of which would then hold a whole pool alive (95 MiB at 5,000 users, bench/RESULTS.md).
 */
export function lazyFrameBytes(frameText: string): () => Buffer {
  let bytes: Buffer | undefined;
  return () => {
    if (bytes === undefined) {
      bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(frameText));
      bytes.write(frameText);
    }
    return bytes;
  };
}
