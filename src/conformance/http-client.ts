// The kit's own HTTP client (node:http, node:https): one request, its answer, and a record of both for the report.
import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

/** One request and its answer as the report shows them, bodies shortened. */
export interface Exchange {
  method: string;
  url: string;
  requestHeaders: Record<string, string>;
  requestBody?: string;
  status?: number;
  responseHeaders?: IncomingHttpHeaders;
  responseBody?: string;
  error?: string;
}

export interface Reply {
  /** The request as `GET /chats/x`, for failure messages. */
  label: string;
  status: number;
  headers: IncomingHttpHeaders;
  raw: Buffer;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: any;
}

export interface RequestSpec {
  method: string;
  url: URL;
  headers?: Record<string, string>;
  body?: string | Buffer;
  timeoutMs?: number;
}

const SHORT = 600;
const agents = { http: new HttpAgent({ keepAlive: true, maxSockets: 8 }), https: new HttpsAgent({ keepAlive: true, maxSockets: 8 }) };

/** A body for the report: at most 600 characters, binary shown by its length only. */
export function shorten(body: string | Buffer | undefined): string | undefined {
  if (body === undefined || body.length === 0) return undefined;
  const text = typeof body === 'string' ? body : body.toString('utf8');
  if (text.includes('\uFFFD') && Buffer.isBuffer(body)) return `<${body.length} bytes>`;
  return text.length > SHORT ? `${text.slice(0, SHORT)}… (${text.length} characters)` : text;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Sends one request and reads the whole answer; `record` receives the exchange, answered or not. */
export function sendRequest(spec: RequestSpec, record: (exchange: Exchange) => void): Promise<Reply> {
  const headers: Record<string, string> = { ...spec.headers };
  if (spec.body !== undefined && !Object.keys(headers).some((name) => name.toLowerCase() === 'content-length')) {
    headers['Content-Length'] = String(Buffer.byteLength(spec.body));
  }
  const exchange: Exchange = { method: spec.method, url: spec.url.href, requestHeaders: headers, ...(spec.body === undefined ? {} : { requestBody: shorten(spec.body)! }) };
  record(exchange);
  const secure = spec.url.protocol === 'https:';
  const send = secure ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(spec.url, { method: spec.method, headers, agent: secure ? agents.https : agents.http }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', fail);
      res.on('end', () => {
        clearTimeout(timer);
        const raw = Buffer.concat(chunks);
        const text = raw.toString('utf8');
        Object.assign(exchange, { status: res.statusCode, responseHeaders: res.headers, responseBody: shorten(raw) });
        resolve({ label: `${spec.method} ${spec.url.pathname}${spec.url.search}`, status: res.statusCode!, headers: res.headers, raw, text, json: parseJson(text) });
      });
    });
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${spec.timeoutMs ?? 10_000} ms`)), spec.timeoutMs ?? 10_000);
    function fail(error: Error): void {
      clearTimeout(timer);
      exchange.error = error.message;
      reject(error);
    }
    req.on('error', fail);
    req.end(spec.body);
  });
}

/** Closes the kept-alive sockets so a run leaves nothing open. */
export function closeConnections(): void {
  agents.http.destroy();
  agents.https.destroy();
  agents.http = new HttpAgent({ keepAlive: true, maxSockets: 8 });
  agents.https = new HttpsAgent({ keepAlive: true, maxSockets: 8 });
}
