// The budget of password hashes: slots per kind of work, bounded queues, 503 past them, abandoned work dropped.
import { HttpError } from '../../http/http-error.ts';

/** How long a refusal for a full queue waits before it is sent. */
const REFUSAL_PAUSE_MS = 1000;

/** Sign-in and password changes are interactive; registrations are background, with a budget of their own. */
export type HashPriority = 'interactive' | 'background';

export interface HashOptions {
  priority?: HashPriority;
  /** When it aborts before the hash starts, the work is dropped (its client is gone). */
  signal?: AbortSignal;
}

interface Waiter {
  start(): void;
}

/** Thrown for work dropped because its client went away. */
export class HashAbortedError extends Error {
  override name = 'AbortError';
  readonly code = 'ABORT_ERR';
}

export class HashBudget {
  private readonly maxQueued: number;
  private readonly refusalPauseMs: number;
  /** Hashes each priority may run at once: its own budget, never lent to the other. */
  private readonly slots: Record<HashPriority, number>;
  private readonly running: Record<HashPriority, number> = { interactive: 0, background: 0 };
  private readonly queues: Record<HashPriority, Waiter[]> = { interactive: [], background: [] };
  /** A running average of one hash's duration, for Retry-After. */
  private averageMs = 100;
  /** How many hashes ran: tests show the login limit stops hashing. */
  hashesComputed = 0;

  /**
   * `concurrency` hashes at once for sign-in and password changes; registrations have a budget of their
   * own, half of that (at least one), so a registration flood never holds a slot a login needs. And they
   * come second: no registration starts while a login hashes or waits, so a login shares the cores with
   * at most the registrations already running.
   */
  constructor(options: { concurrency: number; maxQueued?: number; refusalPauseMs?: number }) {
    this.refusalPauseMs = options.refusalPauseMs ?? REFUSAL_PAUSE_MS;
    this.slots = { interactive: options.concurrency, background: Math.max(1, Math.floor(options.concurrency / 2)) };
    this.maxQueued = options.maxQueued ?? Number.POSITIVE_INFINITY;
  }

  /** Hashes waiting for a free slot, per priority. */
  get queued(): Record<HashPriority, number> {
    return { interactive: this.queues.interactive.length, background: this.queues.background.length };
  }

  /** A 503 when work of this priority would have to wait and its queue is full, else undefined. */
  private refusal(priority: HashPriority): HttpError | undefined {
    if (this.hasRoom(priority) || this.queues[priority].length < this.maxQueued) return undefined;
    const ahead = this.queues[priority].length + this.running[priority];
    const retryAfter = Math.max(1, Math.ceil((ahead * this.averageMs) / this.slots[priority] / 1000));
    return new HttpError('ERR_SERVER_BUSY', `Too many password hashes are waiting; try again in ${retryAfter} s`, { headers: { 'Retry-After': String(retryAfter) } });
  }

  private hasRoom(priority: HashPriority): boolean {
    if (this.running[priority] >= this.slots[priority]) return false;
    return priority === 'interactive' || (this.running.interactive === 0 && this.queues.interactive.length === 0);
  }

  /** Starts what may start now: logins first, registrations only once no login hashes or waits. */
  private startWaiting(): void {
    for (const priority of ['interactive', 'background'] as const) {
      while (this.queues[priority].length > 0 && this.hasRoom(priority)) {
        this.running[priority]++;
        this.queues[priority].shift()!.start();
      }
    }
  }

  /**
   * scrypt runs on libuv's thread pool, not the event loop; the bound keeps a flood of logins from
   * taking every pool thread (and all memory) from the rest of the server. Past the queue's cap the
   * answer is 503 with Retry-After at once, never a longer wait; work whose client left is dropped.
   */
  async run<T>(work: () => Promise<T>, options: HashOptions = {}): Promise<T> {
    const { priority = 'interactive', signal } = options;
    if (signal?.aborted) throw new HashAbortedError('The client went away before the hash started');
    // A waiter's slot is taken for it by startWaiting, before it resumes, so nothing can overtake it.
    if (this.hasRoom(priority)) this.running[priority]++;
    else await this.wait(priority, signal);
    this.hashesComputed++;
    const started = performance.now();
    try {
      return await work();
    } finally {
      this.averageMs = 0.8 * this.averageMs + 0.2 * (performance.now() - started);
      this.running[priority]--;
      this.startWaiting();
    }
  }

  /**
   * The 503 comes after a pause (REFUSAL_PAUSE_MS): clients that retry at once, as a flood does, would
   * otherwise turn a stream of cheap refusals into the CPU load that starves the hashes of sign-in.
   * The pause holds no slot and no queue place; a client that leaves during it is let go at once.
   */
  private async refuse(error: HttpError, signal: AbortSignal | undefined): Promise<never> {
    if (this.refusalPauseMs > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, this.refusalPauseMs);
        function done(): void {
          clearTimeout(timer);
          signal?.removeEventListener('abort', done);
          resolve();
        }
        signal?.addEventListener('abort', done, { once: true });
      });
    }
    if (signal?.aborted) throw new HashAbortedError('The client went away before the hash started');
    throw error;
  }

  private wait(priority: HashPriority, signal: AbortSignal | undefined): Promise<void> {
    const refused = this.refusal(priority);
    if (refused) return this.refuse(refused, signal);
    const queue = this.queues[priority];
    return new Promise<void>((resolve, reject) => {
      const onAbort = (): void => {
        const at = queue.indexOf(waiter);
        if (at !== -1) queue.splice(at, 1);
        reject(new HashAbortedError('The client went away before the hash started'));
        // A login that left may have been all that held registrations back.
        this.startWaiting();
      };
      const waiter: Waiter = {
        start: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      queue.push(waiter);
    });
  }
}
