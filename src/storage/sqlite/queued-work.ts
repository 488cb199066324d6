// Whether the open transaction queued outbound deliveries (a webhook's, with its event; a push): the commit then
// wakes the delivery loop, and only then (storage/commit-listener.ts).

export class QueuedWork {
  private queued = false;

  /** A delivery was inserted; a rollback keeps the mark (one needless lease is harmless). */
  note(): void {
    this.queued = true;
  }

  /** After the outermost commit or rollback: whether anything was queued since the last one. */
  take(): boolean {
    const queued = this.queued;
    this.queued = false;
    return queued;
  }
}
