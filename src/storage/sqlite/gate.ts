// The SQLite store's one-connection gate: while a transaction is open, every other storage call waits for it to end.
//
// Why a gate and not a second connection: better-sqlite3 runs each statement to completion synchronously, but the
// Store's transactions are asynchronous (work awaits between statements), so other requests' calls can arrive
// while one is open. On the one connection they would join the open transaction: a read would see its uncommitted
// writes, and a second BEGIN would fail or, worse, two requests' writes would commit or roll back together. A
// separate read connection would avoid the first but not the second, and `:memory:` (every test) cannot have one:
// each connection to it is a different database. So calls queue here while a transaction holds the connection; with
// no transaction open (nearly always: SQLite work resolves at once) a call runs at once. When the transaction ends,
// every call waiting runs before the next transaction begins, whenever either arrived: a call is one synchronous
// statement or a few, a transaction holds the connection until its WAL sync is seen done (a turn of a busy event
// loop), and a read queued behind a transaction that has not begun waited for all of it (bench/RESULTS.md, "Calls
// before transactions"). A transaction not yet begun has written nothing, so a read run before it sees the same.

type Waiter = () => void;

export class Gate {
  private held = false;
  /** Plain calls waiting for the open transaction to end. */
  private readonly calls: Waiter[] = [];
  /** Transactions waiting to begin, in arrival order. */
  private readonly holds: Waiter[] = [];

  /** True while a transaction holds the connection. */
  get busy(): boolean {
    return this.held;
  }

  /** Runs synchronous fn now when the connection is free, else when the open transaction ends. */
  call<T>(fn: () => T): Promise<T> {
    if (!this.held) {
      try {
        return Promise.resolve(fn());
      } catch (error) {
        return Promise.reject(error);
      }
    }
    return new Promise<T>((resolve, reject) => {
      this.calls.push(() => {
        try {
          resolve(fn());
        } catch (error) {
          reject(error);
        }
      });
    });
  }

  /** Runs work holding the connection alone: it begins once the transactions before it ended and the calls waiting ran. */
  async hold<T>(work: () => Promise<T>): Promise<T> {
    if (this.held) await new Promise<void>((resolve) => this.holds.push(() => { this.held = true; resolve(); }));
    else this.held = true;
    try {
      return await work();
    } finally {
      this.release();
    }
  }

  /** Every waiting call runs, then the next transaction takes the connection. */
  private release(): void {
    this.held = false;
    while (this.calls.length > 0) this.calls.shift()!();
    this.holds.shift()?.();
  }
}
