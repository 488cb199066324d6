// The SQLite store's one-connection gate: while a transaction is open, every other storage call waits for it to end.
//
// Why a gate and not a second connection: better-sqlite3 runs each statement to completion synchronously, but the
// Store's transactions are asynchronous (work awaits between statements), so other requests' calls can arrive
// while one is open. On the one connection they would join the open transaction: a read would see its uncommitted
// writes, and a second BEGIN would fail or, worse, two requests' writes would commit or roll back together. A
// separate read connection would avoid the first but not the second, and `:memory:` (every test) cannot have one:
// each connection to it is a different database. So calls queue here in arrival order while a transaction holds
// the connection; with no transaction open (nearly always: SQLite work resolves at once) a call runs at once.

type Waiter = () => void;

export class Gate {
  private held = false;
  private readonly waiting: Waiter[] = [];

  /** True while a transaction holds the connection. */
  get busy(): boolean {
    return this.held;
  }

  /** Runs synchronous fn now when the connection is free, else after the transactions before it ended. */
  call<T>(fn: () => T): Promise<T> {
    if (!this.held) {
      try {
        return Promise.resolve(fn());
      } catch (error) {
        return Promise.reject(error);
      }
    }
    return new Promise<T>((resolve, reject) => {
      this.waiting.push(() => {
        try {
          resolve(fn());
        } catch (error) {
          reject(error);
        }
      });
    });
  }

  /** Runs work holding the connection alone: it starts once every call queued before it ran. */
  async hold<T>(work: () => Promise<T>): Promise<T> {
    if (this.held) await new Promise<void>((resolve) => this.waiting.push(() => { this.held = true; resolve(); }));
    else this.held = true;
    try {
      return await work();
    } finally {
      this.release();
    }
  }

  /** Lets the queue go in order: plain calls run at once, until a transaction takes the connection again. */
  private release(): void {
    this.held = false;
    while (!this.held && this.waiting.length > 0) this.waiting.shift()!();
  }
}
