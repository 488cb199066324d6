// --trace: each exchange as raw HTTP/1.1 on stderr, curl -v style, with secrets replaced by [redacted].
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PATHS } from '../paths.ts';

/** Bodies are shown up to this many bytes (after redaction). */
export const TRACE_BODY_LIMIT = 2048;
/** Bytes kept for redaction before cutting: a secret straddling the cut is still found whole. */
const CAPTURE_LIMIT = 64 * 1024;
const REDACTED = '[redacted]';
const SECRET_FIELDS = 'token|password|currentPassword|newPassword|inviteCode';
/** An invite's code (docs/protocol.md §13.5) is in its `code` field, and in its join page's path, /join/<code>. */
const JOIN_SEGMENT = PATHS.join.split('/')[1]!;
const JOIN_PATH = new RegExp(`(/${JOIN_SEGMENT}/)[^/?#"'<>\\s&]+`, 'g');
const TEXT_TYPE = /^(text\/|application\/([\w.+-]+\+)?(json|xml)$|application\/x-www-form-urlencoded$|multipart\/form-data$)/;

const BODY_REDACTIONS: readonly [RegExp, string][] = [
  // JSON members, also cut short: "password":"..." (RFC 8259 strings, escapes included).
  [new RegExp(`("(?:${SECRET_FIELDS})"\\s*:\\s*)"(?:[^"\\\\]|\\\\.)*(?:"|$)`, 'g'), `$1"${REDACTED}"`],
  // Form fields: password=...&
  [new RegExp(`(^|&)((?:${SECRET_FIELDS})=)[^&]*`, 'g'), `$1$2${REDACTED}`],
  // Multipart fields: the part's first line of content.
  [new RegExp(`(name="(?:${SECRET_FIELDS})"[^\\r\\n]*\\r\\n(?:[^\\r\\n]+\\r\\n)*\\r\\n)[^\\r\\n]*`, 'g'), `$1${REDACTED}`],
  // XML elements and the HTML definition lists of a resource page.
  [new RegExp(`<(${SECRET_FIELDS})>[^<]*`, 'g'), `<$1>${REDACTED}`],
  [new RegExp(`(<dt>(?:${SECRET_FIELDS})</dt><dd>)[^<]*`, 'g'), `$1${REDACTED}`],
  // A form field's value in a page (the join page's hidden inviteCode).
  [new RegExp(`(name="(?:${SECRET_FIELDS})" value=")[^"]*`, 'g'), `$1${REDACTED}`],
  // An invite's code, wherever a problem's code (ERR_...) is not meant.
  [/("code"\s*:\s*)"(?!ERR_)(?:[^"\\]|\\.)*(?:"|$)/g, `$1"${REDACTED}"`],
  // In XML and a page only what looks like one (base64url, 22 characters or more): <code> marks up much else in HTML.
  [/<code>(?!ERR_)[A-Za-z0-9_-]{22,}<\/code>/g, `<code>${REDACTED}</code>`],
  [/(<dt>code<\/dt><dd>)(?!ERR_)[A-Za-z0-9_-]{22,}/g, `$1${REDACTED}`],
  [JOIN_PATH, `$1${REDACTED}`],
];

/** A request target with an invite's code taken out of a join page's path (the access log and the trace print it). */
export function redactTarget(target: string): string {
  return target.replace(JOIN_PATH, `$1${REDACTED}`);
}

/** Keeps the first CAPTURE_LIMIT bytes of a body and counts them all. */
class BodyTap {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  total = 0;

  add(chunk: unknown, encoding?: unknown): void {
    if (chunk === null || chunk === undefined || typeof chunk === 'function') return;
    const bytes = Buffer.isBuffer(chunk) ? chunk
      : chunk instanceof Uint8Array ? Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
        : Buffer.from(String(chunk), typeof encoding === 'string' ? encoding as BufferEncoding : 'utf8');
    this.total += bytes.length;
    if (this.kept < CAPTURE_LIMIT) {
      const part = bytes.subarray(0, CAPTURE_LIMIT - this.kept);
      this.chunks.push(part);
      this.kept += part.length;
    }
  }

  bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

/** Authorization keeps its scheme, Cookie its names, Set-Cookie its attributes: what a learner needs to see. */
export function redactHeader(name: string, value: string): string {
  switch (name.toLowerCase()) {
    case 'authorization':
    case 'proxy-authorization': {
      const space = value.indexOf(' ');
      return space === -1 ? REDACTED : `${value.slice(0, space)} ${REDACTED}`;
    }
    case 'cookie':
      return value.split(';').map((pair) => {
        const equals = pair.indexOf('=');
        return equals === -1 ? pair : `${pair.slice(0, equals)}=${REDACTED}`;
      }).join(';');
    case 'set-cookie': {
      const end = value.indexOf(';');
      const first = end === -1 ? value : value.slice(0, end);
      const equals = first.indexOf('=');
      return `${equals === -1 ? REDACTED : `${first.slice(0, equals)}=${REDACTED}`}${end === -1 ? '' : value.slice(end)}`;
    }
    default:
      return value;
  }
}

/** Replaces secret fields in a text body (JSON, form, multipart, XML, HTML). */
export function redactBody(text: string): string {
  return BODY_REDACTIONS.reduce((current, [pattern, replacement]) => current.replace(pattern, replacement), text);
}

/** A body as trace lines: text redacted and cut at TRACE_BODY_LIMIT bytes, anything else summarised. */
export function describeBody(bytes: Buffer, total: number, contentType: string | undefined): string[] {
  if (total === 0) return [];
  const type = (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase();
  let text: string | undefined;
  if (TEXT_TYPE.test(type)) {
    try {
      // stream: true lets a character cut by the capture limit end the text instead of failing it.
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: true });
    } catch {
      text = undefined;
    }
  }
  if (text === undefined) return [`[${total} bytes ${type || 'of unknown type'}]`];
  const redacted = Buffer.from(redactBody(text));
  const shown = new TextDecoder('utf-8').decode(redacted.subarray(0, TRACE_BODY_LIMIT), { stream: true });
  const lines = shown.split(/\r?\n/);
  // Counted in the redacted text's bytes, which is what the lines show.
  const left = Math.max(0, total + redacted.length - bytes.length - Buffer.byteLength(shown));
  if (left > 0) lines.push(`[... ${left} more bytes]`);
  return lines;
}

function headerLines(rawHeaders: readonly string[]): string[] {
  const lines: string[] = [];
  for (let i = 0; i < rawHeaders.length; i += 2) lines.push(`${rawHeaders[i]}: ${redactHeader(rawHeaders[i]!, rawHeaders[i + 1]!)}`);
  return lines;
}

/** The response head as Node wrote it on the wire (its internal copy), split back into status and header lines. */
function responseHead(res: ServerResponse): string[] | undefined {
  const head = (res as unknown as { _header?: unknown })._header;
  if (typeof head !== 'string' || head === '') return undefined;
  const [status, ...fields] = head.replace(/\r\n\r\n$/, '').split('\r\n');
  return [status!, ...fields.map((line) => {
    const colon = line.indexOf(':');
    return colon === -1 ? line : `${line.slice(0, colon)}: ${redactHeader(line.slice(0, colon), line.slice(colon + 1).trim())}`;
  })];
}

export interface Trace {
  /** The whole exchange as one block of text, written at once so exchanges never interleave. */
  format(info: { time: number; requestId: string; durationMs: number }): string;
}

/**
 * Taps a request's body as the HTTP parser pushes it (so whoever reads the body reads it unchanged) and the
 * response's writes. Only installed with --trace.
 */
export function traceExchange(req: IncomingMessage, res: ServerResponse): Trace {
  const requestBody = new BodyTap();
  const responseBody = new BodyTap();
  const push = req.push.bind(req);
  req.push = (chunk: unknown, encoding?: BufferEncoding): boolean => {
    requestBody.add(chunk);
    return push(chunk, encoding);
  };
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    responseBody.add(chunk, rest[0]);
    return write(chunk, ...rest);
  }) as typeof res.write;
  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    responseBody.add(chunk, rest[0]);
    return end(chunk, ...rest);
  }) as typeof res.end;

  return {
    format({ time, requestId, durationMs }) {
      const lines = [`* ${new Date(time).toISOString()} ${requestId} ${req.socket.remoteAddress ?? '-'}:${req.socket.remotePort ?? '-'} ${durationMs.toFixed(1)} ms`];
      const request = [`${req.method} ${redactTarget(req.url ?? '/')} HTTP/${req.httpVersion}`, ...headerLines(req.rawHeaders), ''];
      request.push(...describeBody(requestBody.bytes(), requestBody.total, req.headers['content-type']));
      const declared = Number(req.headers['content-length'] ?? 0);
      if (declared > requestBody.total) request.push(`[the server read ${requestBody.total} of the ${declared} bytes declared]`);
      lines.push(...request.map((line) => `> ${line}`));
      const head = responseHead(res);
      if (!head) {
        lines.push('< [no answer was sent: the client left first]');
      } else {
        // From the head as sent: headers given to writeHead alone are not kept for getHeader.
        const contentType = head.find((line) => /^content-type:/i.test(line))?.replace(/^content-type:\s*/i, '');
        const response = [...head, '', ...describeBody(responseBody.bytes(), responseBody.total, contentType)];
        lines.push(...response.map((line) => `< ${line}`));
      }
      return `${lines.join('\n')}\n\n`;
    },
  };
}
