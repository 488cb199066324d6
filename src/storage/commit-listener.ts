// What a store tells, as it commits, about the event log: a wake-up, never the data (docs/events.md, "How a
// commit wakes the streams"). Given to the store when it is opened; events/event-wake-up.ts is its one implementation.

export interface CommitListener {
  /** This process committed a transaction that appended `count` events (always more than 0). */
  eventsCommitted(count: number): void;
  /**
   * Events may have been appended by any server, this one included (a PostgreSQL NOTIFY, sent once per committing
   * transaction, or LISTEN beginning again after a cut): read the log. No count, and nothing to relay: whoever
   * committed has told its own workers, and every server listens for itself.
   */
  othersCommitted(): void;
}
