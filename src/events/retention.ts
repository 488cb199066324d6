// Events older than the retention (--event-retention) leave the log: pruned a chunk at a time, so requests go on.
import type { HubTimers } from './hub-timers.ts';
import type { HubOptions } from './hub-options.ts';

const PRUNE_CHUNK = 2000;

export class Retention {
  private pruning = false;

  private readonly options: Pick<HubOptions, 'log' | 'now' | 'retentionSeconds'>;
  private readonly timers: HubTimers;

  constructor(options: Pick<HubOptions, 'log' | 'now' | 'retentionSeconds'>, timers: HubTimers) {
    this.options = options;
    this.timers = timers;
  }

  /** Prunes events older than the retention, a chunk per turn of the loop so requests go on meanwhile. */
  async prune(): Promise<void> {
    if (this.pruning) return;
    this.pruning = true;
    const cutoff = this.options.now() - this.options.retentionSeconds * 1000;
    try {
      // Each chunk is its own transaction; the turn of the loop between chunks lets requests go on.
      while (!this.timers.isStopped && await this.options.log.pruneChunk(cutoff, PRUNE_CHUNK) === PRUNE_CHUNK) {
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    } finally {
      this.pruning = false;
    }
  }
}
