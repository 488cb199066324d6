// Deletes that land while a replay is under way: a purging event the hub dispatches marks the copies a replay
// holds and has not written yet, and its rule is kept a while for reads of the store that were under way.
import type { EventPurge } from '../storage/rows.ts';
import type { LoggedEvent } from './logged-event.ts';
import { isPurgedBy } from './purge-rule.ts';

/** Purge rules kept for reads of the store that were under way when they were dispatched. */
const PURGES_KEPT = 256;

export class PurgesInFlight {
  /** Pages of events a replay read and has not delivered yet: a purge dispatched meanwhile marks theirs too. */
  private readonly pages = new Set<readonly LoggedEvent[]>();
  /** How many purging events were dispatched, and the rules of the last few: for a read of the store under way. */
  private dispatchedCount = 0;
  private readonly lastPurges: EventPurge[] = [];

  /** From now until release(page), every purge dispatched marks the page's events (release it in a finally). */
  hold(page: readonly LoggedEvent[]): void {
    this.pages.add(page);
  }

  release(page: readonly LoggedEvent[]): void {
    this.pages.delete(page);
  }

  /** The hub dispatched a purging event: marks the pages held, and keeps the rule for reads under way. */
  dispatched(purge: EventPurge): void {
    for (const page of this.pages) for (const held of page) if (isPurgedBy(purge, held)) held.purged = true;
    this.dispatchedCount++;
    this.lastPurges.push(purge);
    if (this.lastPurges.length > PURGES_KEPT) this.lastPurges.shift();
  }

  /** A mark to take before a read of the store: sinceMark() then tells what was dispatched during it. */
  mark(): number {
    return this.dispatchedCount;
  }

  /** The rules dispatched since `mark`, oldest first; undefined when so many that they are no longer kept. */
  sinceMark(mark: number): readonly EventPurge[] | undefined {
    const missed = this.dispatchedCount - mark;
    if (missed > this.lastPurges.length) return undefined;
    return this.lastPurges.slice(this.lastPurges.length - missed);
  }
}
