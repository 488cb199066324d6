// The event hub: tails the durable log by id and hands each event to the open streams allowed to see it.
// It knows nothing of HTTP or SQL: the log is an interface, a subscriber is anything that takes events.
// Its parts, one file each: subscriber-registry.ts (who listens), pump-turns.ts (one reader of the log at a time),
// log-tail.ts (the cursor, the newest events), purges-in-flight.ts, replay.ts, retention.ts, hub-timers.ts.
import { formatEphemeralFrame, type EphemeralEvent } from './ephemeral-event.ts';
import { EndedSessions, sessionIdsEndedBy } from './ended-sessions.ts';
import { READ_BATCH, type EventLog, type HubOptions } from './hub-options.ts';
import { HubTimers } from './hub-timers.ts';
import { toLoggedEvent, type LoggedEvent } from './logged-event.ts';
import { LogTail } from './log-tail.ts';
import { Membership } from './membership.ts';
import { PumpTurns } from './pump-turns.ts';
import { purgeRuleOf } from './purge-rule.ts';
import { PurgesInFlight } from './purges-in-flight.ts';
import { Replays, type Replay, type ResumePoint } from './replay.ts';
import { Retention } from './retention.ts';
import { SubscriberRegistry, type Subscriber } from './subscriber-registry.ts';
import { lazyChunkBytes } from './sse-frame.ts';

export type { EventLog, HubOptions } from './hub-options.ts';
export type { Replay, ResumePoint } from './replay.ts';
export type { Subscriber } from './subscriber-registry.ts';

/** Sessions asked about in one read, and streams pinged in one turn of the event loop, at a tick. */
const TICK_SLICE = 250;

/** The rest of this turn of the event loop goes to whatever else is waiting. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

export class EventHub {
  /** Each attached session's expiry as the store last told it (tick): until then it is not read again. */
  private readonly liveUntil = new Map<string, number>();
  private readonly tail: LogTail;
  /** Who is a member of what, followed for the users with a subscriber: who a dispatched event goes to. */
  private readonly membership = new Membership();
  private readonly subscribers = new SubscriberRegistry();
  private readonly purges = new PurgesInFlight();
  private readonly endedSessions = new EndedSessions();
  /** stop() was called: the server is shutting down. */
  private stopped = false;
  private readonly timers: HubTimers;
  private readonly turns: PumpTurns;
  private readonly replays: Replays;
  private readonly retention: Retention;

  private readonly options: HubOptions;

  constructor(options: HubOptions) {
    this.options = options;
    this.tail = new LogTail(options.startAfter);
    this.timers = new HubTimers(options.logError);
    this.turns = new PumpTurns(() => this.pump(options.log), (work) => this.timers.guard(work));
    this.replays = new Replays({
      log: options.log, tail: this.tail, membership: this.membership, purges: this.purges, subscribers: this.subscribers, turns: this.turns,
    });
    this.retention = new Retention(options, this.timers);
    // Twice in each interval: a stream that carried nothing since the tick before gets its ping (http/sse.ts).
    this.timers.every((options.pingMs ?? 15_000) / 2, () => this.tick());
    this.timers.every(options.pollMs ?? 1000, () => this.wake());
    this.timers.every(options.pruneMs ?? 60_000, () => this.prune());
  }

  /** The newest event id the hub has read. */
  get newestId(): number {
    return this.tail.cursor;
  }

  /** Open streams (long-polls not counted): of one user, or of the whole process. */
  streamCount(userId?: string): number {
    return this.subscribers.streamCount(userId);
  }

  /** Whether this process holds an open stream of the user's session (Web Push skips attended sessions). */
  hasStreamOfSession(userId: string, sessionId: string): boolean {
    return this.subscribers.hasStreamOfSession(userId, sessionId);
  }

  /**
   * A commit appended events (events/event-wake-up.ts, or the poll timer): read them soon, coalesced
   * (pump-turns.ts). Only a hint: nothing is lost when one is missed, the next read finds the events.
   */
  wake(): void {
    this.turns.wake();
  }

  /**
   * Reads every event after the cursor, in id order, and hands each to the live subscribers that may see it.
   * An event at or below the cursor was dispatched meanwhile (by attach's own read): skipped, never sent twice.
   */
  private async pump(log: EventLog): Promise<void> {
    for (;;) {
      const batch = await log.readAfter(this.tail.cursor, READ_BATCH);
      for (const record of batch) if (record.id > this.tail.cursor) this.dispatch(toLoggedEvent(record));
      if (batch.length < READ_BATCH) break;
    }
  }

  private dispatch(event: LoggedEvent): void {
    const purge = purgeRuleOf(event);
    if (purge !== undefined) {
      this.tail.markPurged(purge);
      this.purges.dispatched(purge);
    }
    this.membership.apply(event);
    this.tail.append(event);
    const one = [event];
    for (const userId of this.membership.audience(event)) this.subscribers.deliverLive(userId, one);
    // After delivery, so the ended session's own live streams get the event as their last (ended-sessions.ts).
    const ended = sessionIdsEndedBy(event);
    if (ended.length > 0) this.endSessions(ended);
  }

  /** Where a resume id stands: after the newest or below what was pruned, the client must start over. */
  resumePoint(after: number): Promise<ResumePoint> {
    return this.replays.resumePoint(after);
  }

  /**
   * Registers a subscriber (at once, so it counts against the stream limits and detach() works from now on)
   * and catches the hub up, in one read snapshot, so the user's membership and the newest id agree. Answers
   * the newest id at that moment.
   */
  async attach(subscriber: Subscriber): Promise<number> {
    this.subscribers.add(subscriber);
    this.tellStreams(subscriber, 1);
    // Its session ended after the request was authenticated, and the hub has read that already: no stream.
    if (this.endedSessions.has(subscriber.sessionId)) {
      this.end(subscriber, 'session ended');
      return this.tail.cursor;
    }
    // The server began to stop while this stream was being opened: it would outlive stop(), holding the close.
    if (this.stopped) {
      this.end(subscriber, 'shutdown');
      return this.tail.cursor;
    }
    try {
      // A user already followed has their chats kept current by dispatch: catching up is all it takes.
      if (this.membership.isTracked(subscriber.userId)) await this.turns.inTurn();
      else await this.turns.whileNoPump(() => this.options.snapshot(async (log) => {
        await this.pump(log);
        // Detached meanwhile (the client left): its user may have no subscriber left to follow.
        if (this.subscribers.isAttached(subscriber) && !this.membership.isTracked(subscriber.userId)) {
          const chatIds = await log.chatIdsOfUser(subscriber.userId);
          if (this.subscribers.isAttached(subscriber)) this.membership.track(subscriber.userId, chatIds);
        }
      }));
    } catch (error) {
      this.detach(subscriber);
      throw error;
    }
    return this.tail.cursor;
  }

  detach(subscriber: Subscriber): void {
    const removed = this.subscribers.remove(subscriber);
    if (removed === 'last') this.membership.untrack(subscriber.userId);
    if (removed !== 'absent') this.tellStreams(subscriber, 0);
  }

  /** Presence hears of a user's first stream opening and last one closing on this process. */
  private tellStreams(subscriber: Subscriber, when: 0 | 1): void {
    if (subscriber.kind !== 'stream' || this.options.streamsChanged === undefined) return;
    if (this.subscribers.streamCount(subscriber.userId) === when) this.options.streamsChanged(subscriber.userId, when);
  }

  /** Users with an open stream on this process (presence announces them). */
  streamHolders(): string[] {
    return this.subscribers.streamHolders();
  }

  /**
   * An ephemeral event (docs/protocol.md §14.5), from the bus: to the live streams of the members, now, of its chats,
   * never to the user it excepts. Nothing is kept: a stream that is still replaying, or opens later, never sees it.
   * Answers how many streams took it.
   */
  deliverEphemeral(event: EphemeralEvent): number {
    const audience = this.membership.membersOfChats(event.audienceChatIds);
    audience.delete(event.exceptUserId);
    if (audience.size === 0) return 0;
    const frameText = formatEphemeralFrame(event);
    const frame = { frameText, chunkBytes: lazyChunkBytes(frameText) };
    let count = 0;
    for (const userId of audience) count += this.subscribers.deliverEphemeralLive(userId, frame);
    return count;
  }

  /** A replay of the user's events after `after` (replay.ts). */
  openReplay(userId: string, after: number): Promise<Replay> {
    return this.replays.openReplay(userId, after);
  }

  /** The next events of the replay the user may see, at most `limit` (a long-poll's answer). */
  readVisible(replay: Replay, limit: number): Promise<LoggedEvent[]> {
    return this.replays.readVisible(replay, limit);
  }

  /** Sends the replay at the client's pace, then makes the subscriber live: nothing skipped, nothing twice. */
  replayThenGoLive(subscriber: Subscriber, replay: Replay): Promise<void> {
    return this.replays.replayThenGoLive(subscriber, replay);
  }

  /** Reads the log up to its newest commit (replay.ts: before a replay hands events out). */
  catchUp(): Promise<void> {
    return this.replays.catchUp();
  }

  /**
   * Pings every stream, and ends the streams whose session has ended without a `session.ended` (expiry). Only the
   * sessions whose expiry, as the store last told it, has come are read again: an expiry only moves later (a use
   * of the session extends it), and whatever ends a session before it says so with a `session.ended`. Reading every
   * attached session at every tick held the event loop 5-60 ms a slice at 10,000 streams, every 15 s, and the
   * requests arriving then waited for it. In slices of TICK_SLICE, the loop free between them.
   */
  private async tick(): Promise<void> {
    const streams = this.subscribers.all();
    const attached = new Set(streams.map((subscriber) => subscriber.sessionId));
    for (const id of this.liveUntil.keys()) if (!attached.has(id)) this.liveUntil.delete(id);
    const now = this.options.now();
    const due = [...attached].filter((id) => (this.liveUntil.get(id) ?? 0) <= now);
    const ended = new Set<string>();
    for (let start = 0; start < due.length; start += TICK_SLICE) {
      if (start > 0) await nextTurn();
      const slice = due.slice(start, start + TICK_SLICE);
      const live = await this.options.liveSessions(slice);
      for (const id of slice) {
        const until = live.get(id);
        if (until === undefined) {
          ended.add(id);
          this.liveUntil.delete(id);
        } else {
          this.liveUntil.set(id, until);
        }
      }
    }
    for (let start = 0; start < streams.length; start += TICK_SLICE) {
      if (start > 0 || due.length > 0) await nextTurn();
      for (const subscriber of streams.slice(start, start + TICK_SLICE)) {
        // Detached while the sessions were read: nothing to ping or end.
        if (!this.subscribers.isAttached(subscriber)) continue;
        if (ended.has(subscriber.sessionId)) this.end(subscriber, 'session ended');
        else if (subscriber.kind === 'stream') subscriber.ping();
      }
    }
  }

  /**
   * Ends every subscriber of these sessions now: when the hub reads a `session.ended` (every process does), or at a
   * logout in this process. The tick is the backstop for sessions that end without an event (expiry).
   */
  endSessions(sessionIds: readonly string[]): void {
    this.endedSessions.remember(sessionIds);
    const ended = new Set(sessionIds);
    for (const subscriber of this.subscribers.all()) if (ended.has(subscriber.sessionId)) this.end(subscriber, 'session ended');
  }

  endSession(sessionId: string): void {
    this.endSessions([sessionId]);
  }

  private end(subscriber: Subscriber, reason: string): void {
    this.detach(subscriber);
    subscriber.end(reason);
  }

  /** Prunes events older than the retention (retention.ts). */
  prune(): Promise<void> {
    return this.retention.prune();
  }

  /** Shutdown: timers stop and every subscriber ends, and any that attaches later ends at once. */
  stop(): void {
    this.stopped = true;
    this.timers.stop();
    for (const subscriber of this.subscribers.all()) this.end(subscriber, 'shutdown');
  }
}
