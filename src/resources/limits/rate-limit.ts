// Fixed-window request quotas (CONTRACT §11) with the IETF RateLimit header fields; counters behind a small interface.
import type { Clock } from '../../http/context.ts';
import { HttpError } from '../../http/http-error.ts';

/**
 * Where the counters live: in this process (a Map) when it is the only one, in the database when several
 * processes share it (--workers: storage/rate-counter-store.ts), without the limits changing.
 */
export interface RateCounterStore {
  /** Counts one hit on `key` and answers the window it fell in; a new window starts when the last one ended. */
  hit(key: string, windowMs: number, now: number): { count: number; resetAt: number };
  /** Takes back one hit of the current window (a request that turned out not to count). */
  undo(key: string): void;
  /** Forgets the key's window (a successful login clears its failures). */
  clear(key: string): void;
}

/** Bounds memory under a flood of distinct keys: the oldest keys are dropped first. */
const MAX_KEYS = 100_000;

export class MemoryRateCounters implements RateCounterStore {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  hit(key: string, windowMs: number, now: number): { count: number; resetAt: number } {
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + windowMs };
      this.windows.delete(key);
      this.windows.set(key, window);
      while (this.windows.size > MAX_KEYS) this.windows.delete(this.windows.keys().next().value!);
    }
    window.count += 1;
    return { ...window };
  }

  undo(key: string): void {
    const window = this.windows.get(key);
    if (window && window.count > 0) window.count -= 1;
  }

  clear(key: string): void {
    this.windows.delete(key);
  }
}

export interface RateDecision {
  /** RateLimit-Policy and RateLimit (draft-ietf-httpapi-ratelimit-headers), for every answer of the route. */
  headers: Record<string, string>;
  /** Gives the hit back, e.g. when a registration failed and created nothing. */
  undo(): void;
}

export class RateLimit {
  constructor(
    private readonly policy: { name: string; quota: number; windowSeconds: number },
    private readonly store: RateCounterStore,
    private readonly clock: Clock,
  ) {}

  /** Off when the quota is 0. */
  get enabled(): boolean {
    return this.policy.quota > 0;
  }

  /**
   * Counts one request of `key`. Over the quota: 429 with Retry-After (RFC 6585 §4, RFC 9110 §10.2.3)
   * and the RateLimit fields saying 0 remain; the caller must not have done any work yet.
   */
  take(key: string): RateDecision {
    const { name, quota, windowSeconds } = this.policy;
    const now = this.clock.now();
    const storeKey = `${name}:${key}`;
    const { count, resetAt } = this.store.hit(storeKey, windowSeconds * 1000, now);
    const seconds = Math.max(1, Math.ceil((resetAt - now) / 1000));
    const headers = {
      'RateLimit-Policy': `"${name}";q=${quota};w=${windowSeconds}`,
      RateLimit: `"${name}";r=${Math.max(0, quota - count)};t=${seconds}`,
    };
    if (count > quota) {
      throw new HttpError('ERR_TOO_MANY_REQUESTS', `At most ${quota} ${name} per ${windowSeconds} s; try again in ${seconds} s`, {
        headers: { ...headers, 'Retry-After': String(seconds) },
      });
    }
    return { headers, undo: () => this.store.undo(storeKey) };
  }
}
