// Unused uploads leave after an hour (docs/protocol.md §15.2), and with them any content nothing refers to any more.
import type { Clock } from '../../clock.ts';
import { StoreUnavailableError, StoreWriteRefusedError, type Store } from '../../storage/store.ts';

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

/** The one owner of the cleanup's timer: started with the services, stopped when they close (as the event hub's prune). */
export class UploadCleanup {
  private readonly options: UploadCleanupOptions;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;

  constructor(options: UploadCleanupOptions) {
    this.options = options;
  }

  start(): void {
    this.timer = setInterval(() => void this.sweepGuarded(), this.options.everyMs ?? CLEANUP_EVERY_MS);
    this.timer.unref();
  }

  /** Removes the uploads older than the hour that no message took, and contents whose upload never finished; answers how many uploads went. */
  sweep(): Promise<number> {
    this.running ??= this.options.storage.transaction((tx) => tx.attachments.deleteUnused(this.options.clock.now() - UNUSED_UPLOAD_MS))
      .finally(() => { this.running = undefined; });
    return this.running;
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** Nothing calls the timer's sweep to hear of a failure: a database away for a moment is tried again next time, anything else is logged. */
  private async sweepGuarded(): Promise<void> {
    try {
      await this.sweep();
    } catch (error) {
      if (!(error instanceof StoreUnavailableError || error instanceof StoreWriteRefusedError)) this.options.logError(error);
    }
  }
}
