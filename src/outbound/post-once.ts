// One POST to a checked target (docs/protocol.md §16.6): connected to the pinned address, timed out at 5 s to connect
// and 10 s in all, no redirect followed, at most 64 KiB of the reply read. Never throws: a failure is `error`.
import { request as httpRequest, type Agent, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { SafeTarget } from './safe-target.ts';

export const CONNECT_TIMEOUT_MS = 5_000;
export const TOTAL_TIMEOUT_MS = 10_000;
export const MAX_REPLY_BYTES = 64 * 1024;

export interface PostLimits {
  connectTimeoutMs?: number;
  totalTimeoutMs?: number;
  maxReplyBytes?: number;
}

export interface PostReply {
  /** The status, or 0 when no reply arrived. */
  status: number;
  headers: IncomingHttpHeaders;
  /** The first maxReplyBytes of the body. */
  body: Buffer;
  durationMs: number;
  /** Why it failed, or null: a network error, a timeout, a redirect (a 3xx is never followed). */
  error: string | null;
}

/** The pinned address whatever name the socket asks for: the name was resolved and checked once, before. */
function createPinnedLookup(target: SafeTarget): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  }) as LookupFunction;
}

/** `agent`: keep-alive connections to reuse (keep-alive-agents.ts); without one, a connection of its own, closed after. */
export function postOnce(target: SafeTarget, headers: Record<string, string>, body: Buffer, limits: PostLimits = {}, agent?: Agent): Promise<PostReply> {
  const started = performance.now();
  const connectMs = limits.connectTimeoutMs ?? CONNECT_TIMEOUT_MS;
  const totalMs = limits.totalTimeoutMs ?? TOTAL_TIMEOUT_MS;
  const maxBytes = limits.maxReplyBytes ?? MAX_REPLY_BYTES;
  return new Promise((resolve) => {
    let settled = false;
    /** `whole`: the reply was read to its end, so a keep-alive connection may serve the next request. */
    const finish = (reply: Omit<PostReply, 'durationMs'>, whole = false): void => {
      if (settled) return;
      settled = true;
      clearTimeout(wholeTimer);
      clearTimeout(connecting);
      resolve({ ...reply, durationMs: Math.round(performance.now() - started) });
      if (!whole || !agent) req.destroy();
    };
    const fail = (error: string, status = 0, replyHeaders: IncomingHttpHeaders = {}): void => finish({ status, headers: replyHeaders, body: Buffer.alloc(0), error });
    const send = target.url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(target.url, {
      method: 'POST',
      lookup: createPinnedLookup(target),
      // Host and SNI carry the name; the certificate is checked against it.
      servername: target.url.protocol === 'https:' && !target.url.hostname.startsWith('[') ? target.url.hostname : undefined,
      headers: { ...headers, 'content-length': String(body.length) },
      agent: agent ?? false,
    }, (res) => {
      clearTimeout(connecting);
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400) {
        fail(`redirect (${status}) not followed`, status, res.headers);
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        const room = maxBytes - size;
        if (room > 0) chunks.push(chunk.subarray(0, room));
        size += chunk.length;
        if (size >= maxBytes) finish({ status, headers: res.headers, body: Buffer.concat(chunks), error: null });
      });
      res.on('end', () => finish({ status, headers: res.headers, body: Buffer.concat(chunks), error: null }, true));
      res.on('error', (error) => fail(`reply: ${error.message}`, status, res.headers));
    });
    const connecting = setTimeout(() => fail(`no connection within ${connectMs} ms`), connectMs);
    const wholeTimer = setTimeout(() => fail(`no whole reply within ${totalMs} ms`), totalMs);
    req.on('socket', (socket) => {
      // A kept-alive connection (reused, or handed over by the agent's queue) is connected already; a new one says so
      // when it is.
      if (req.reusedSocket || !socket.connecting) clearTimeout(connecting);
      else socket.once(target.url.protocol === 'https:' ? 'secureConnect' : 'connect', () => clearTimeout(connecting));
    });
    req.on('error', (error) => fail((error as { code?: string }).code ?? error.message));
    req.end(body);
  });
}
