// When a failed delivery is tried again (docs/protocol.md §16.5): exponential backoff from 5 s, doubling to at most
// an hour, a Retry-After honoured when it asks for longer; given up once its first attempt is 24 h old.

export interface RetryPolicy {
  /** The first retry's delay. */
  firstDelayMs: number;
  /** No delay grows past this. */
  maxDelayMs: number;
  /** A delivery still failing this long after it was queued is given up. */
  windowMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { firstDelayMs: 5_000, maxDelayMs: 3_600_000, windowMs: 24 * 3_600_000 };

/**
 * The time of the next attempt after `attempts` failed ones (1 after the first), or undefined when the delivery is
 * to be given up: the next attempt would fall after its window. A tenth of jitter spreads retries of many targets.
 */
export function scheduleRetry(policy: RetryPolicy, createdAt: number, attempts: number, now: number, retryAfterMs?: number, random: () => number = Math.random): number | undefined {
  const exponent = Math.min(Math.max(attempts - 1, 0), 30);
  const backoff = Math.min(policy.firstDelayMs * 2 ** exponent, policy.maxDelayMs);
  const delay = Math.max(backoff + Math.floor(backoff * 0.1 * random()), retryAfterMs ?? 0);
  const next = now + delay;
  return next > createdAt + policy.windowMs ? undefined : next;
}
