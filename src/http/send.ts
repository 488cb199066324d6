// Writes a reply to the socket: representation rendering, validators, 304, HEAD, and the headers every answer has.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { renderRepresentation, type RenderedBody } from '../representations/render.ts';
import { HTML_CONTENT_SECURITY_POLICY } from '../representations/html.ts';
import { etagOf, etagOfJson, isNotModified } from './conditional.ts';
import type { Reply } from './reply.ts';
import type { Representation } from '../representations/representation.ts';
import { HttpError } from './http-error.ts';
import { toProblem } from './problem.ts';
import { openEventStream } from './sse.ts';

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

/**
 * A page of a collection is validated like a single resource: its items, meta and page links are its state,
 * so any change to what the page shows changes the tag (RFC 9110 §8.8.3). The state's JSON text is
 * {"data":…,"meta":…,"links":…} for a page, the resource itself for a single one.
 */
export function stateEtag(rep: Representation, variant: string): string | undefined {
  // An HTML page also shows its page context (logins, unread counts), which its tag covers too.
  const page = rep.kind !== 'problem' && rep.page !== undefined ? { page: rep.page } : {};
  if (rep.kind === 'single') return etagOf(rep.page === undefined ? rep.data : { data: rep.data, ...page }, variant);
  if (rep.kind === 'collection') return etagOf({ data: rep.data, meta: rep.meta, links: rep.links ?? [], ...page }, variant);
  return undefined;
}

/**
 * The same tag as stateEtag, from the JSON body already written (render.ts toJson) rather than a second
 * JSON.stringify of the state: a page's body is {"data":…,"meta":…}, so its state text is that body with the
 * links added before the closing brace; an enveloped single body is {"data":…} around the resource's text.
 */
export function stateEtagFromJson(rep: Representation, json: string): string | undefined {
  if (rep.kind === 'collection') return etagOfJson(`${json.slice(0, -1)},"links":${JSON.stringify(rep.links ?? [])}}`);
  if (rep.kind === 'single') return etagOfJson(rep.enveloped ? json.slice(8, -1) : json);
  return undefined;
}

/** etag: undefined until asked for (tagOf), null for a representation without one (a problem). */
type RenderedWithTag = RenderedBody & { etag?: string | null };

function tagOf(rep: Representation, rendered: RenderedWithTag): string | null {
  rendered.etag ??= (rendered.json === undefined ? stateEtag(rep, rendered.variant) : stateEtagFromJson(rep, rendered.json)) ?? null;
  return rendered.etag;
}

/** The renderings of shared representations (a cached page), by media type and status: made once, kept as long as the object. */
const renderings = new WeakMap<Representation, Map<string, RenderedWithTag>>();

/** Renders and tags a representation; a shared one (never changed once made) only the first time per media type. */
function renderOnce(rep: Representation, mediaType: string, options: { basePath: string; status: number }): RenderedWithTag {
  const shared = rep.kind !== 'problem' && rep.shared === true;
  const key = `${mediaType} ${options.status}`;
  const kept = shared ? renderings.get(rep)?.get(key) : undefined;
  if (kept) return kept;
  const made: RenderedWithTag = renderRepresentation(rep, mediaType, options);
  if (shared) {
    let byType = renderings.get(rep);
    if (!byType) renderings.set(rep, byType = new Map());
    byType.set(key, made);
  }
  return made;
}

/** Accept added to a Vary the answer has already (CORS's Vary: Origin). */
function varyWithAccept(headers: Record<string, unknown>): string {
  const vary = headers['Vary'];
  return vary ? `${String(vary)}, Accept` : 'Accept';
}

export function sendReply(req: IncomingMessage, res: ServerResponse, reply: Reply, options: SendOptions): void {
  let status = reply.status;
  const headers: Record<string, string | string[] | number> = { ...reply.headers };
  if (reply.eventStream) {
    if (options.negotiated) headers['Vary'] = varyWithAccept(headers);
    const writer = openEventStream(req, res, headers);
    if (writer) reply.eventStream(writer);
    return;
  }
  // JSON goes out as its text: Node writes the head and a string body in one write, a Buffer body in two (writev).
  let body: Buffer | string | undefined;
  if (reply.representation) {
    const rendered = renderOnce(reply.representation, options.mediaType, { basePath: options.basePath, status });
    body = rendered.body;
    headers['Content-Type'] = rendered.contentType;
    if (options.mediaType === 'text/html') headers['Content-Security-Policy'] = HTML_CONTENT_SECURITY_POLICY;
    const link = linkHeader(reply);
    if (link) headers['Link'] = link;
    if (status < 300 && !headers['ETag']) {
      const etag = tagOf(reply.representation, rendered);
      if (etag !== null) headers['ETag'] = etag;
    }
    headers['Cache-Control'] ??= 'private, no-cache';
  } else if (reply.bytes) {
    body = reply.bytes.data;
    headers['Content-Type'] = reply.bytes.contentType;
  }
  if (options.negotiated) headers['Vary'] = varyWithAccept(headers);
  // A page for people writes dates in the reader's language (RFC 9110 §12.5.5: say what the answer varied on).
  const rep = reply.representation;
  if (options.negotiated && options.mediaType === 'text/html' && rep !== undefined && rep.kind !== 'problem' && rep.page !== undefined) {
    headers['Vary'] = `${String(headers['Vary'])}, Accept-Language`;
  }
  headers['X-Content-Type-Options'] = 'nosniff';
  // No page's address (a chat id, a search) leaves this site in a Referer header. Not no-referrer: under it a
  // browser sends `Origin: null` with a form post (Fetch §3.2.5), and the forms' same-origin check would refuse them.
  headers['Referrer-Policy'] = 'same-origin';

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
  if (body !== undefined) headers['Content-Length'] = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
  else if (status !== 204 && status !== 304) headers['Content-Length'] = 0;
  // One flat list of name, value pairs: Node's writeHead takes it in one pass (nothing was set on res before).
  const flat: (string | number | string[])[] = [];
  for (const name of Object.keys(headers)) flat.push(name, headers[name]!);
  res.writeHead(status, flat as unknown as Record<string, string>);
  res.end(req.method === 'HEAD' ? undefined : body);
}

const PARSER_ERRORS: Record<string, () => HttpError> = {
  HPE_HEADER_OVERFLOW: () => new HttpError('ERR_HEADERS_TOO_LARGE', 'The request header section is too large'),
  ERR_HTTP_REQUEST_TIMEOUT: () => new HttpError('ERR_REQUEST_TIMEOUT', 'The request did not arrive in time'),
};

/**
 * Answers on a raw socket when there is no request object: a request Node's HTTP parser refused
 * (clientError), or a CONNECT. Still a problem document, and the connection closes after it.
 */
export function sendSocketProblem(socket: Duplex, error: HttpError | { code?: string }): void {
  if (!socket.writable || (!(error instanceof HttpError) && error.code === 'ECONNRESET')) {
    socket.destroy();
    return;
  }
  const known = error instanceof HttpError ? error
    : PARSER_ERRORS[error.code ?? '']?.() ?? new HttpError('ERR_BAD_REQUEST', 'The request is not valid HTTP/1.1');
  const body = JSON.stringify(toProblem(known));
  const extra = Object.entries(known.headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  socket.end(`HTTP/1.1 ${known.status} ${known.title}\r\nContent-Type: application/problem+json\r\n`
    + `Content-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${randomUUID()}\r\n${extra}Connection: close\r\n\r\n${body}`);
}
