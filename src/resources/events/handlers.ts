// GET /events (docs/protocol.md §9): a Server-Sent Events stream, or a long-poll in JSON, XML or HTML, over the event log.
import { formatErrorLine } from '../../http/access-log.ts';
import type { Reply, RequestContext } from '../context.ts';
import { HttpError, invalidField } from '../../http/http-error.ts';
import type { SseWriter } from '../../http/sse.ts';
import type { Subscriber } from '../../events/hub.ts';
import type { SseFrame } from '../../events/sse-frame.ts';
import type { LoggedEvent } from '../../events/logged-event.ts';
import { PATHS } from '../../paths.ts';

/** At most this many open streams per user (docs/protocol.md §9.7); the next one answers 429. */
export const STREAMS_PER_USER = 5;
/** At most this many events in one long-poll answer; meta.lastEventId says where to go on. */
export const POLL_LIMIT = 100;
const DEFAULT_WAIT_SECONDS = 25;
const MAX_WAIT_SECONDS = 30;
const EVENT_ID = /^\d{1,15}$/;

interface EventsQuery {
  after: number | undefined;
  wait: number;
}

/** `after` and `wait` only; anything else is a 400 naming it, like every other query. */
function parseEventsQuery(rawQuery: string): EventsQuery {
  const query: EventsQuery = { after: undefined, wait: DEFAULT_WAIT_SECONDS };
  for (const [name, value] of new URLSearchParams(rawQuery)) {
    if (name === 'after') {
      if (!EVENT_ID.test(value)) throw invalidField('after', 'must be an event id (a non-negative integer)', 'ERR_BAD_QUERY');
      query.after = Number(value);
    } else if (name === 'wait') {
      if (!/^\d{1,2}$/.test(value) || Number(value) > MAX_WAIT_SECONDS) {
        throw invalidField('wait', `must be a whole number of seconds from 0 to ${MAX_WAIT_SECONDS}`, 'ERR_BAD_QUERY');
      }
      query.wait = Number(value);
    } else {
      throw invalidField(name, 'is not a parameter of /events (after, wait)', 'ERR_BAD_QUERY');
    }
  }
  return query;
}

export function getEvents(ctx: RequestContext): Promise<Reply> | Reply {
  const query = parseEventsQuery(ctx.rawQuery);
  // HEAD tells what GET would answer without holding the connection for `wait` seconds.
  if (ctx.method === 'HEAD') query.wait = 0;
  return ctx.mediaType === 'text/event-stream' ? openStream(ctx, query) : longPoll(ctx, query);
}

/** The resume id: Last-Event-ID (what EventSource sends on reconnect) wins over ?after= (docs/protocol.md §9.3). */
function resumeIdOf(ctx: RequestContext, query: EventsQuery): number | string | undefined {
  const raw = ctx.req.headers['last-event-id'];
  if (raw === undefined) return query.after;
  const header = (Array.isArray(raw) ? raw.join(',') : raw).trim();
  return EVENT_ID.test(header) ? Number(header) : header;
}

function openStream(ctx: RequestContext, query: EventsQuery): Reply {
  const { events: hub, config } = ctx.services;
  const { userId, sessionId } = ctx.caller!;
  if (hub.streamCount(userId) >= STREAMS_PER_USER) {
    throw new HttpError('ERR_TOO_MANY_STREAMS', `At most ${STREAMS_PER_USER} event streams per user are open at once`, { headers: { 'Retry-After': '15' } });
  }
  // null: nothing was planned (an app built without startServer, as in unit tests): no server-wide cap.
  if (hub.streamCount() >= (config.maxStreams ?? Infinity)) {
    throw new HttpError('ERR_SERVER_BUSY', 'The server holds as many event streams as it may; try again later', { headers: { 'Retry-After': '15' } });
  }
  const resumeId = resumeIdOf(ctx, query);
  const stream: OpenedStream = { hub, userId, sessionId, resumeId, delivered: ctx.services.metrics.eventsDelivered, logFormat: config.logFormat, requestId: ctx.requestId };
  return { status: 200, eventStream: (writer: SseWriter) => runStream(stream, writer) };
}

/** What an open stream keeps for its lifetime: a few fields, not the request (docs/performance.md, memory per stream). */
interface OpenedStream {
  hub: RequestContext['services']['events'];
  userId: string;
  sessionId: string;
  resumeId: number | string | undefined;
  delivered: { inc(by: number): void };
  logFormat: RequestContext['services']['config']['logFormat'];
  requestId: string;
}

/**
 * Outside openStream, so that the closures a stream keeps while it is open capture `stream` and `writer` alone: a
 * closure made inside a handler keeps the handler's scope, the whole request context with it, for hours.
 */
function runStream(stream: OpenedStream, writer: SseWriter): void {
  const { hub } = stream;
  const subscriber = new StreamSubscriber(stream, writer);
  writer.onClose(() => hub.detach(subscriber));
  // The headers are out: a failure can only end the stream (and be logged); the client reconnects with its id.
  startStream(stream, subscriber, writer).catch((error: unknown) => {
    hub.detach(subscriber);
    writer.end();
    process.stderr.write(formatErrorLine(stream.logFormat, Date.now(), stream.requestId, error));
  });
}

/** An open stream as the hub sees it: a class, so ten thousand of them share their methods instead of each making seven closures. */
class StreamSubscriber implements Subscriber {
  readonly kind = 'stream';
  readonly userId: string;
  readonly sessionId: string;
  private readonly delivered: OpenedStream['delivered'];
  private readonly writer: SseWriter;

  constructor(stream: OpenedStream, writer: SseWriter) {
    this.userId = stream.userId;
    this.sessionId = stream.sessionId;
    this.delivered = stream.delivered;
    this.writer = writer;
  }

  deliver(events: readonly LoggedEvent[]): void {
    this.writer.deliver(events);
    this.delivered.inc(events.length);
  }

  /** Typing and presence (docs/protocol.md §14.5): written as they come, without an id; a long-poll gets none. */
  deliverEphemeral(frame: SseFrame): void {
    this.writer.deliver([frame]);
  }

  ready(newestId: number): void {
    this.writer.ready(newestId);
  }

  isCongested(): boolean {
    return this.writer.isCongested();
  }

  whenDrained(): Promise<void> {
    return this.writer.whenDrained();
  }

  ping(): void {
    this.writer.ping();
  }

  end(): void {
    this.writer.end();
  }
}

async function startStream(stream: OpenedStream, subscriber: Subscriber, writer: SseWriter): Promise<void> {
  const { hub, resumeId } = stream;
  let from = await hub.attach(subscriber);
  if (typeof resumeId === 'string') {
    writer.reset(`Last-Event-ID ${JSON.stringify(resumeId.slice(0, 40))} is not an event id of this server`);
  } else if (resumeId !== undefined) {
    const point = await hub.resumePoint(resumeId);
    if (point.kind === 'reset') writer.reset(point.reason);
    else from = point.after;
  }
  await hub.replayThenGoLive(subscriber, await hub.openReplay(stream.userId, from));
}

/** Answers at once when there are events after `after`, else when one arrives or after `wait` seconds. */
async function longPoll(ctx: RequestContext, query: EventsQuery): Promise<Reply> {
  const { events: hub } = ctx.services;
  const { userId, sessionId } = ctx.caller!;
  const collected: LoggedEvent[] = [];
  let finish: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const subscriber: Subscriber = {
    userId,
    sessionId,
    kind: 'poll',
    deliver: (events) => {
      const first = collected.length === 0;
      collected.push(...events);
      if (first) queueMicrotask(finish);
    },
    ready: () => {},
    isCongested: () => false,
    whenDrained: () => Promise.resolve(),
    ping: () => {},
    end: () => finish(),
  };
  const newest = await hub.attach(subscriber);
  try {
    const after = query.after ?? newest;
    const point = await hub.resumePoint(after);
    if (point.kind === 'reset') throw new HttpError('ERR_EVENTS_GONE', `${point.reason}: re-read what you show, then poll without after`);
    const replay = await hub.openReplay(userId, after);
    const events = await hub.readVisible(replay, POLL_LIMIT);
    if (events.length > 0 || query.wait === 0) return pollReply(ctx, events, replay.through);
    await hub.replayThenGoLive(subscriber, replay);
    const timer = setTimeout(finish, query.wait * 1000);
    // A client that leaves ends the wait (ctx.signal aborts when the answer can no longer be sent).
    ctx.signal.addEventListener('abort', finish, { once: true });
    await done;
    clearTimeout(timer);
    ctx.signal.removeEventListener('abort', finish);
    const taken = collected.slice(0, POLL_LIMIT);
    // Every event up to the newest was handed to this poll if visible: go on from there, or from the last taken.
    const through = collected.length > POLL_LIMIT ? taken[taken.length - 1]!.id : hub.newestId;
    return pollReply(ctx, taken, through);
  } finally {
    hub.detach(subscriber);
  }
}

function pollReply(ctx: RequestContext, events: readonly LoggedEvent[], through: number): Reply {
  const lastEventId = String(through);
  // Removed from the log since they were read (docs/events.md): deleted text is not sent again.
  events = events.filter((event) => !event.purged);
  ctx.services.metrics.eventsDelivered.inc(events.length);
  return {
    status: 200,
    headers: { 'Cache-Control': 'no-store' },
    representation: {
      kind: 'collection',
      type: 'event',
      data: events.map((event) => JSON.parse(event.json) as Record<string, unknown>),
      meta: { lastEventId },
      links: [{ rel: 'next', href: ctx.href(PATHS.events, {}, `after=${lastEventId}`) }],
      // An event has no page of its own: in HTML it links to the log read from just before it.
      itemHref: (item) => ctx.href(PATHS.events, {}, `after=${Number(item['id']) - 1}`),
    },
  };
}
