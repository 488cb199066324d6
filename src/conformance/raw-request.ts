// Bytes on a socket, for the framing checks (docs/protocol.md §7.8) no well-behaved HTTP client would send.
import { connect as connectTcp, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';
import type { KitContext } from './context.ts';

export interface RawAnswer {
  /** The status of the first answer, 0 when none came. */
  status: number;
  /** Its status line and headers. */
  head: string;
  /** Whether the server closed the connection after answering (asked with `awaitClose`; else only if it came first). */
  closed: boolean;
}

/** Whether `received` (latin1, so one character a byte) holds a whole answer: its head, then its chunked or Content-Length body. */
function isWholeAnswer(received: string): boolean {
  const end = received.indexOf('\r\n\r\n');
  if (end < 0) return false;
  const head = received.slice(0, end);
  if (/\r\ntransfer-encoding: *chunked/i.test(head)) return received.endsWith('\r\n0\r\n\r\n');
  return received.length - end - 4 >= Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
}

/**
 * Writes `text` as is and reads the first answer. With `awaitClose` it then waits a little for the server to close the
 * connection; without, it is done once the head and the body (chunked or Content-Length) of the answer are in.
 */
export function sendRaw(ctx: KitContext, text: string, options: { awaitClose?: boolean; timeoutMs?: number } = {}): Promise<RawAnswer> {
  const { awaitClose = false, timeoutMs = 5000 } = options;
  const port = Number(ctx.base.port || (ctx.base.protocol === 'https:' ? 443 : 80));
  const host = ctx.base.hostname.replace(/^\[|\]$/g, '');
  const socket: Socket = ctx.base.protocol === 'https:' ? connectTls({ host, port, servername: host }) : connectTcp({ host, port });
  const exchange = { method: text.split(' ')[0] ?? '?', url: `${ctx.base.origin} (raw)`, requestHeaders: {}, requestBody: text.length > 400 ? `${text.slice(0, 400)}…` : text } as const;
  const record = { ...exchange } as Parameters<KitContext['exchanges']['push']>[0];
  ctx.exchanges.push(record);
  return new Promise((resolve) => {
    let received = '';
    let settled = false;
    const finish = (closed: boolean): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(grace);
      socket.destroy();
      const head = received.split('\r\n\r\n')[0] ?? '';
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0);
      Object.assign(record, { status, responseBody: received.length > 600 ? `${received.slice(0, 600)}…` : received });
      resolve({ status, head, closed });
    };
    const timer = setTimeout(() => finish(false), timeoutMs);
    let grace: NodeJS.Timeout | undefined;
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      received += chunk;
      if (!received.includes('\r\n\r\n')) return;
      // Once an answer's head is in, the connection gets one more second to close (or to bring the rest of the answer),
      // which only a check about closing waits out in full.
      grace ??= setTimeout(() => finish(false), 1000).unref();
      if (!awaitClose && isWholeAnswer(received)) finish(false);
    });
    socket.on('close', () => finish(true));
    socket.on('error', () => finish(true));
    socket.write(text, 'latin1');
  });
}
