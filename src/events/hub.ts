// The event hub: tails the durable log by id and hands each event to the open streams allowed to see it.
// It knows nothing of HTTP or SQL: the log is an interface, a subscriber is anything that takes events.
import type { EventPurge, EventRecord } from '../storage/rows.ts';
import { StoreUnavailableError, StoreWriteRefusedError } from '../storage/store.ts';
import { toLoggedEvent, type LoggedEvent } from './logged-event.ts';
import { Membership } from './membership.ts';
import { isPurgedBy, purgeRuleOf } from './purge-rule.ts';
import { chatsBefore, MEMBERSHIP_EVENT_TYPES } from './walk-back.ts';

/** What the hub reads: the store's event repository implements it. */
export interface EventLog {
  readAfter(afterId: number, limit: number): Promise<EventRecord[]>;
  readTypesBetween(afterId: number, throughId: number, types: readonly string[]): Promise<EventRecord[]>;
  prunedThrough(): Promise<number>;
  chatIdsOfUser(userId: string): Promise<string[]>;
  pruneChunk(cutoff: number, chunk: number): Promise<number>;
}

/** An open stream or a waiting long-poll. */
export interface Subscriber {
  readonly userId: string;
  readonly sessionId: string;
  /** Streams count against the per-user and server-wide limits and get pings; long-polls do not. */
  readonly kind: 'stream' | 'poll';
  /** Events in id order: one when live, a slice of the log while replaying. */
  deliver(events: readonly LoggedEvent[]): void;
  /** Replay is over and events will now be pushed: `newestId` is the newest event id at this moment. */
  ready(newestId: number): void;
  /** True while the client is behind: replay waits for whenDrained() before reading more of the log. */
  isCongested(): boolean;
  whenDrained(): Promise<void>;
  ping(): void;
  /** The hub is done with it (shutdown, ended session): end the answer. */
  end(reason: string): void;
}

export interface HubOptions {
  log: EventLog;
  /** Runs work on one consistent snapshot of the log (the store's snapshot): membership and ids then agree. */
  snapshot<T>(work: (log: EventLog) => Promise<T>): Promise<T>;
  /** The newest event id when the hub starts: events up to it are history, read only by replay. */
  startAfter: number;
  now: () => number;
  /** Seconds an event stays in the log. */
  retentionSeconds: number;
  /** Comment lines and session checks at least this often (CONTRACT §9: at most 15 s). */
  pingMs?: number;
  /** How often the log is read without a wake-up (writes of other processes). */
  pollMs?: number;
  /** How often old events are pruned. */
  pruneMs?: number;
  /** Where an unexpected failure of the hub's own timed work goes (the server's error log); stderr by default. */
  logError?: (error: unknown) => void;
  /** Which of these session ids still hold (exist, not expired): streams of the others are closed. */
  liveSessions(sessionIds: readonly string[]): Promise<Set<string>>;
}

/**
 * One replay: how far it has read the log, and its own view of the user's membership as it stood there, so it
 * delivers exactly what the user could have received live (docs/events.md, "Who receives what").
 */
export interface Replay {
  readonly userId: string;
  readonly membership: Membership;
  through: number;
}

/** How a resume id relates to the log: fine to replay, or the client must re-read (reset / 410). */
export type ResumePoint = { kind: 'ok'; after: number } | { kind: 'reset'; reason: string };

const READ_BATCH = 500;
/** Events written to a replaying client at once. */
const REPLAY_SLICE = 100;
const RECENT_EVENTS = 4096;
const PRUNE_CHUNK = 2000;
/** Purge rules kept for reads of the store that were under way when they were dispatched. */
const PURGES_KEPT = 256;

export class EventHub {
  private cursor: number;
  /** The newest events in id order; every event after recentFloor is here. */
  private recent: LoggedEvent[] = [];
  private recentFloor: number;
  /** Every subscriber, by user; the live ones (replay done) get events pushed. */
  private readonly byUser = new Map<string, Set<Subscriber>>();
  private readonly live = new Set<Subscriber>();
  private streamsOpen = 0;
  private readonly membership: Membership;
  /** Pages of events a replay read and has not delivered yet: a purge dispatched meanwhile marks theirs too. */
  private readonly inFlight = new Set<readonly LoggedEvent[]>();
  /** How many purging events were dispatched, and the rules of the last few: for a read of the store under way. */
  private purgeCount = 0;
  private readonly lastPurges: EventPurge[] = [];
  private pumpScheduled = false;
  /** The pump that is reading the log now, if any: one at a time, so events are dispatched once, in id order. */
  private pumping: Promise<void> | undefined;
  private pumpAgain = false;
  /** An attach catching up on its snapshot, if any: no pump runs meanwhile (see whileNoPump). */
  private attaching: Promise<void> | undefined;
  private readonly timers: NodeJS.Timeout[] = [];
  private pruning = false;
  private stopped = false;

  constructor(private readonly options: HubOptions) {
    this.cursor = options.startAfter;
    this.recentFloor = this.cursor;
    this.membership = new Membership();
    const every = (ms: number, fn: () => Promise<void> | void): void => {
      const timer = setInterval(() => void this.guard(fn()), ms);
      timer.unref();
      this.timers.push(timer);
    };
    every(options.pingMs ?? 15_000, () => this.tick());
    every(options.pollMs ?? 1000, () => this.wake());
    every(options.pruneMs ?? 60_000, () => this.prune());
  }

  /**
   * Work the hub starts on its own (a timer, a wake-up) has no caller to tell of a failure, and no failure of it
   * may end the process (docs/operations.md): it is tried again at the next timer. Once stopped, a read cut short
   * by the closing store is expected; before, anything but a database that cannot be reached for a moment
   * (PostgreSQL restarting, SQLite busy) or that refuses the prune's writes (a full disk: the store noted it,
   * /health says it) is a bug, and goes to the log with its stack.
   */
  private async guard(work: Promise<void> | void): Promise<void> {
    try {
      await work;
    } catch (error) {
      if (this.stopped || error instanceof StoreUnavailableError || error instanceof StoreWriteRefusedError) return;
      (this.options.logError ?? logToStderr)(error);
    }
  }

  /** The newest event id the hub has read. */
  get newestId(): number {
    return this.cursor;
  }

  /** Open streams (long-polls not counted): of one user, or of the whole process. */
  streamCount(userId?: string): number {
    if (userId === undefined) return this.streamsOpen;
    let count = 0;
    for (const subscriber of this.byUser.get(userId) ?? []) if (subscriber.kind === 'stream') count++;
    return count;
  }

  private subscribers(): Subscriber[] {
    return [...this.byUser.values()].flatMap((set) => [...set]);
  }

  private isAttached(subscriber: Subscriber): boolean {
    return this.byUser.get(subscriber.userId)?.has(subscriber) === true;
  }

  /**
   * A commit appended events: read them soon (coalesced). The store's reads never see another request's
   * uncommitted writes (a read waits for an open transaction to end), so the pump reads only committed events.
   */
  wake(): void {
    if (this.pumpScheduled) return;
    this.pumpScheduled = true;
    queueMicrotask(() => {
      this.pumpScheduled = false;
      void this.guard(this.pumpInTurn());
    });
  }

  /** Runs the pump, or asks the running one to go round once more: never two reading the log at once. */
  private pumpInTurn(): Promise<void> {
    // An attach is catching up on its snapshot: pump once it is done, so the pump reads what came after it.
    if (this.attaching) return this.attaching.then(() => this.pumpInTurn(), () => this.pumpInTurn());
    if (this.pumping) {
      this.pumpAgain = true;
      return this.pumping;
    }
    this.pumping = (async () => {
      try {
        do {
          this.pumpAgain = false;
          await this.pump(this.options.log);
        } while (this.pumpAgain);
      } finally {
        this.pumping = undefined;
      }
    })();
    return this.pumping;
  }

  /**
   * Reads every event after the cursor, in id order, and hands each to the live subscribers that may see it.
   * An event at or below the cursor was dispatched meanwhile (by attach's own read): skipped, never sent twice.
   */
  private async pump(log: EventLog): Promise<void> {
    for (;;) {
      const batch = await log.readAfter(this.cursor, READ_BATCH);
      for (const record of batch) if (record.id > this.cursor) this.dispatch(toLoggedEvent(record));
      if (batch.length < READ_BATCH) break;
    }
  }

  private dispatch(event: LoggedEvent): void {
    const purge = purgeRuleOf(event);
    if (purge !== undefined) {
      // The store removed them in the deleting transaction; these are the copies this process holds.
      for (const held of this.recent) if (isPurgedBy(purge, held)) held.purged = true;
      for (const page of this.inFlight) for (const held of page) if (isPurgedBy(purge, held)) held.purged = true;
      this.purgeCount++;
      this.lastPurges.push(purge);
      if (this.lastPurges.length > PURGES_KEPT) this.lastPurges.shift();
    }
    this.membership.apply(event);
    this.cursor = event.id;
    this.recent.push(event);
    if (this.recent.length > 2 * RECENT_EVENTS) {
      const dropped = this.recent.splice(0, this.recent.length - RECENT_EVENTS);
      this.recentFloor = dropped[dropped.length - 1]!.id;
    }
    const one = [event];
    for (const userId of this.membership.audience(event)) {
      for (const subscriber of this.byUser.get(userId) ?? []) if (this.live.has(subscriber)) subscriber.deliver(one);
    }
  }

  /** Where a resume id stands: after the newest or below what was pruned, the client must start over. */
  async resumePoint(after: number): Promise<ResumePoint> {
    if (after > this.cursor) return { kind: 'reset', reason: `Event ${after} is unknown: the newest is ${this.cursor}` };
    const pruned = await this.options.log.prunedThrough();
    if (after < pruned) return { kind: 'reset', reason: `Events after ${after} are no longer kept: the log starts after ${pruned}` };
    return { kind: 'ok', after };
  }

  /**
   * Registers a subscriber (at once, so it counts against the stream limits and detach() works from now on)
   * and catches the hub up, in one read snapshot, so the user's membership and the newest id agree. Answers
   * the newest id at that moment.
   */
  async attach(subscriber: Subscriber): Promise<number> {
    let mine = this.byUser.get(subscriber.userId);
    if (!mine) this.byUser.set(subscriber.userId, mine = new Set());
    mine.add(subscriber);
    if (subscriber.kind === 'stream') this.streamsOpen++;
    try {
      // A user already followed has their chats kept current by dispatch: catching up is all it takes.
      if (this.membership.isTracked(subscriber.userId)) await this.pumpInTurn();
      else await this.whileNoPump(() => this.options.snapshot(async (log) => {
        await this.pump(log);
        // Detached meanwhile (the client left): its user may have no subscriber left to follow.
        if (this.isAttached(subscriber) && !this.membership.isTracked(subscriber.userId)) {
          const chatIds = await log.chatIdsOfUser(subscriber.userId);
          if (this.isAttached(subscriber)) this.membership.track(subscriber.userId, chatIds);
        }
      }));
    } catch (error) {
      this.detach(subscriber);
      throw error;
    }
    return this.cursor;
  }

  /**
   * Runs an attach's catch-up while no other pump dispatches: the cursor then stands where the snapshot's log
   * ends when the user's chats are read from that same snapshot. A pump reading newer commits in between would
   * dispatch a membership event of a user not followed yet, and that user's chats would stay one step behind
   * (every later event of a chat they were added to, lost). Attaches take turns too.
   */
  private async whileNoPump(work: () => Promise<void>): Promise<void> {
    while (this.attaching || this.pumping) await (this.attaching ?? this.pumping)!.catch(() => undefined);
    const turn = work();
    this.attaching = turn;
    try {
      await turn;
    } finally {
      this.attaching = undefined;
    }
  }

  detach(subscriber: Subscriber): void {
    const mine = this.byUser.get(subscriber.userId);
    if (!mine?.delete(subscriber)) return;
    if (subscriber.kind === 'stream') this.streamsOpen--;
    this.live.delete(subscriber);
    if (mine.size === 0) {
      this.byUser.delete(subscriber.userId);
      this.membership.untrack(subscriber.userId);
    }
  }

  /**
   * A replay of the user's events after `after` (a resume point, so after <= the cursor): the user's chats at the
   * cursor (the hub follows them while the user has a subscriber) walked back over the membership events in
   * (after, cursor] give their chats at `after`. The chats, the cursor and the events held in memory are taken in
   * one synchronous step; only the older part of the walk reads the store. An event the log lost since (purged
   * with its chat, pruned) takes with it every event of its chat before it (prune: every event before it), so a
   * walk that misses it is wrong only where the replay finds nothing to send.
   */
  async openReplay(userId: string, after: number): Promise<Replay> {
    const membership = new Membership();
    const chatsNow = this.membership.chatIdsOf(userId);
    // Not followed: no subscriber of the user is attached any more (the client left). Its own events only.
    if (chatsNow === undefined || after >= this.cursor) {
      membership.track(userId, chatsNow ?? []);
      return { userId, membership, through: after };
    }
    const floor = Math.max(after, this.recentFloor);
    const newestFirst: LoggedEvent[] = [];
    for (let index = this.recent.length - 1; index >= 0 && this.recent[index]!.id > floor; index--) {
      const event = this.recent[index]!;
      if (MEMBERSHIP_EVENT_TYPES.includes(event.type)) newestFirst.push(event);
    }
    let chats = chatsBefore(userId, chatsNow, newestFirst);
    if (after < floor) {
      const older = await this.options.log.readTypesBetween(after, floor, MEMBERSHIP_EVENT_TYPES);
      chats = chatsBefore(userId, chats, older.reverse().map(toLoggedEvent));
    }
    membership.track(userId, [...chats]);
    return { userId, membership, through: after };
  }

  /**
   * The next events of the replay the user may see, at most `limit`; moves `replay.through` to how far the log
   * was read. Every event read is applied to the replay's membership before it is judged, in id order, as live
   * delivery does; purged ones are applied but never sent.
   */
  async readVisible(replay: Replay, limit: number): Promise<LoggedEvent[]> {
    const events: LoggedEvent[] = [];
    // Held while later batches are read: a purge dispatched meanwhile marks these too.
    this.inFlight.add(events);
    try {
      await this.readInto(events, replay, limit);
      // Before they are handed out: what a delete committed meanwhile, in any process, purged is marked.
      await this.catchUp();
    } finally {
      this.inFlight.delete(events);
    }
    return events.filter((event) => !event.purged);
  }

  private async readInto(events: LoggedEvent[], replay: Replay, limit: number): Promise<void> {
    while (events.length < limit && replay.through < this.cursor) {
      const batch = await this.eventsAfter(replay.through);
      for (const event of batch) {
        replay.through = event.id;
        replay.membership.apply(event);
        if (!event.purged && replay.membership.canSee(replay.userId, event)) events.push(event);
        if (events.length === limit) break;
      }
      if (batch.length === 0) replay.through = this.cursor;
    }
  }

  /**
   * Sends every visible event of the replay (waiting while the client is behind), then makes the subscriber
   * live: from then on the hub pushes events to it. Going live follows the check that the replay reached the
   * cursor with no await between, and the cursor moves only as events are dispatched to the live subscribers,
   * so no event is skipped or sent twice; ready() tells the subscriber the newest id then.
   */
  async replayThenGoLive(subscriber: Subscriber, replay: Replay): Promise<void> {
    while (replay.through < this.cursor) {
      if (!this.isAttached(subscriber)) return;
      // Held from the first read until written: a purge dispatched meanwhile (while the client drains, too)
      // marks these, and they are left out.
      const page: LoggedEvent[] = [];
      this.inFlight.add(page);
      try {
        await this.readInto(page, replay, READ_BATCH);
        // Written a slice at a time (one write for many events), at the client's pace: a page can be megabytes.
        for (let start = 0; start < page.length; start += REPLAY_SLICE) {
          await this.catchUp();
          const slice = page.slice(start, start + REPLAY_SLICE).filter((event) => !event.purged);
          if (slice.length > 0) subscriber.deliver(slice);
          if (subscriber.isCongested()) await subscriber.whenDrained();
          if (!this.isAttached(subscriber)) return;
        }
      } finally {
        this.inFlight.delete(page);
      }
    }
    if (!this.isAttached(subscriber)) return;
    subscriber.ready(this.cursor);
    this.live.add(subscriber);
  }

  /**
   * Reads the log up to its newest commit before a replay hands events out: a delete that answered before now, in
   * any process, has then been dispatched here and has marked what it purged (docs/events.md: deleted text never
   * leaves the server after the DELETE answered). One query that finds nothing when the hub is current.
   */
  async catchUp(): Promise<void> {
    await this.pumpInTurn();
  }

  private async eventsAfter(after: number): Promise<LoggedEvent[]> {
    if (after >= this.recentFloor) {
      const start = firstIndexAfter(this.recent, after);
      return this.recent.slice(start, start + READ_BATCH);
    }
    for (;;) {
      const purgesBefore = this.purgeCount;
      const records = await this.options.log.readAfter(after, READ_BATCH);
      const missed = this.purgeCount - purgesBefore;
      // So many purges during one read that their rules are no longer kept: read again.
      if (missed > this.lastPurges.length) continue;
      // Past the cursor (as it stands once the read is back) come through pump(), never twice.
      const events = records.filter((record) => record.id <= this.cursor).map(toLoggedEvent);
      // The store may have answered from before a purge the hub dispatched while it read.
      for (const purge of this.lastPurges.slice(this.lastPurges.length - missed)) {
        for (const event of events) if (isPurgedBy(purge, event)) event.purged = true;
      }
      return events;
    }
  }

  /** Pings every stream, and ends the streams whose session has ended (logout, expiry, password change). */
  private async tick(): Promise<void> {
    const streams = this.subscribers();
    if (streams.length === 0) return;
    const live = await this.options.liveSessions([...new Set(streams.map((subscriber) => subscriber.sessionId))]);
    for (const subscriber of streams) {
      // Detached while the sessions were read: nothing to ping or end.
      if (!this.isAttached(subscriber)) continue;
      if (!live.has(subscriber.sessionId)) this.end(subscriber, 'session ended');
      else if (subscriber.kind === 'stream') subscriber.ping();
    }
  }

  /** Ends every subscriber of one session now (logout in this process); other processes notice at their tick. */
  endSession(sessionId: string): void {
    for (const subscriber of this.subscribers()) if (subscriber.sessionId === sessionId) this.end(subscriber, 'session ended');
  }

  private end(subscriber: Subscriber, reason: string): void {
    this.detach(subscriber);
    subscriber.end(reason);
  }

  /** Prunes events older than the retention, a chunk per turn of the loop so requests go on meanwhile. */
  async prune(): Promise<void> {
    if (this.pruning) return;
    this.pruning = true;
    const cutoff = this.options.now() - this.options.retentionSeconds * 1000;
    try {
      // Each chunk is its own transaction; the turn of the loop between chunks lets requests go on.
      while (!this.stopped && await this.options.log.pruneChunk(cutoff, PRUNE_CHUNK) === PRUNE_CHUNK) {
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    } finally {
      this.pruning = false;
    }
  }

  /** Shutdown: timers stop and every subscriber ends. */
  stop(): void {
    this.stopped = true;
    for (const timer of this.timers) clearInterval(timer);
    for (const subscriber of this.subscribers()) this.end(subscriber, 'shutdown');
  }
}

function logToStderr(error: unknown): void {
  process.stderr.write(`event hub: ${(error as Error)?.stack ?? String(error)}\n`);
}

/** Binary search: the index of the first event with an id above `after`. */
function firstIndexAfter(events: readonly LoggedEvent[], after: number): number {
  let low = 0;
  let high = events.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (events[middle]!.id <= after) low = middle + 1;
    else high = middle;
  }
  return low;
}
