// Who reads the log, and when: one pump at a time, so that events are dispatched once and in id order; wake-ups
// coalesced into one read; and an attach's catch-up on its snapshot with no pump running meanwhile.

export class PumpTurns {
  private scheduled = false;
  /** The pump that is reading the log now, if any: one at a time, so events are dispatched once, in id order. */
  private pumping: Promise<void> | undefined;
  private again = false;
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

  /** Runs the pump, or asks the running one to go round once more: never two reading the log at once. */
  inTurn(): Promise<void> {
    // An attach is catching up on its snapshot: pump once it is done, so the pump reads what came after it.
    if (this.attaching) return this.attaching.then(() => this.inTurn(), () => this.inTurn());
    if (this.pumping) {
      this.again = true;
      return this.pumping;
    }
    this.pumping = (async () => {
      try {
        do {
          this.again = false;
          await this.pump();
        } while (this.again);
      } finally {
        this.pumping = undefined;
      }
    })();
    return this.pumping;
  }

  /**
   * Runs an attach's catch-up while no other pump dispatches: the cursor then stands where the snapshot's log
   * ends when the user's chats are read from that same snapshot. A pump reading newer commits in between would
   * dispatch a membership event of a user not followed yet, and that user's chats would stay one step behind
   * (every later event of a chat they were added to, lost). Attaches take turns too.
   */
  async whileNoPump(work: () => Promise<void>): Promise<void> {
    while (this.attaching || this.pumping) await (this.attaching ?? this.pumping)!.catch(() => undefined);
    const turn = work();
    this.attaching = turn;
    try {
      await turn;
    } finally {
      this.attaching = undefined;
    }
  }
}
