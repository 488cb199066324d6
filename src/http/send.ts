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
import { streamBody } from './stream-body.ts';
import { formatErrorLine, type LogFormat } from './access-log.ts';
import { acceptsGzip, gzipEtag, gzipPage } from './compress-html.ts';

export interface SendOptions {
  mediaType: string;
  basePath: string;
  /** False for answers that are not negotiated (raw bytes, 406): no Vary: Accept. */
  negotiated: boolean;
  /** For the one log line of a reply that could not be written (its X-Request-Id). */
  requestId: string;
  logFormat: LogFormat;
}

function linkHeader(reply: Reply): string | undefined {
  const rep = reply.representation;
  if (!rep || rep.kind === 'problem') return undefined;
  // A loop, not filter and map: a kept representation's arrays are frozen, and those builtins took 4 µs more per
  // kept page on them (docs/performance.md, "Kept reads").
  let header: string | undefined;
  for (const link of rep.links ?? []) {
    // RFC 8288 §3: <target>; rel="relation"
    if (link.rel === 'next' || link.rel === 'prev') header = `${header === undefined ? '' : `${header}, `}<${link.href}>; rel="${link.rel}"`;
  }
  return header;
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
  const key = options.status === 200 ? mediaType : `${mediaType} ${options.status}`;
  const kept = shared ? renderings.get(rep)?.get(key) : undefined;
  if (kept) return kept;
  const made: RenderedWithTag = renderRepresentation(rep, mediaType, options);
  if (shared) {
    // Sent many times: encoded to bytes once here, not by every socket write (a string body is encoded per write).
    if (typeof made.body === 'string') {
      tagOf(rep, made);
      made.body = Buffer.from(made.body);
    }
    let byType = renderings.get(rep);
    if (!byType) renderings.set(rep, byType = new Map());
    byType.set(key, made);
  }
  return made;
}

/** Accept added to a Vary the answer has already (CORS's Vary: Origin). */
function varyWithAccept(vary: unknown): string {
  return vary ? `${String(vary)}, Accept` : 'Accept';
}

type HeaderValue = string | string[] | number;

type Headers = Readonly<Record<string, HeaderValue>> | undefined;

/** True when a source after `index` names the header too: the later one wins, as in `{ ...a, ...b }`. */
function overridden(sources: readonly Headers[], index: number, name: string): boolean {
  for (let later = index + 1; later < sources.length; later += 1) {
    const source = sources[later];
    if (source !== undefined && Object.hasOwn(source, name)) return true;
  }
  return false;
}

/** What a reply that could not be written is answered with instead: a bare 500, with no header of its own. */
const UNSENT_REPLY: Reply = {
  status: 500,
  representation: { kind: 'problem', data: toProblem(new HttpError('ERR_INTERNAL', 'The server could not complete the request')) },
};

/**
 * Writes the answer, and never throws (docs/operations.md: no request ends the process). Node refuses a head
 * with a header value that is not a field value (RFC 9110 §5.5: no CR, LF, NUL, nothing above U+00FF), and any
 * throw while rendering or writing is a server bug too: it is one log line, and the client gets a 500 in its
 * place, or a cut connection when the head is already out (an event stream's). Guarded here, where every head
 * is written, rather than in every handler; the try costs nothing when nothing throws.
 */
export function sendReply(req: IncomingMessage, res: ServerResponse, reply: Reply, sources: readonly Headers[], options: SendOptions): void {
  try {
    writeReply(req, res, reply, sources, options);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException)?.code;
    const reason = `${(error as Error)?.message ?? String(error)}${code === undefined ? '' : ` (${code})`}`.replaceAll('\n', ' ');
    const answered = res.headersSent ? 'the connection was cut' : 'answered 500 instead';
    process.stderr.write(formatErrorLine(options.logFormat, Date.now(), options.requestId, `a ${reply.status} reply could not be written, ${answered}: ${reason}`));
    answerUnsent(req, res, sources[0], options);
  }
}

/** The 500 for a reply that could not be written, with the request's first headers only (X-Request-Id). */
function answerUnsent(req: IncomingMessage, res: ServerResponse, base: Headers, options: SendOptions): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  // writeHead set the refused reply's state before it threw: its reason phrase (kept unless empty), and no
  // body for a 204 or 304. Reset both as a new response has them, so the 500 goes out whole.
  res.statusMessage = '';
  (res as unknown as { _hasBody: boolean })._hasBody = req.method !== 'HEAD';
  try {
    writeReply(req, res, UNSENT_REPLY, [base], options);
  } catch {
    res.destroy();
  }
}

/**
 * Writes the answer. Its headers go to writeHead as one flat name/value list, built here in one pass over
 * `sources` plus the headers every answer gets: no header object is grown key by key (a new hidden class per
 * key, a few µs per answer), and Node takes a flat list without a second pass. `sources` are in order of
 * precedence, lowest first (the request's X-Request-Id and CORS, then headers the request gathered, then the
 * reply's own), read as if spread into one object, without making it.
 */
function writeReply(req: IncomingMessage, res: ServerResponse, reply: Reply, sources: readonly Headers[], options: SendOptions): void {
  let status = reply.status;
  if (reply.eventStream) {
    const headers: Record<string, HeaderValue> = Object.assign({}, ...sources) as Record<string, HeaderValue>;
    if (options.negotiated) headers['Vary'] = varyWithAccept(headers['Vary']);
    const writer = openEventStream(req, res, headers);
    if (writer) reply.eventStream(writer);
    return;
  }
  // The headers this function decides, seeded from the sources; every other header passes through as given.
  const flat: HeaderValue[] = [];
  let contentType: HeaderValue | undefined;
  let vary: HeaderValue | undefined;
  let etag: HeaderValue | undefined;
  let cacheControl: HeaderValue | undefined;
  let link: HeaderValue | undefined;
  let policy: HeaderValue | undefined;
  for (let index = 0; index < sources.length; index += 1) {
    const given = sources[index];
    if (given === undefined) continue;
    for (const name in given) {
      if (index < sources.length - 1 && overridden(sources, index, name)) continue;
      const value = given[name]!;
      switch (name) {
        case 'Content-Type': contentType = value; break;
        case 'Vary': vary = value; break;
        case 'ETag': etag = value; break;
        case 'Cache-Control': cacheControl = value; break;
        case 'Link': link = value; break;
        case 'Content-Security-Policy': policy = value; break;
        case 'X-Content-Type-Options': case 'Referrer-Policy': case 'Content-Length': break;
        default: flat.push(name, value);
      }
    }
  }
  // JSON goes out as its text: Node writes the head and a string body in one write, a Buffer body in two (writev).
  let body: Buffer | string | undefined;
  const rep = reply.representation;
  if (rep) {
    const rendered = renderOnce(rep, options.mediaType, { basePath: options.basePath, status });
    body = rendered.body;
    contentType = rendered.contentType;
    if (options.mediaType === 'text/html') policy = HTML_CONTENT_SECURITY_POLICY;
    link = linkHeader(reply) ?? link;
    if (status < 300 && !etag) etag = tagOf(rep, rendered) ?? undefined;
    cacheControl ??= 'private, no-cache';
  } else if (reply.bytes) {
    body = reply.bytes.data;
    contentType = reply.bytes.contentType;
  } else if (reply.stream) {
    contentType = reply.stream.contentType;
  }
  if (options.negotiated) {
    vary = varyWithAccept(vary);
    // A page for people writes dates in the reader's language (RFC 9110 §12.5.5: say what the answer varied on).
    if (options.mediaType === 'text/html' && rep !== undefined && rep.kind !== 'problem' && rep.page !== undefined) vary = `${vary}, Accept-Language`;
  }
  // A page for people, gzipped when the browser takes it (its own tag: other bytes); every HTML answer varies on it.
  let encoding: string | undefined;
  if (options.mediaType === 'text/html' && rep !== undefined && body !== undefined) {
    vary = vary === undefined ? 'Accept-Encoding' : `${vary}, Accept-Encoding`;
    const zipped = acceptsGzip(req.headers) ? gzipPage(body) : undefined;
    if (zipped !== undefined) {
      body = zipped;
      encoding = 'gzip';
      if (typeof etag === 'string') etag = gzipEtag(etag);
    }
  }
  const safe = req.method === 'GET' || req.method === 'HEAD';
  if (safe && status === 200 && typeof etag === 'string' && isNotModified(req.headers, etag)) {
    // RFC 9110 §15.4.5: a 304 carries the validators and no body.
    status = 304;
    contentType = undefined;
  }
  // RFC 9110 §6.4.1: 204 and 304 have no content; HEAD gets the GET's length without the bytes.
  if (status === 204 || status === 304) body = undefined;
  if (contentType !== undefined) flat.push('Content-Type', contentType);
  if (encoding !== undefined && status !== 304) flat.push('Content-Encoding', encoding);
  if (policy !== undefined) flat.push('Content-Security-Policy', policy);
  if (link !== undefined) flat.push('Link', link);
  if (etag !== undefined) flat.push('ETag', etag);
  if (cacheControl !== undefined) flat.push('Cache-Control', cacheControl);
  if (vary !== undefined) flat.push('Vary', vary);
  flat.push('X-Content-Type-Options', 'nosniff',
    // No page's address (a chat id, a search) leaves this site in a Referer header. Not no-referrer: under it a
    // browser sends `Origin: null` with a form post (Fetch §3.2.5), and the forms' same-origin check would refuse them.
    'Referrer-Policy', 'same-origin');
  if (body !== undefined) flat.push('Content-Length', typeof body === 'string' ? Buffer.byteLength(body) : body.length);
  else if (reply.stream && status !== 304) flat.push('Content-Length', reply.stream.length);
  else if (status !== 204 && status !== 304) flat.push('Content-Length', 0);
  res.writeHead(status, flat as unknown as Record<string, string>);
  if (reply.stream && status !== 304 && req.method !== 'HEAD') void streamBody(res, reply.stream.chunks());
  else res.end(req.method === 'HEAD' ? undefined : body);
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
