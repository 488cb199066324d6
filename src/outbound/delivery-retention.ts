// Finished outbound deliveries (delivered, failed for good, dropped) leave `--delivery-retention` seconds after they
// were queued (30 days unless set; docs/integrations.md), with their attempts: a webhook's history stays readable for
// that long, and the queue does not grow for ever (a chat of 1,000 subscribed members makes 1,000 push deliveries
// a message). Pending deliveries are never touched. Removed a thousand at a time, each batch its own transaction, so
// a sweep never holds the database for long.
import type { Clock } from '../clock.ts';
import { PeriodicSweep } from '../storage/periodic-sweep.ts';
import type { Store } from '../storage/store.ts';

const BATCH = 1000;
/** How often the sweep looks: a delivery goes at most this long after its retention. */
export const RETENTION_SWEEP_EVERY_MS = 10 * 60 * 1000;

export interface DeliveryRetentionOptions {
  storage: Store;
  clock: Clock;
  retentionSeconds: number;
  logError(error: unknown): void;
}

export function deliveryRetention(options: DeliveryRetentionOptions): PeriodicSweep {
  const { storage, clock } = options;
  return new PeriodicSweep({
    everyMs: RETENTION_SWEEP_EVERY_MS,
    logError: options.logError,
    sweep: async () => {
      const before = clock.now() - options.retentionSeconds * 1000;
      let total = 0;
      for (;;) {
        const removed = await storage.outbound.deleteFinishedDeliveries(before, BATCH);
        total += removed;
        if (removed < BATCH) return total;
        // The loop serves requests between two batches.
        await new Promise((resolve) => setImmediate(resolve));
      }
    },
  });
}
