// Unused uploads leave after an hour (docs/protocol.md §15.2), and with them any content nothing refers to any more.
import type { Clock } from '../../clock.ts';
import { PeriodicSweep } from '../../storage/periodic-sweep.ts';
import type { Store } from '../../storage/store.ts';

/** How long an upload waits for a message to take it. */
export const UNUSED_UPLOAD_MS = 60 * 60 * 1000;
/** How often the cleanup looks: an upload goes at most this long after its hour. */
export const CLEANUP_EVERY_MS = 5 * 60 * 1000;

export interface UploadCleanupOptions {
  storage: Store;
  clock: Clock;
  logError(error: unknown): void;
  everyMs?: number;
}

/** Removes the uploads older than the hour that no message took, and contents whose upload never finished. */
export function uploadCleanup(options: UploadCleanupOptions): PeriodicSweep {
  const { storage, clock } = options;
  return new PeriodicSweep({
    everyMs: options.everyMs ?? CLEANUP_EVERY_MS,
    logError: options.logError,
    sweep: () => storage.transaction((tx) => tx.attachments.deleteUnused(clock.now() - UNUSED_UPLOAD_MS)),
  });
}
