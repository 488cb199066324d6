// Counts failed logins per login and per client address in a window; checked before any hashing.
import type { Clock } from '../../clock.ts';
import { HttpError } from '../../http/http-error.ts';
import type { RateCounterRepository } from '../../storage/store.ts';

/** An address may fail more often than one login: several people can share an address (NAT). */
export const ADDRESS_FACTOR = 10;

/**
 * A window starts at a key's first failure and lasts --login-window; over --login-max-failures in it, the
 * login answers 429 until it ends. The counters are the rate limits' store, so with --workers every process
 * counts in the same rows.
 */
export class LoginLimiter {
  private readonly maxFailures: number;
  private readonly windowMs: number;
  private readonly clock: Clock;
  private readonly store: RateCounterRepository;

  constructor(options: { maxFailures: number; windowMs: number; clock: Clock; store: RateCounterRepository }) {
    this.maxFailures = options.maxFailures;
    this.windowMs = options.windowMs;
    this.clock = options.clock;
    this.store = options.store;
  }

  private keys(login: string, address: string): [string, number][] {
    return [[`login:${login.toLowerCase()}`, this.maxFailures], [`address:${address}`, this.maxFailures * ADDRESS_FACTOR]];
  }

  /**
   * Counts this attempt as a failure at once, before any hashing, so concurrent guesses cannot all slip past
   * the check while their hashes run; over either limit it is taken back and the answer is 429 with
   * Retry-After (RFC 6585 §4). A successful login takes its attempt back with `forgive`.
   */
  async admit(login: string, address: string): Promise<void> {
    const now = this.clock.now();
    const hits = [];
    for (const [key, limit] of this.keys(login, address)) hits.push({ key, limit, ...await this.store.hit(key, this.windowMs, now) });
    const over = hits.filter((hit) => hit.count > hit.limit);
    if (over.length === 0) return;
    for (const hit of hits) await this.store.undo(hit.key);
    const retryAfter = Math.max(1, ...over.map((hit) => Math.ceil((hit.resetAt - now) / 1000)));
    throw new HttpError('ERR_TOO_MANY_REQUESTS', `Too many failed logins; try again in ${retryAfter} s`, {
      headers: { 'Retry-After': String(retryAfter) },
    });
  }

  /** A successful login clears the login's failures and takes back its own attempt from the address. */
  async forgive(login: string, address: string): Promise<void> {
    const [[loginKey], [addressKey]] = this.keys(login, address) as [[string, number], [string, number]];
    await this.store.clear(loginKey);
    await this.store.undo(addressKey);
  }
}
