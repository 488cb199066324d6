// Replay: the events of the log after a client's resume id that its user could have seen live, read at the
// client's pace, then the hand-over to live delivery with nothing skipped and nothing sent twice.
import { toLoggedEvent, type LoggedEvent } from './logged-event.ts';
import { READ_BATCH, type EventLog } from './hub-options.ts';
import type { LogTail } from './log-tail.ts';
import { Membership } from './membership.ts';
import type { PumpTurns } from './pump-turns.ts';
import type { PurgesInFlight } from './purges-in-flight.ts';
import type { Subscriber, SubscriberRegistry } from './subscriber-registry.ts';
import { isPurgedBy } from './purge-rule.ts';
import { chatsBefore, MEMBERSHIP_EVENT_TYPES } from './walk-back.ts';

/**
 * One replay: how far it has read the log, and its own view of the user's membership as it stood there, so it
 * delivers exactly what the user could have received live (docs/events.md, "Who receives what").
 */
export interface Replay {
  readonly userId: string;
  readonly membership: Membership;
  through: number;
  /**
   * The user's chats when the replay opened (undefined: not known). A notification replays only in these
   * (docs/protocol.md §14.4): one who left a chat is not called back to it.
   */
  readonly chatsNow?: ReadonlySet<string>;
}

/** How a resume id relates to the log: fine to replay, or the client must re-read (reset / 410). */
export type ResumePoint = { kind: 'ok'; after: number } | { kind: 'reset'; reason: string };

/** Events written to a replaying client at once. */
const REPLAY_SLICE = 100;

/** The hub's parts a replay reads: the same objects the hub dispatches into. */
export interface ReplaySources {
  log: EventLog;
  tail: LogTail;
  /** The membership the hub follows for users with a subscriber. */
  membership: Membership;
  purges: PurgesInFlight;
  subscribers: SubscriberRegistry;
  turns: PumpTurns;
}

/** A notification of a chat the user has left since is not replayed; every other event is as it was seen live. */
function isCallStill(replay: Replay, event: LoggedEvent): boolean {
  return event.type !== 'notification' || replay.chatsNow === undefined || replay.chatsNow.has(event.chatId);
}

export class Replays {
  private readonly hub: ReplaySources;

  constructor(hub: ReplaySources) {
    this.hub = hub;
  }

  /** Where a resume id stands: after the newest or below what was pruned, the client must start over. */
  async resumePoint(after: number): Promise<ResumePoint> {
    const cursor = this.hub.tail.cursor;
    if (after > cursor) return { kind: 'reset', reason: `Event ${after} is unknown: the newest is ${cursor}` };
    const pruned = await this.hub.log.prunedThrough();
    if (after < pruned) return { kind: 'reset', reason: `Events after ${after} are no longer kept: the log starts after ${pruned}` };
    return { kind: 'ok', after };
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
    const { tail } = this.hub;
    const membership = new Membership();
    const chatsNow = this.hub.membership.chatIdsOf(userId);
    // Not followed: no subscriber of the user is attached any more (the client left). Its own events only.
    const now = chatsNow === undefined ? {} : { chatsNow: new Set(chatsNow) };
    if (chatsNow === undefined || after >= tail.cursor) {
      membership.track(userId, chatsNow ?? []);
      return { userId, membership, through: after, ...now };
    }
    const floor = Math.max(after, tail.floor);
    let chats = chatsBefore(userId, chatsNow, tail.newestFirstOfTypes(floor, MEMBERSHIP_EVENT_TYPES));
    if (after < floor) {
      const older = await this.hub.log.readTypesBetween(after, floor, MEMBERSHIP_EVENT_TYPES);
      chats = chatsBefore(userId, chats, older.reverse().map(toLoggedEvent));
    }
    membership.track(userId, [...chats]);
    return { userId, membership, through: after, ...now };
  }

  /**
   * The next events of the replay the user may see, at most `limit`; moves `replay.through` to how far the log
   * was read. Every event read is applied to the replay's membership before it is judged, in id order, as live
   * delivery does; purged ones are applied but never sent.
   */
  async readVisible(replay: Replay, limit: number): Promise<LoggedEvent[]> {
    const events: LoggedEvent[] = [];
    // Held while later batches are read: a purge dispatched meanwhile marks these too.
    this.hub.purges.hold(events);
    try {
      await this.readInto(events, replay, limit);
      // Before they are handed out: what a delete committed meanwhile, in any process, purged is marked.
      await this.catchUp();
    } finally {
      this.hub.purges.release(events);
    }
    return events.filter((event) => !event.purged);
  }

  private async readInto(events: LoggedEvent[], replay: Replay, limit: number): Promise<void> {
    while (events.length < limit && replay.through < this.hub.tail.cursor) {
      const batch = await this.eventsAfter(replay.through);
      for (const event of batch) {
        replay.through = event.id;
        replay.membership.apply(event);
        if (!event.purged && replay.membership.canSee(replay.userId, event) && isCallStill(replay, event)) events.push(event);
        if (events.length === limit) break;
      }
      if (batch.length === 0) replay.through = this.hub.tail.cursor;
    }
  }

  /**
   * Sends every visible event of the replay (waiting while the client is behind), then makes the subscriber
   * live: from then on the hub pushes events to it. Going live follows the check that the replay reached the
   * cursor with no await between, and the cursor moves only as events are dispatched to the live subscribers,
   * so no event is skipped or sent twice; ready() tells the subscriber the newest id then.
   */
  async replayThenGoLive(subscriber: Subscriber, replay: Replay): Promise<void> {
    const { tail, purges, subscribers } = this.hub;
    while (replay.through < tail.cursor) {
      if (!subscribers.isAttached(subscriber)) return;
      // Held from the first read until written: a purge dispatched meanwhile (while the client drains, too)
      // marks these, and they are left out.
      const page: LoggedEvent[] = [];
      purges.hold(page);
      try {
        await this.readInto(page, replay, READ_BATCH);
        // Written a slice at a time (one write for many events), at the client's pace: a page can be megabytes.
        for (let start = 0; start < page.length; start += REPLAY_SLICE) {
          await this.catchUp();
          const slice = page.slice(start, start + REPLAY_SLICE).filter((event) => !event.purged);
          if (slice.length > 0) subscriber.deliver(slice);
          if (subscriber.isCongested()) await subscriber.whenDrained();
          if (!subscribers.isAttached(subscriber)) return;
        }
      } finally {
        purges.release(page);
      }
    }
    if (!subscribers.isAttached(subscriber)) return;
    subscriber.ready(tail.cursor);
    subscribers.goLive(subscriber);
  }

  /**
   * Reads the log up to its newest commit before a replay hands events out: a delete that answered before now, in
   * any process, has then been dispatched here and has marked what it purged (docs/events.md: deleted text never
   * leaves the server after the DELETE answered). One query that finds nothing when the hub is current.
   */
  async catchUp(): Promise<void> {
    await this.hub.turns.inTurn();
  }

  /** The events after `after`: from memory when held there, else from the store, marked by the purges meanwhile. */
  private async eventsAfter(after: number): Promise<LoggedEvent[]> {
    const { tail, purges } = this.hub;
    if (after >= tail.floor) return tail.after(after, READ_BATCH);
    for (;;) {
      const mark = purges.mark();
      const records = await this.hub.log.readAfter(after, READ_BATCH);
      const missed = purges.sinceMark(mark);
      // So many purges during one read that their rules are no longer kept: read again.
      if (missed === undefined) continue;
      // Past the cursor (as it stands once the read is back) come through the pump, never twice.
      const events = records.filter((record) => record.id <= tail.cursor).map(toLoggedEvent);
      // The store may have answered from before a purge the hub dispatched while it read.
      for (const purge of missed) for (const event of events) if (isPurgedBy(purge, event)) event.purged = true;
      return events;
    }
  }
}
