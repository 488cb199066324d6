// How many deliveries of a kind are sent at once, and how fast they start (docs/push.md, "What runs where"): a kind's
// share of the outbound loop (pushes: 16 of its 64), and one start per turn of the event loop, so the starts of a
// fan-out (each reads its subscription and hands a job to a thread) take turns with the requests instead of running
// back to back in one turn.
/** A granted slot; call once when the attempt is over. */
export type Release = () => void;

export class SendSlots {
  /** Deliveries of a kind sent at once; undefined: bounded by the loop's in-flight cap alone. */
  private readonly limitOf: (kind: string) => number | undefined;
  private readonly active = new Map<string, number>();
  private readonly waiting = new Map<string, (() => void)[]>();
  /** Granted, to be started one per turn. */
  private readonly ready: (() => void)[] = [];
  private pumping = false;

  constructor(limitOf: (kind: string) => number | undefined) {
    this.limitOf = limitOf;
  }

  /** Resolves, on a later turn of the event loop, when a delivery of `kind` may be sent. */
  acquire(kind: string): Promise<Release> {
    return new Promise((resolve) => {
      let released = false;
      const grant = (): void => resolve(() => {
        if (released) return;
        released = true;
        this.release(kind);
      });
      const limit = this.limitOf(kind);
      const active = this.active.get(kind) ?? 0;
      if (limit === undefined || active < limit) {
        this.active.set(kind, active + 1);
        this.start(grant);
      } else {
        const queue = this.waiting.get(kind) ?? [];
        queue.push(grant);
        this.waiting.set(kind, queue);
      }
    });
  }

  private release(kind: string): void {
    const next = this.waiting.get(kind)?.shift();
    if (next) this.start(next);
    else this.active.set(kind, (this.active.get(kind) ?? 1) - 1);
  }

  private start(grant: () => void): void {
    this.ready.push(grant);
    if (this.pumping) return;
    this.pumping = true;
    setImmediate(() => this.pump());
  }

  private pump(): void {
    this.ready.shift()?.();
    if (this.ready.length > 0) setImmediate(() => this.pump());
    else this.pumping = false;
  }
}
