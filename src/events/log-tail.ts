// How far this process has read the log (the cursor), and the newest events it read, kept in memory so that a
// replay of the last few thousand needs no read of the store.
import type { EventPurge } from '../storage/rows.ts';
import type { LoggedEvent } from './logged-event.ts';
import { isPurgedBy } from './purge-rule.ts';

/** Events kept: between this and twice as many (trimmed in one splice now and then, not one shift per event). */
const RECENT_EVENTS = 4096;

export class LogTail {
  /** The newest event id read: every event up to it was dispatched once, in id order. */
  private newest: number;
  /** The newest events in id order; every event after `floor` is here. */
  private recent: LoggedEvent[] = [];
  private recentFloor: number;

  constructor(startAfter: number) {
    this.newest = startAfter;
    this.recentFloor = startAfter;
  }

  get cursor(): number {
    return this.newest;
  }

  /** Held in memory are exactly the events after this id (up to the cursor). */
  get floor(): number {
    return this.recentFloor;
  }

  /** The pump read this event (the next in id order): it is the cursor now. */
  append(event: LoggedEvent): void {
    this.newest = event.id;
    this.recent.push(event);
    if (this.recent.length > 2 * RECENT_EVENTS) {
      const dropped = this.recent.splice(0, this.recent.length - RECENT_EVENTS);
      this.recentFloor = dropped[dropped.length - 1]!.id;
    }
  }

  /** The store removed them in the deleting transaction; these are the copies this process holds. */
  markPurged(purge: EventPurge): void {
    for (const held of this.recent) if (isPurgedBy(purge, held)) held.purged = true;
  }

  /** Held events after `after` (at least the floor), at most `limit`, in id order. */
  after(after: number, limit: number): LoggedEvent[] {
    const start = firstIndexAfter(this.recent, after);
    return this.recent.slice(start, start + limit);
  }

  /** Held events of these types after `after`, newest first (a replay's walk back over membership). */
  newestFirstOfTypes(after: number, types: readonly string[]): LoggedEvent[] {
    const newestFirst: LoggedEvent[] = [];
    for (let index = this.recent.length - 1; index >= 0 && this.recent[index]!.id > after; index--) {
      const event = this.recent[index]!;
      if (types.includes(event.type)) newestFirst.push(event);
    }
    return newestFirst;
  }
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
