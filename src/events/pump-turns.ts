// Who reads the log, and when: one pump at a time, so that events are dispatched once and in id order; wake-ups
// coalesced into one read; and an attach's catch-up on its snapshot with no pump running meanwhile.

interface Waiter {
  resolve(): void;
  reject(error: unknown): void;
}

interface WaitingAttach extends Waiter {
  work: () => Promise<void>;
}

export class PumpTurns {
  private scheduled = false;
  /** The pump that is reading the log now, if any: one at a time, so events are dispatched once, in id order. */
  private pumping: Promise<void> | undefined;
  private again = false;
  /** Callers of inTurn while a round ran: the next round is theirs. */
  private nextRound: Waiter[] = [];
  /** Attaches that came while the pump ran: they run between two of its rounds (see whileNoPump). */
  private between: WaitingAttach[] = [];
  /** An attach catching up on its snapshot, if any: no pump runs meanwhile (see whileNoPump). */
  private attaching: Promise<void> | undefined;

  private readonly pump: () => Promise<void>;
  private readonly guard: (work: Promise<void>) => Promise<void>;

  /**
   * `pump` reads the log after the cursor and dispatches what it finds; `guard` catches the failure of a pump
   * that a wake-up started, which has no caller to tell (hub-timers.ts).
   */
  constructor(pump: () => Promise<void>, guard: (work: Promise<void>) => Promise<void>) {
    this.pump = pump;
    this.guard = guard;
  }

  /**
   * A commit appended events: read them soon (coalesced). The store's reads never see another request's
   * uncommitted writes (a read waits for an open transaction to end), so the pump reads only committed events.
   */
  wake(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    queueMicrotask(() => {
      this.scheduled = false;
      void this.guard(this.inTurn());
    });
  }

  /**
   * Resolves once a whole round of the pump has run after this call: the running pump goes round once more for it
   * (never two reading the log at once). Only that round is waited for: on a busy server commits keep the pump going
   * round, and waiting for it to stop took seconds (an attach, a replay's catch-up).
   */
  inTurn(): Promise<void> {
    // An attach is catching up on its snapshot: pump once it is done, so the pump reads what came after it.
    if (this.attaching) return this.attaching.then(() => this.inTurn(), () => this.inTurn());
    const round = new Promise<void>((resolve, reject) => void this.nextRound.push({ resolve, reject }));
    if (this.pumping) {
      this.again = true;
    } else {
      // A failed round rejects its waiters, every caller of inTurn: the loop's own promise has nobody else to tell.
      this.pumping = this.rounds();
      this.pumping.catch(() => {});
    }
    return round;
  }

  private async rounds(): Promise<void> {
    try {
      do {
        this.again = false;
        const waiters = this.nextRound;
        this.nextRound = [];
        try {
          await this.pump();
        } catch (error) {
          for (const waiter of [...waiters, ...this.nextRound.splice(0)]) waiter.reject(error);
          throw error;
        }
        for (const waiter of waiters) waiter.resolve();
        await this.runBetween();
      } while (this.again);
    } finally {
      this.pumping = undefined;
      // The pump failed with attaches waiting for its next round: they run now, with no pump running.
      if (this.between.length > 0) void this.runBetween();
    }
  }

  /**
   * Runs an attach's catch-up while no other pump dispatches: the cursor then stands where the snapshot's log
   * ends when the user's chats are read from that same snapshot. A pump reading newer commits in between would
   * dispatch a membership event of a user not followed yet, and that user's chats would stay one step behind
   * (every later event of a chat they were added to, lost). Attaches take turns too; one that comes while the
   * pump runs is run by the pump itself between two of its rounds.
   */
  async whileNoPump(work: () => Promise<void>): Promise<void> {
    for (;;) {
      if (this.pumping) return new Promise((resolve, reject) => void this.between.push({ work, resolve, reject }));
      if (!this.attaching) break;
      await this.attaching.catch(() => undefined);
    }
    await this.runAttach(work);
  }

  private async runBetween(): Promise<void> {
    for (let waiting = this.between.shift(); waiting; waiting = this.between.shift()) {
      try {
        await this.runAttach(waiting.work);
        waiting.resolve();
      } catch (error) {
        waiting.reject(error);
      }
    }
  }

  private async runAttach(work: () => Promise<void>): Promise<void> {
    const turn = work();
    this.attaching = turn;
    try {
      await turn;
    } finally {
      this.attaching = undefined;
    }
  }
}
