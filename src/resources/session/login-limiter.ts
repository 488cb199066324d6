// Limits password checks and failed logins per login from one address and per address; checked before any hashing.
import type { Clock } from '../../clock.ts';
import { HttpError } from '../../http/http-error.ts';
import type { RateCounterRepository } from '../../storage/store.ts';
import { pause, REFUSAL_PAUSE_MS } from './pause.ts';

/** An address may check and fail more often than one login: several people can share an address (NAT). */
export const ADDRESS_FACTOR = 10;
/** The window of the password-check limit (--login-rate is per minute). */
const CHECK_WINDOW_MS = 60_000;
/** How long each check of a login waits once the login failed --login-max-failures times from anywhere. */
export const SLOW_DOWN_MS = 1000;

interface Limit {
  key: string;
  max: number;
  windowMs: number;
  /** What the 429's detail says was exceeded. */
  what: string;
}

/**
 * The rules are in docs/api.md (Brute force). Every limit counts per login *from one address* or per address,
 * never per login alone: whoever fails from their own address can shut out only that address, so no one can
 * lock an owner out of an account (a login-wide count of failures only slows that login's checks down).
 * The counters are the rate limits' store, so with --workers every process counts in the same rows.
 */
export class LoginLimiter {
  private readonly maxFailures: number;
  private readonly windowMs: number;
  private readonly checkRate: number;
  private readonly slowDownMs: number;
  private readonly refusalPauseMs: number;
  private readonly clock: Clock;
  private readonly store: RateCounterRepository;

  constructor(options: {
    maxFailures: number; windowMs: number; checkRate: number; slowDownMs?: number; refusalPauseMs?: number; clock: Clock; store: RateCounterRepository;
  }) {
    this.maxFailures = options.maxFailures;
    this.windowMs = options.windowMs;
    this.checkRate = options.checkRate;
    this.slowDownMs = options.slowDownMs ?? SLOW_DOWN_MS;
    this.refusalPauseMs = options.refusalPauseMs ?? REFUSAL_PAUSE_MS;
    this.clock = options.clock;
    this.store = options.store;
  }

  private failureKeys(login: string, address: string): { pair: string; address: string; login: string } {
    const name = login.toLowerCase();
    return { pair: `login-failures:${name}@${address}`, address: `login-failures:@${address}`, login: `login-failures:${name}` };
  }

  private limits(login: string, address: string): Limit[] {
    const failures = this.failureKeys(login, address);
    const name = login.toLowerCase();
    return [
      ...(this.checkRate > 0 ? [
        { key: `login-checks:${name}@${address}`, max: this.checkRate, windowMs: CHECK_WINDOW_MS, what: 'logins to this account from your address' },
        { key: `login-checks:@${address}`, max: this.checkRate * ADDRESS_FACTOR, windowMs: CHECK_WINDOW_MS, what: 'logins from your address' },
      ] : []),
      { key: failures.pair, max: this.maxFailures, windowMs: this.windowMs, what: 'failed logins to this account from your address' },
      { key: failures.address, max: this.maxFailures * ADDRESS_FACTOR, windowMs: this.windowMs, what: 'failed logins from your address' },
    ];
  }

  /**
   * Counts this password check, and counts it as a failure at once, before any hashing, so concurrent
   * guesses cannot all slip past the check while their hashes run; over any limit every count is taken
   * back and the answer is 429 with Retry-After (RFC 6585 §4), sent after a pause that holds nothing: a
   * flood retrying at once would otherwise turn cheap refusals into the CPU load that starves everyone's
   * hashes. A successful login takes its failure back with `forgive`. A login that failed too often from
   * anywhere is slowed down here, never refused.
   */
  async admit(login: string, address: string, signal?: AbortSignal): Promise<void> {
    const now = this.clock.now();
    const hits = [];
    for (const limit of this.limits(login, address)) hits.push({ ...limit, ...await this.store.hit(limit.key, limit.windowMs, now) });
    const over = hits.filter((hit) => hit.count > hit.max);
    if (over.length > 0) {
      for (const hit of hits) await this.store.undo(hit.key);
      const retryAfter = Math.max(1, ...over.map((hit) => Math.ceil((hit.resetAt - now) / 1000)));
      const first = over[0]!;
      await pause(this.refusalPauseMs, signal);
      throw new HttpError('ERR_TOO_MANY_REQUESTS', `More than ${first.max} ${first.what} in ${first.windowMs / 1000} s; try again in ${retryAfter} s`, {
        headers: { 'Retry-After': String(retryAfter) },
      });
    }
    if (await this.store.count(this.failureKeys(login, address).login, now) >= this.maxFailures) await pause(this.slowDownMs, signal);
  }

  /** Takes back everything `admit` counted: the check never ran (the hash budget refused it, or its client left). */
  async withdraw(login: string, address: string): Promise<void> {
    for (const limit of this.limits(login, address)) await this.store.undo(limit.key);
  }

  /** A wrong password (or an unknown login): counted login-wide too, which slows the login's next checks. */
  async fail(login: string, address: string): Promise<void> {
    await this.store.hit(this.failureKeys(login, address).login, this.windowMs, this.clock.now());
  }

  /** A successful login clears its failures from this address and takes back its own attempt from the address. */
  async forgive(login: string, address: string): Promise<void> {
    const keys = this.failureKeys(login, address);
    await this.store.clear(keys.pair);
    await this.store.undo(keys.address);
  }
}
