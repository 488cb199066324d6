// Counts failed logins per login and per client address in a sliding window; checked before any hashing.
import type { Clock } from '../../http/context.ts';
import { HttpError } from '../../http/http-error.ts';

/** An address may fail more often than one login: several people can share an address (NAT). */
export const ADDRESS_FACTOR = 10;
/** Bounds memory under a flood of distinct logins: the oldest keys are dropped first. */
const MAX_KEYS = 100_000;

export class LoginLimiter {
  private readonly failures = new Map<string, number[]>();
  private readonly maxFailures: number;
  private readonly windowMs: number;
  private readonly clock: Clock;

  constructor(options: { maxFailures: number; windowMs: number; clock: Clock }) {
    this.maxFailures = options.maxFailures;
    this.windowMs = options.windowMs;
    this.clock = options.clock;
  }

  private recent(key: string, now: number): number[] {
    const times = (this.failures.get(key) ?? []).filter((time) => time > now - this.windowMs);
    if (times.length === 0) this.failures.delete(key);
    else this.failures.set(key, times);
    return times;
  }

  private keys(login: string, address: string): [string, number][] {
    return [[`login:${login.toLowerCase()}`, this.maxFailures], [`address:${address}`, this.maxFailures * ADDRESS_FACTOR]];
  }

  /**
   * Checks both limits (429 with Retry-After, RFC 6585 §4) and counts this attempt as a failure at once,
   * before any hashing: concurrent guesses cannot all slip past the check while their hashes run.
   * A successful login takes its attempt back with `forgive`.
   */
  admit(login: string, address: string): void {
    const now = this.clock.now();
    const keys = this.keys(login, address);
    for (const [key, limit] of keys) {
      const times = this.recent(key, now);
      if (times.length >= limit) {
        const retryAfter = Math.max(1, Math.ceil((times[0]! + this.windowMs - now) / 1000));
        throw new HttpError('ERR_TOO_MANY_REQUESTS', `Too many failed logins; try again in ${retryAfter} s`, {
          headers: { 'Retry-After': String(retryAfter) },
        });
      }
    }
    for (const [key] of keys) {
      const times = this.recent(key, now);
      times.push(now);
      this.failures.delete(key);
      this.failures.set(key, times);
    }
    while (this.failures.size > MAX_KEYS) this.failures.delete(this.failures.keys().next().value!);
  }

  /** A successful login clears the login's failures and takes back its own attempt from the address. */
  forgive(login: string, address: string): void {
    this.failures.delete(`login:${login.toLowerCase()}`);
    this.failures.get(`address:${address}`)?.pop();
  }
}
