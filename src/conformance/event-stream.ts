// A Server-Sent Events reader for the kit: parses frames as WHATWG HTML §9.2.6 says and waits on them, never on time alone.
import { request as httpRequest, type ClientRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Exchange } from './http-client.ts';

export interface StreamEvent {
  /** The `id:` field, or undefined when the frame had none. */
  id: string | undefined;
  type: string;
  data: string;
  /** data parsed as JSON (undefined when it is not). */
  json: any;
}

/** One open stream: what it received, in order, and waits that settle when wanted frames arrive. */
export class KitStream {
  readonly events: StreamEvent[] = [];
  /** The field names in order of arrival (`retry`, `id`, `event`, `data`, `:` for a comment). */
  readonly fields: string[] = [];
  retry: number | undefined;
  status = 0;
  headers: IncomingHttpHeaders = {};
  body = '';
  ended = false;
  private buffer = '';
  private frame: { id?: string; type?: string; data: string[] } = { data: [] };
  private waiters: (() => void)[] = [];
  private request: ClientRequest | undefined;

  /** Opens the stream and resolves once the status and headers are in (a refusal's body is read whole). */
  static open(url: URL, headers: Record<string, string>, record: (exchange: Exchange) => void): Promise<KitStream> {
    const stream = new KitStream();
    const exchange: Exchange = { method: 'GET', url: url.href, requestHeaders: headers };
    record(exchange);
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const req = send(url, { method: 'GET', headers, agent: false }, (res) => {
        stream.status = res.statusCode!;
        stream.headers = res.headers;
        Object.assign(exchange, { status: res.statusCode, responseHeaders: res.headers, responseBody: '(an event stream)' });
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => stream.receive(chunk));
        const end = (): void => stream.finish();
        res.once('end', end);
        res.once('close', end);
        res.once('error', end);
        if (res.statusCode !== 200) res.once('end', () => { exchange.responseBody = stream.body; resolve(stream); });
        else resolve(stream);
      });
      stream.request = req;
      req.setTimeout(15_000, () => req.destroy(new Error('the stream did not answer within 15 s')));
      req.on('error', (error) => {
        exchange.error = error.message;
        if (stream.status === 0) reject(error);
        stream.finish();
      });
      req.end();
    });
  }

  /** Resolves with the first event (in order) matching `wanted`, or rejects after `timeoutMs` or when the stream ends. */
  waitFor(wanted: (event: StreamEvent) => boolean, what: string, timeoutMs = 5000): Promise<StreamEvent> {
    return this.waitUntil(() => this.events.find(wanted), what, timeoutMs);
  }

  /** Resolves once the server ended the stream. */
  waitForEnd(what: string, timeoutMs = 5000): Promise<true> {
    return this.waitUntil(() => (this.ended ? true : undefined), what, timeoutMs, true);
  }

  close(): void {
    this.request?.destroy();
    this.finish();
  }

  private waitUntil<T>(found: () => T | undefined, what: string, timeoutMs: number, endIsAnswer = false): Promise<T> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => settle(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)), timeoutMs);
      const settle = (error?: Error): void => {
        clearTimeout(timer);
        this.waiters = this.waiters.filter((waiter) => waiter !== check);
        if (error) reject(error);
      };
      const check = (): void => {
        const value = found();
        if (value !== undefined) {
          settle();
          resolve(value);
        } else if (this.ended && !endIsAnswer) settle(new Error(`the stream ended before ${what}`));
      };
      this.waiters.push(check);
      check();
    });
  }

  private receive(chunk: string): void {
    if (this.status !== 200) {
      this.body += chunk;
      return;
    }
    this.buffer += chunk;
    const lines = this.buffer.split(/\r\n|\r|\n/);
    this.buffer = lines.pop()!;
    for (const line of lines) this.readLine(line);
    for (const waiter of [...this.waiters]) waiter();
  }

  private readLine(line: string): void {
    if (line === '') {
      if (this.frame.data.length > 0 || this.frame.type !== undefined) {
        const data = this.frame.data.join('\n');
        let json: unknown;
        try { json = JSON.parse(data); } catch { json = undefined; }
        this.events.push({ id: this.frame.id, type: this.frame.type ?? 'message', data, json });
      }
      this.frame = { data: [] };
      return;
    }
    if (line.startsWith(':')) {
      this.fields.push(':');
      return;
    }
    const colon = line.indexOf(':');
    const name = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    this.fields.push(name);
    if (name === 'id') this.frame.id = value;
    else if (name === 'event') this.frame.type = value;
    else if (name === 'data') this.frame.data.push(value);
    else if (name === 'retry' && /^\d+$/.test(value)) this.retry = Number(value);
  }

  private finish(): void {
    if (this.ended) return;
    this.ended = true;
    for (const waiter of [...this.waiters]) waiter();
  }
}
