// The open streams and waiting long-polls of this process, by user: who is attached, and who is live (replay done).
import type { LoggedEvent } from './logged-event.ts';
import type { SseFrame } from './sse-frame.ts';

/** An open stream or a waiting long-poll. */
export interface Subscriber {
  readonly userId: string;
  readonly sessionId: string;
  /** Streams count against the per-user and server-wide limits and get pings; long-polls do not. */
  readonly kind: 'stream' | 'poll';
  /** Events in id order: one when live, a slice of the log while replaying. */
  deliver(events: readonly LoggedEvent[]): void;
  /** An ephemeral event (docs/protocol.md §14.5), for streams only: a long-poll answers with logged events alone. */
  deliverEphemeral?(frame: SseFrame): void;
  /** Replay is over and events will now be pushed: `newestId` is the newest event id at this moment. */
  ready(newestId: number): void;
  /** True while the client is behind: replay waits for whenDrained() before reading more of the log. */
  isCongested(): boolean;
  whenDrained(): Promise<void>;
  /** The hub's tick, twice in each ping interval: a stream writes a comment if it carried nothing since the tick before. */
  ping(): void;
  /** The hub is done with it (shutdown, ended session): end the answer. */
  end(reason: string): void;
}

export class SubscriberRegistry {
  /** Every subscriber, by user; the live ones (replay done) get events pushed. */
  private readonly byUser = new Map<string, Set<Subscriber>>();
  private readonly live = new Set<Subscriber>();
  private streamsOpen = 0;

  /** Open streams (long-polls not counted): of one user, or of the whole process. */
  streamCount(userId?: string): number {
    if (userId === undefined) return this.streamsOpen;
    let count = 0;
    for (const subscriber of this.byUser.get(userId) ?? []) if (subscriber.kind === 'stream') count++;
    return count;
  }

  /** Whether one of the user's open streams (not a long-poll) belongs to the session (docs/protocol.md §17.3). */
  hasStreamOfSession(userId: string, sessionId: string): boolean {
    for (const subscriber of this.byUser.get(userId) ?? []) if (subscriber.kind === 'stream' && subscriber.sessionId === sessionId) return true;
    return false;
  }

  all(): Subscriber[] {
    return [...this.byUser.values()].flatMap((set) => [...set]);
  }

  isAttached(subscriber: Subscriber): boolean {
    return this.byUser.get(subscriber.userId)?.has(subscriber) === true;
  }

  add(subscriber: Subscriber): void {
    let mine = this.byUser.get(subscriber.userId);
    if (!mine) this.byUser.set(subscriber.userId, mine = new Set());
    mine.add(subscriber);
    if (subscriber.kind === 'stream') this.streamsOpen++;
  }

  /** Answers 'last' when it was the user's last subscriber, 'absent' when it was not attached (removed already). */
  remove(subscriber: Subscriber): 'removed' | 'last' | 'absent' {
    const mine = this.byUser.get(subscriber.userId);
    if (!mine?.delete(subscriber)) return 'absent';
    if (subscriber.kind === 'stream') this.streamsOpen--;
    this.live.delete(subscriber);
    if (mine.size > 0) return 'removed';
    this.byUser.delete(subscriber.userId);
    return 'last';
  }

  /** Replay is done: from now on the pump pushes events to it. */
  goLive(subscriber: Subscriber): void {
    this.live.add(subscriber);
  }

  /** Hands an ephemeral frame to the user's live streams; answers how many took it. */
  deliverEphemeralLive(userId: string, frame: SseFrame): number {
    let count = 0;
    for (const subscriber of this.byUser.get(userId) ?? []) {
      if (subscriber.deliverEphemeral !== undefined && this.live.has(subscriber)) {
        subscriber.deliverEphemeral(frame);
        count++;
      }
    }
    return count;
  }

  /** Users with an open stream here. */
  streamHolders(): string[] {
    const holders: string[] = [];
    for (const [userId, mine] of this.byUser) for (const subscriber of mine) if (subscriber.kind === 'stream') { holders.push(userId); break; }
    return holders;
  }

  /** Hands events to the user's live subscribers; the ones still replaying read them from the log themselves. */
  deliverLive(userId: string, events: readonly LoggedEvent[]): void {
    for (const subscriber of this.byUser.get(userId) ?? []) if (this.live.has(subscriber)) subscriber.deliver(events);
  }
}
