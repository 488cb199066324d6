// A wait that ends early when its client goes away: refusals and slowed logins hold nothing while they wait.

/**
 * How long a refusal of a password check (the login limits' 429, the hash budget's 429 or 503) waits before it is
 * sent: clients that retry at once, as a flood does, would otherwise make cheap refusals the CPU load that starves
 * everyone's hashes.
 */
export const REFUSAL_PAUSE_MS = 1000;

/** Waits `ms`, or less when the signal aborts. */
export function pause(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0 || signal?.aborted) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
