// Bench only: one user's event stream in the capacity bench (bench/capacity.md): an SSE reader on its own socket that
// resumes with Last-Event-ID, counts every event id it has seen (a second sighting is a duplicate), and hands each
// message.created on to whoever measures delivery.
import { request, type ClientRequest } from 'node:http';

export interface StreamTarget { url: URL; token: string }

/** What a stream tells its owner: a new message (with the time it arrived), and whether it came live or in a replay. */
export type OnMessage = (message: { id: string; chatId: string; text: string }, arrivedAt: number, live: boolean) => void;

export const now = (): number => performance.timeOrigin + performance.now();

export class UserStream {
  lastEventId: string | undefined;
  /** Event ids seen since the last reset of the counts; a repeat is a duplicate. */
  seen = new Set<string>();
  duplicates = 0;
  private live = false;
  private req: ClientRequest | undefined;
  private buffer = '';
  private closedByUs = false;
  /** Resolves when the stream's `ready` arrives (the replay is over). */
  private onReady: (() => void) | undefined;
  private onFail: ((error: Error) => void) | undefined;

  private readonly target: StreamTarget;
  private readonly onMessage: OnMessage;
  private readonly onDropped: () => void;

  constructor(target: StreamTarget, onMessage: OnMessage, onDropped: () => void) {
    this.target = target;
    this.onMessage = onMessage;
    this.onDropped = onDropped;
  }

  /** Opens the stream (resuming after lastEventId if any) and resolves at its `ready`. */
  open(): Promise<void> {
    this.closedByUs = false;
    this.live = false;
    this.buffer = '';
    return new Promise<void>((resolve, reject) => {
      this.onReady = resolve;
      this.onFail = reject;
      const headers: Record<string, string> = { accept: 'text/event-stream', authorization: `Bearer ${this.target.token}` };
      if (this.lastEventId !== undefined) headers['last-event-id'] = this.lastEventId;
      const req = request(new URL('/events', this.target.url), { headers, agent: false });
      this.req = req;
      // Events of a connection closed on purpose (a reconnect's old one) must not touch its successor.
      const current = (): boolean => this.req === req;
      req.on('response', (res) => {
        if (!current()) return;
        if (res.statusCode !== 200) {
          res.resume();
          this.fail(new Error(`GET /events: ${res.statusCode}`));
          return;
        }
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => { if (current()) this.take(chunk); });
        res.on('close', () => { if (current()) this.ended(); });
      });
      req.on('error', (error) => { if (current()) this.fail(error); });
      req.end();
    });
  }

  /** Closes the stream on purpose (a reconnect, or the end of the bench). */
  close(): void {
    this.closedByUs = true;
    const req = this.req;
    this.req = undefined;
    req?.destroy();
  }

  private fail(error: Error): void {
    const reject = this.onFail;
    this.onReady = undefined;
    this.onFail = undefined;
    if (reject) reject(error);
    else if (!this.closedByUs) this.onDropped();
  }

  private ended(): void {
    if (this.onFail) this.fail(new Error('GET /events: closed before ready'));
    else if (!this.closedByUs) this.onDropped();
  }

  private take(chunk: string): void {
    this.buffer += chunk;
    let end: number;
    while ((end = this.buffer.indexOf('\n\n')) !== -1) {
      const frame = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      this.frame(frame);
    }
  }

  private frame(frame: string): void {
    if (!frame.startsWith('id: ')) return;
    const idEnd = frame.indexOf('\n');
    const id = frame.slice(4, idEnd);
    const typeEnd = frame.indexOf('\n', idEnd + 1);
    const type = frame.slice(idEnd + 8, typeEnd);
    this.lastEventId = id;
    if (type === 'ready') {
      this.live = true;
      const resolve = this.onReady;
      this.onReady = undefined;
      this.onFail = undefined;
      resolve?.();
      return;
    }
    if (this.seen.has(id)) this.duplicates++;
    else this.seen.add(id);
    if (type === 'message.created') {
      const event = JSON.parse(frame.slice(typeEnd + 7)) as { data: { id: string; chatId: string; text: string } };
      this.onMessage(event.data, now(), this.live);
    }
  }
}
