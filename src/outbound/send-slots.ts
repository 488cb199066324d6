// How many deliveries of a kind are sent at once, and how fast they start (docs/push.md, "What runs where"): a kind's
// share of the outbound loop (pushes: 16 of its 64), at most so many starts a second when the kind sets a pace
// (pushes: 150, so a fan-out's encryption and posts never take more than a fixed share of the cores, however fast
// the push service answers), and one start per turn of the event loop, so the starts of a fan-out (each reads its
// subscription and hands a job to a thread) take turns with the requests instead of running back to back in one turn.
/** A granted slot; call once when the attempt is over. */
export type Release = () => void;

export interface KindShare {
  /** Deliveries of the kind sent at once; absent: bounded by the loop's in-flight cap alone. */
  maxInFlight?: number;
  /** Starts of the kind a second, spread evenly; absent: as fast as slots come back. */
  perSecond?: number;
}

/** The clock and timer of the pace (tests pass their own). */
export interface PaceTimer {
  now(): number;
  after(ms: number, run: () => void): void;
}

const REAL_TIMER: PaceTimer = { now: () => performance.now(), after: (ms, run) => void setTimeout(run, ms) };

export class SendSlots {
  private readonly shareOf: (kind: string) => KindShare | undefined;
  private readonly timer: PaceTimer;
  private readonly active = new Map<string, number>();
  private readonly waiting = new Map<string, (() => void)[]>();
  /** When the next start of a paced kind may be. */
  private readonly nextStartAt = new Map<string, number>();
  /** Granted, to be started one per turn. */
  private readonly ready: (() => void)[] = [];
  private pumping = false;

  constructor(shareOf: (kind: string) => KindShare | undefined, timer: PaceTimer = REAL_TIMER) {
    this.shareOf = shareOf;
    this.timer = timer;
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
      const limit = this.shareOf(kind)?.maxInFlight;
      const active = this.active.get(kind) ?? 0;
      if (limit === undefined || active < limit) {
        this.active.set(kind, active + 1);
        this.start(kind, grant);
      } else {
        const queue = this.waiting.get(kind) ?? [];
        queue.push(grant);
        this.waiting.set(kind, queue);
      }
    });
  }

  private release(kind: string): void {
    const next = this.waiting.get(kind)?.shift();
    if (next) this.start(kind, next);
    else this.active.set(kind, (this.active.get(kind) ?? 1) - 1);
  }

  /** A granted slot starts on the pump's next turn, or at its kind's next start time when the kind is paced. */
  private start(kind: string, grant: () => void): void {
    const perSecond = this.shareOf(kind)?.perSecond;
    if (perSecond === undefined) return this.enqueue(grant);
    const now = this.timer.now();
    const at = Math.max(now, this.nextStartAt.get(kind) ?? now);
    this.nextStartAt.set(kind, at + 1000 / perSecond);
    if (at <= now) this.enqueue(grant);
    else this.timer.after(at - now, () => this.enqueue(grant));
  }

  private enqueue(grant: () => void): void {
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
