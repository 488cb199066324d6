// The ephemeral bus (docs/events.md, "Ephemeral events"): what every process of the server hears at once and nobody
// stores. publish() hands a message to this process's listeners (its hub, typing and presence) and to the transport,
// which carries it to every other process: through the primary with --workers, a NOTIFY with PostgreSQL. A message
// coming back to the process that sent it (PostgreSQL notifies its sender too) is known by its origin and dropped.
import { randomUUID } from 'node:crypto';
import { parseEphemeralEvent, type EphemeralEvent } from './ephemeral-event.ts';

/** An event for streams, or which users hold streams on the sending process (opened, closed, or still open), as of `at`. */
export type BusMessage =
  | { kind: 'event'; event: EphemeralEvent }
  | { kind: 'streams'; open: readonly string[]; closed: readonly string[]; at?: number };

/** Carries a message to every other process (never back to this one's listeners: the bus called them already). */
export interface BusTransport {
  send(payload: string): void;
}

export type BusListener = (message: BusMessage, origin: string) => void;

function parseMessage(value: unknown): BusMessage | undefined {
  const message = value as { kind?: unknown; event?: unknown; open?: unknown; closed?: unknown; at?: unknown } | null;
  if (typeof message !== 'object' || message === null) return undefined;
  if (message.kind === 'event') {
    const event = parseEphemeralEvent(message.event);
    return event && { kind: 'event', event };
  }
  const ids = (list: unknown): list is string[] => Array.isArray(list) && list.every((id) => typeof id === 'string');
  if (message.kind === 'streams' && ids(message.open) && ids(message.closed)) {
    return { kind: 'streams', open: message.open, closed: message.closed, ...(typeof message.at === 'number' ? { at: message.at } : {}) };
  }
  return undefined;
}

export class EphemeralBus {
  /** This process, as the messages it sends name it. */
  readonly origin = randomUUID();
  /** Messages published here and received from others: what the benchmark weighs. */
  published = 0;
  received = 0;
  private transport: BusTransport | undefined;
  private readonly listeners: BusListener[] = [];

  /** Where messages go besides this process (unset: one process alone). */
  connect(transport: BusTransport | undefined): void {
    this.transport = transport;
  }

  listen(listener: BusListener): void {
    this.listeners.push(listener);
  }

  publish(message: BusMessage): void {
    this.published++;
    this.tell(message, this.origin);
    this.transport?.send(JSON.stringify({ o: this.origin, m: message }));
  }

  /** A payload another process published; its own, or anything unreadable, is dropped. */
  receive(payload: string): void {
    let parsed: { o?: unknown; m?: unknown };
    try {
      parsed = JSON.parse(payload) as typeof parsed;
    } catch {
      return;
    }
    if (typeof parsed.o !== 'string' || parsed.o === this.origin) return;
    const message = parseMessage(parsed.m);
    if (message === undefined) return;
    this.received++;
    this.tell(message, parsed.o);
  }

  private tell(message: BusMessage, origin: string): void {
    for (const listener of this.listeners) listener(message, origin);
  }
}
