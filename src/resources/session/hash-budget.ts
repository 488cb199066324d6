// The budget of password hashes: slots per kind of work, fair bounded queues, refusals past them, abandoned work dropped.
import { HttpError } from '../../http/http-error.ts';
import { FairQueue } from './fair-queue.ts';
import { pause, REFUSAL_PAUSE_MS } from './pause.ts';
/** Work given no key shares this one, with no cap of its own (registrations: they have a budget of their own). */
const UNKEYED = '';

/** Sign-in and password changes are interactive; registrations are background, with a budget of their own. */
export type HashPriority = 'interactive' | 'background';

export interface HashOptions {
  priority?: HashPriority;
  /** When it aborts before the hash starts, the work is dropped (its client is gone). */
  signal?: AbortSignal;
  /** Whose work it is (the client address): each key gets a fair turn and at most its share (docs/api.md, Limits). */
  key?: string;
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
  private readonly maxPerKey: number;
  private readonly refusalPauseMs: number;
  /** Hashes each priority may run at once: its own budget, never lent to the other. */
  private readonly slots: Record<HashPriority, number>;
  private readonly running: Record<HashPriority, number> = { interactive: 0, background: 0 };
  private readonly queues: Record<HashPriority, FairQueue<Waiter>> = { interactive: new FairQueue(), background: new FairQueue() };
  /** Per key: hashes running, and running plus waiting (the share the cap counts). */
  private readonly runningByKey = new Map<string, number>();
  private readonly heldByKey = new Map<string, number>();
  /** A running average of one hash's duration, for Retry-After. */
  private averageMs = 100;
  /** How many hashes ran: tests show the login limit stops hashing. */
  hashesComputed = 0;

  /**
   * `concurrency` hashes at once for sign-in and password changes; registrations have a budget of their
   * own, half of that (at least one), so a registration flood never holds a slot a login needs. And they
   * come second: no registration starts while a login hashes or waits, so a login shares the cores with
   * at most the registrations already running. One key may run at most half the slots, rounded up, and
   * hold at most `maxPerKey` hashes running or waiting (by default a quarter of the queue, at least one).
   */
  constructor(options: { concurrency: number; maxQueued?: number; maxPerKey?: number; refusalPauseMs?: number }) {
    this.refusalPauseMs = options.refusalPauseMs ?? REFUSAL_PAUSE_MS;
    this.slots = { interactive: options.concurrency, background: Math.max(1, Math.floor(options.concurrency / 2)) };
    this.maxQueued = options.maxQueued ?? Number.POSITIVE_INFINITY;
    this.maxPerKey = options.maxPerKey ?? Math.max(1, Math.ceil(this.maxQueued / 4));
  }

  /** Hashes waiting for a free slot, per priority. */
  get queued(): Record<HashPriority, number> {
    return { interactive: this.queues.interactive.size, background: this.queues.background.size };
  }

  /** Hashes of `key` running or waiting. */
  heldBy(key: string): number {
    return this.heldByKey.get(key) ?? 0;
  }

  private retryAfter(ahead: number, priority: HashPriority): number {
    return Math.max(1, Math.ceil((ahead * this.averageMs) / this.slots[priority] / 1000));
  }

  /** A 429 when the key holds its share already, a 503 when the work would wait and the queue is full; else undefined. */
  private refusal(priority: HashPriority, key: string): HttpError | undefined {
    if (key !== UNKEYED && this.heldBy(key) >= this.maxPerKey) {
      const retryAfter = this.retryAfter(this.heldBy(key), priority);
      return new HttpError('ERR_TOO_MANY_REQUESTS', `${this.heldBy(key)} password checks from this address are running or waiting already; try again in ${retryAfter} s`, {
        headers: { 'Retry-After': String(retryAfter) },
      });
    }
    if (this.hasRoom(priority, key) || this.queues[priority].size < this.maxQueued) return undefined;
    const retryAfter = this.retryAfter(this.queues[priority].size + this.running[priority], priority);
    return new HttpError('ERR_SERVER_BUSY', `Too many password hashes are waiting; try again in ${retryAfter} s`, { headers: { 'Retry-After': String(retryAfter) } });
  }

  /** One key runs at most half the slots, rounded up, so another key's work always finds one soon. */
  private underShare(priority: HashPriority, key: string): boolean {
    return key === UNKEYED || (this.runningByKey.get(key) ?? 0) < Math.max(1, Math.ceil(this.slots[priority] / 2));
  }

  private hasRoom(priority: HashPriority, key: string): boolean {
    // No waiting work could take a free slot (startWaiting gives it out at once), so this overtakes nothing.
    if (this.running[priority] >= this.slots[priority] || !this.underShare(priority, key)) return false;
    return priority === 'interactive' || (this.running.interactive === 0 && this.queues.interactive.size === 0);
  }

  private count(map: Map<string, number>, key: string, by: number): void {
    const value = (map.get(key) ?? 0) + by;
    if (value !== 0) {
      map.set(key, value);
      return;
    }
    map.delete(key);
    // A key that holds nothing any more needs no place in the turn (and the maps stay as small as the work).
    if (map === this.heldByKey) for (const queue of Object.values(this.queues)) queue.forget(key);
  }

  /** Starts what may start now: logins first, keys in turn (FairQueue); registrations only once no login hashes or waits. */
  private startWaiting(): void {
    for (const priority of ['interactive', 'background'] as const) {
      if (priority === 'background' && (this.running.interactive > 0 || this.queues.interactive.size > 0)) return;
      while (this.running[priority] < this.slots[priority]) {
        const waiter = this.queues[priority].shift((key) => this.underShare(priority, key));
        if (!waiter) break;
        waiter.start();
      }
    }
  }

  /**
   * scrypt runs on libuv's thread pool, not the event loop; the bound keeps a flood of logins from
   * taking every pool thread (and all memory) from the rest of the server. Past the queue's cap the
   * answer is 503, past the key's share 429, both with Retry-After after the refusal pause, never a
   * longer wait; work whose client left is dropped.
   */
  async run<T>(work: () => Promise<T>, options: HashOptions = {}): Promise<T> {
    const { priority = 'interactive', signal, key = UNKEYED } = options;
    if (signal?.aborted) throw new HashAbortedError('The client went away before the hash started');
    // A waiter's slot is taken for it by start(), before it resumes, so nothing can overtake it.
    if (this.hasRoom(priority, key)) this.take(priority, key);
    else await this.wait(priority, key, signal);
    this.hashesComputed++;
    const started = performance.now();
    try {
      return await work();
    } finally {
      this.averageMs = 0.8 * this.averageMs + 0.2 * (performance.now() - started);
      this.running[priority]--;
      this.count(this.runningByKey, key, -1);
      this.count(this.heldByKey, key, -1);
      this.startWaiting();
    }
  }

  private take(priority: HashPriority, key: string): void {
    this.queues[priority].served(key);
    this.running[priority]++;
    this.count(this.runningByKey, key, 1);
    this.count(this.heldByKey, key, 1);
  }

  /**
   * A refusal comes after a pause (REFUSAL_PAUSE_MS): clients that retry at once, as a flood does, would
   * otherwise turn a stream of cheap refusals into the CPU load that starves the hashes of sign-in.
   * The pause holds no slot and no queue place; a client that leaves during it is let go at once.
   */
  private async refuse(error: HttpError, signal: AbortSignal | undefined): Promise<never> {
    await pause(this.refusalPauseMs, signal);
    if (signal?.aborted) throw new HashAbortedError('The client went away before the hash started');
    throw error;
  }

  private wait(priority: HashPriority, key: string, signal: AbortSignal | undefined): Promise<void> {
    const refused = this.refusal(priority, key);
    if (refused) return this.refuse(refused, signal);
    const queue = this.queues[priority];
    // Held from now: the key's share counts its waiting work too.
    this.count(this.heldByKey, key, 1);
    return new Promise<void>((resolve, reject) => {
      const onAbort = (): void => {
        if (queue.remove(key, waiter)) this.count(this.heldByKey, key, -1);
        reject(new HashAbortedError('The client went away before the hash started'));
        // A login that left may have been all that held registrations back.
        this.startWaiting();
      };
      const waiter: Waiter = {
        start: () => {
          signal?.removeEventListener('abort', onAbort);
          this.running[priority]++;
          this.count(this.runningByKey, key, 1);
          resolve();
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      queue.push(key, waiter);
    });
  }
}
