// Typing indicators (docs/protocol.md §14.5): who is typing where, until when, as every process learns it from the
// bus; a start accepted at most every 2 s per user and chat; a message of the typist ends it.
import type { EphemeralBus } from './ephemeral-bus.ts';
import type { EphemeralEvent } from './ephemeral-event.ts';

/** A typing event holds this long unless repeated. */
export const TYPING_MS = 6000;
/** At most one start accepted (and forwarded) per user and chat in this time; more are answered and dropped. */
export const TYPING_EVERY_MS = 2000;
const PRUNE_MS = 10_000;

interface Typist {
  /** When the accepted start was made. */
  at: number;
  until: number;
}

function keyOf(chatId: string, userId: string): string {
  return `${chatId} ${userId}`;
}

export class TypingTracker {
  private readonly typists = new Map<string, Typist>();
  private readonly timer: NodeJS.Timeout;

  private readonly bus: EphemeralBus;
  private readonly now: () => number;

  constructor(bus: EphemeralBus, now: () => number) {
    this.bus = bus;
    this.now = now;
    // Every process hears every typing event, its own included: the limit and the end hold across processes.
    bus.listen((message) => {
      if (message.kind === 'event' && message.event.type === 'typing') this.observe(message.event);
    });
    this.timer = setInterval(() => this.prune(), PRUNE_MS);
    this.timer.unref();
  }

  /** A member is typing: true when it was forwarded, false when one was accepted less than 2 s ago. */
  start(chatId: string, userId: string): boolean {
    const now = this.now();
    const typist = this.typists.get(keyOf(chatId, userId));
    if (typist !== undefined && now - typist.at < TYPING_EVERY_MS) return false;
    this.publish(chatId, userId, now, now + TYPING_MS);
    return true;
  }

  /** The member posted a message: a typing that still holds ends now (`until` = now); none holds, nothing is sent. */
  stop(chatId: string, userId: string): void {
    const now = this.now();
    const typist = this.typists.get(keyOf(chatId, userId));
    if (typist === undefined || typist.until <= now) return;
    this.publish(chatId, userId, now, now);
  }

  /** Typing indicators that hold now (tests, the benchmark). */
  holding(): number {
    const now = this.now();
    let count = 0;
    for (const typist of this.typists.values()) if (typist.until > now) count++;
    return count;
  }

  stopTimers(): void {
    clearInterval(this.timer);
  }

  private publish(chatId: string, userId: string, now: number, until: number): void {
    const event: EphemeralEvent = {
      type: 'typing', chatId, audienceChatIds: [chatId], exceptUserId: userId, createdAt: now,
      data: { chatId, userId, until: new Date(until).toISOString() },
    };
    this.bus.publish({ kind: 'event', event });
  }

  private observe(event: EphemeralEvent): void {
    const { chatId, userId, until } = event.data as { chatId: string; userId: string; until: string };
    const key = keyOf(chatId, userId);
    const ends = Date.parse(until);
    if (ends > event.createdAt) this.typists.set(key, { at: event.createdAt, until: ends });
    else this.typists.delete(key);
  }

  private prune(): void {
    const now = this.now();
    for (const [key, typist] of this.typists) if (typist.until <= now && now - typist.at >= TYPING_EVERY_MS) this.typists.delete(key);
  }
}
