// Rate counters in this process (a Map): right when it is the only process on the database.
import type { RateCounterRepository } from './store.ts';

/** Bounds memory under a flood of distinct keys: the oldest keys are dropped first. */
const MAX_KEYS = 100_000;

export class MemoryRateCounters implements RateCounterRepository {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  async hit(key: string, windowMs: number, now: number): Promise<{ count: number; resetAt: number }> {
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

  async count(key: string, now: number): Promise<number> {
    const window = this.windows.get(key);
    return window && window.resetAt > now ? window.count : 0;
  }

  async undo(key: string): Promise<void> {
    const window = this.windows.get(key);
    if (window && window.count > 0) window.count -= 1;
  }

  async clear(key: string): Promise<void> {
    this.windows.delete(key);
  }
}
