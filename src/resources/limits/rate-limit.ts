// Fixed-window request quotas (docs/protocol.md §11.1) with the IETF RateLimit header fields; counters behind a small interface.
import type { Clock } from '../../clock.ts';
import { HttpError } from '../../http/http-error.ts';
import type { RateCounterRepository } from '../../storage/store.ts';

export interface RateDecision {
  /** RateLimit-Policy and RateLimit (draft-ietf-httpapi-ratelimit-headers), for every answer of the route. */
  headers: Record<string, string>;
  /** Gives the hit back, e.g. when a registration failed and created nothing. */
  undo(): Promise<void>;
}

export class RateLimit {
  private readonly policy: { name: string; quota: number; windowSeconds: number };
  // Counted in this process alone, or in the database when several processes share it (--workers).
  private readonly store: RateCounterRepository;
  private readonly clock: Clock;

  constructor(policy: { name: string; quota: number; windowSeconds: number }, store: RateCounterRepository, clock: Clock) {
    this.policy = policy;
    this.store = store;
    this.clock = clock;
  }

  /** Off when the quota is 0. */
  get enabled(): boolean {
    return this.policy.quota > 0;
  }

  /**
   * Counts one request of `key`. Over the quota: 429 with Retry-After (RFC 6585 §4, RFC 9110 §10.2.3)
   * and the RateLimit fields saying 0 remain; the caller must not have done any work yet.
   */
  async take(key: string): Promise<RateDecision> {
    const { name, quota, windowSeconds } = this.policy;
    const now = this.clock.now();
    const storeKey = `${name}:${key}`;
    const { count, resetAt } = await this.store.hit(storeKey, windowSeconds * 1000, now);
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
