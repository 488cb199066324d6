// What a store tells, as it commits, about the event log: a wake-up, never the data (docs/events.md, "How a
// commit wakes the streams"). Given to the store when it is opened; events/event-wake-up.ts is its one implementation.

export interface CommitListener {
  /** This process committed a transaction that appended `count` events (always more than 0). */
  eventsCommitted(count: number): void;
  /**
   * Another process appended events, or may have (a PostgreSQL NOTIFY, or LISTEN began again after a cut): read
   * the log. It already told its own processes, so this is not passed on.
   */
  othersCommitted(): void;
}
