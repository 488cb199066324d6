// What a commit that appended events sets off (docs/events.md, "How a commit wakes the streams"): the store calls
// this, its CommitListener, and it counts the events, wakes this process's hub and tells the other workers.
import type { Counter } from '../metrics/registry.ts';
import type { CommitListener } from '../storage/commit-listener.ts';
import type { EventHub } from './hub.ts';

export class EventWakeUp implements CommitListener {
  /** Set once the hub exists: it reads the store's log, so the store is opened (with this listener) first. */
  private hub: EventHub | undefined;

  /** Others woken by every commit that wrote events, and every NOTIFY (the outbound delivery loop). */
  private readonly alsoWaking: (() => void)[] = [];

  private readonly eventsWritten: Counter;
  private readonly relay: ((onDiskThrough: number | undefined) => void) | undefined;

  /**
   * `eventsWritten` counts what this process appended; `relay` (--workers: src/workers.ts, through the primary)
   * tells the other processes on the same database, whose hubs would otherwise wait for their poll, and how far
   * the log is on disk (CommitListener.eventsCommitted).
   */
  constructor(eventsWritten: Counter, relay: ((onDiskThrough: number | undefined) => void) | undefined) {
    this.eventsWritten = eventsWritten;
    this.relay = relay;
  }

  /**
   * From now on commits wake this hub. Until then nothing is lost: no request has run yet, and the hub starts
   * after the newest event the store had when it was made, so it reads whatever commits later.
   */
  startWaking(hub: EventHub): void {
    this.hub = hub;
  }

  /** `wake` is called after the hub, for the same commits (work queued with events: src/outbound/delivery-loop.ts). */
  alsoWake(wake: () => void): void {
    this.alsoWaking.push(wake);
  }

  eventsCommitted(count: number, queued = true, onDiskThrough?: number): void {
    if (count > 0) {
      this.eventsWritten.inc(count);
      this.hub?.wake();
      this.relay?.(onDiskThrough);
    }
    // A lease is a write transaction: waking the delivery loop for every commit of a busy server cost 4 % of its time.
    if (queued) for (const wake of this.alsoWaking) wake();
  }

  /** A NOTIFY (storage/commit-listener.ts): whoever committed counted and relayed it; only this hub is to read. */
  othersCommitted(): void {
    this.hub?.wake();
    for (const wake of this.alsoWaking) wake();
  }
}
