// Writes a reply to the socket: representation rendering, validators, 304, HEAD, and the headers every answer has.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { renderRepresentation } from '../representations/render.ts';
import { HTML_CONTENT_SECURITY_POLICY } from '../representations/html.ts';
import { etagOf, isNotModified } from './conditional.ts';
import type { Reply } from './context.ts';

export interface SendOptions {
  mediaType: string;
  basePath: string;
  /** False for answers that are not negotiated (raw bytes, 406): no Vary: Accept. */
  negotiated: boolean;
}

function linkHeader(reply: Reply): string | undefined {
  const rep = reply.representation;
  if (!rep || rep.kind === 'problem') return undefined;
  const links = (rep.links ?? []).filter((link) => link.rel === 'next' || link.rel === 'prev');
  if (links.length === 0) return undefined;
  // RFC 8288 §3: <target>; rel="relation"
  return links.map((link) => `<${link.href}>; rel="${link.rel}"`).join(', ');
}

export function sendReply(req: IncomingMessage, res: ServerResponse, reply: Reply, options: SendOptions): void {
  let status = reply.status;
  const headers: Record<string, string | string[] | number> = { ...reply.headers };
  let body: Buffer | undefined;
  if (reply.representation) {
    const rendered = renderRepresentation(reply.representation, options.mediaType, { basePath: options.basePath, status });
    body = rendered.body;
    headers['Content-Type'] = rendered.contentType;
    if (options.mediaType === 'text/html') headers['Content-Security-Policy'] = HTML_CONTENT_SECURITY_POLICY;
    const link = linkHeader(reply);
    if (link) headers['Link'] = link;
    if (reply.representation.kind === 'single' && status < 300 && !headers['ETag']) {
      headers['ETag'] = etagOf(reply.representation.data, rendered.variant);
    }
    headers['Cache-Control'] ??= 'private, no-cache';
  } else if (reply.bytes) {
    body = reply.bytes.data;
    headers['Content-Type'] = reply.bytes.contentType;
  }
  if (options.negotiated) headers['Vary'] = 'Accept';
  headers['X-Content-Type-Options'] = 'nosniff';

  const etag = headers['ETag'];
  const safe = req.method === 'GET' || req.method === 'HEAD';
  if (safe && status === 200 && typeof etag === 'string' && isNotModified(req.headers, etag)) {
    // RFC 9110 §15.4.5: a 304 carries the validators and no body.
    status = 304;
    body = undefined;
    delete headers['Content-Type'];
  }
  // RFC 9110 §6.4.1: 204 and 304 have no content; HEAD gets the GET's length without the bytes.
  if (status === 204 || status === 304) body = undefined;
  if (body !== undefined) headers['Content-Length'] = body.length;
  else if (status !== 204 && status !== 304) headers['Content-Length'] = 0;
  res.writeHead(status, headers);
  res.end(req.method === 'HEAD' ? undefined : body);
}
