// What a store tells, as it commits, about the event log: a wake-up, never the data (docs/events.md, "How a
// commit wakes the streams"). Given to the store when it is opened; events/event-wake-up.ts is its one implementation.

export interface CommitListener {
  /**
   * This process committed a transaction that appended `count` events or queued outbound deliveries (or both).
   * `queued` false says no delivery was queued, so the delivery loop has nothing new to lease; a backend that cannot
   * tell leaves it out (true). `onDiskThrough`: the newest event id of the commit, on disk now (SQLite: its WAL
   * sync ended), which other processes on the file are told so that they need not sync before handing it out.
   */
  eventsCommitted(count: number, queued?: boolean, onDiskThrough?: number): void;
  /**
   * Events may have been appended by any server, this one included (a PostgreSQL NOTIFY, sent once per committing
   * transaction, or LISTEN beginning again after a cut): read the log. No count, and nothing to relay: whoever
   * committed has told its own workers, and every server listens for itself.
   */
  othersCommitted(): void;
}
