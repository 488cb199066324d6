// Test helper: an SSE client over a real socket that parses frames as WHATWG HTML §9.2.6 says and waits on them.
import { request as httpRequest, type ClientRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import type { RunningServer } from '../../src/index.ts';

export interface SseEvent {
  /** The `id:` field, or undefined when the frame had none. */
  id: string | undefined;
  type: string;
  data: string;
  /** data parsed as JSON. */
  json: any;
}

export interface OpenOptions {
  token?: string;
  lastEventId?: string;
  query?: string;
  headers?: Record<string, string>;
}

/** One open stream: every frame it received, and promises that settle when wanted frames arrive. */
export class EventStream {
  readonly events: SseEvent[] = [];
  comments = 0;
  retry: number | undefined;
  /** Settles when the server ends the stream or the socket closes. */
  readonly ended: Promise<void>;
  private buffer = '';
  private waiters: (() => void)[] = [];
  private isEnded = false;

  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  private readonly request: ClientRequest;

  constructor(status: number, headers: IncomingHttpHeaders, request: ClientRequest, response: IncomingMessage) {
    this.status = status;
    this.headers = headers;
    this.request = request;
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => this.receive(chunk));
    this.ended = new Promise((resolve) => {
      const end = (): void => {
        this.isEnded = true;
        this.notify();
        resolve();
      };
      response.once('end', end);
      response.once('close', end);
      response.once('error', end);
    });
  }

  get closed(): boolean {
    return this.isEnded;
  }

  /** The events of the stream that are not ready/reset, i.e. what the log delivered (ephemeral events have no id). */
  get logEvents(): SseEvent[] {
    return this.events.filter((event) => event.id !== undefined && event.type !== 'ready');
  }

  /** The ephemeral events (typing, presence.changed: docs/protocol.md §14.5), which come without an id. */
  get ephemeralEvents(): SseEvent[] {
    return this.events.filter((event) => event.id === undefined && event.type !== 'reset');
  }

  /** Waits until `predicate` holds over what was received; fails after timeoutMs (a bound, not a sleep). */
  async until(predicate: (stream: EventStream) => boolean, what: string, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate(this)) {
      if (this.isEnded) throw new Error(`stream ended before ${what}; got ${this.events.map((event) => `${event.id}:${event.type}`).join(' ')}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${what}; got ${this.events.map((event) => `${event.id}:${event.type}`).join(' ')}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Waits for the first event of a type (after the first `skip` of them) and answers it. */
  async next(type: string, skip = 0): Promise<SseEvent> {
    await this.until((stream) => stream.events.filter((event) => event.type === type).length > skip, `event ${type}`);
    return this.events.filter((event) => event.type === type)[skip]!;
  }

  /** Waits until `count` log events arrived after ready. */
  async logEventCount(count: number): Promise<SseEvent[]> {
    await this.until((stream) => stream.logEvents.length >= count, `${count} events`);
    return this.logEvents;
  }

  close(): void {
    this.request.destroy();
  }

  private receive(chunk: string): void {
    this.buffer += chunk;
    let end: number;
    while ((end = this.buffer.indexOf('\n\n')) !== -1) {
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      this.parseBlock(block);
    }
    this.notify();
  }

  private parseBlock(block: string): void {
    let id: string | undefined;
    let type = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) {
        this.comments++;
        continue;
      }
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'id') id = value;
      else if (field === 'event') type = value;
      else if (field === 'data') data.push(value);
      else if (field === 'retry') this.retry = Number(value);
    }
    if (data.length === 0) return;
    const text = data.join('\n');
    this.events.push({ id, type, data: text, json: JSON.parse(text) });
  }

  private notify(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}

/** Opens GET /events as a stream; resolves once the answer's headers are in. */
export function openEvents(server: RunningServer | string, options: OpenOptions = {}): Promise<EventStream> {
  const base = typeof server === 'string' ? server : server.url;
  const headers: Record<string, string> = { accept: 'text/event-stream', ...options.headers };
  if (options.token) headers['authorization'] = `Bearer ${options.token}`;
  if (options.lastEventId !== undefined) headers['last-event-id'] = options.lastEventId;
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${base}/events${options.query ? `?${options.query}` : ''}`, { headers, agent: false }, (response) => {
      resolve(new EventStream(response.statusCode ?? 0, response.headers, request, response));
    });
    request.on('error', reject);
    request.end();
  });
}

/** Opens a stream and waits for its ready event. */
export async function openReady(server: RunningServer | string, options: OpenOptions = {}): Promise<EventStream> {
  const stream = await openEvents(server, options);
  if (stream.status !== 200) throw new Error(`GET /events answered ${stream.status}`);
  await stream.next('ready');
  return stream;
}
