// The loop every process runs over the outbound queue (docs/protocol.md §16.5): lease due deliveries, send each once,
// record what came of it. Woken after commits that queued work and by a poll; a lease held by a process that died
// runs out and another process takes the row. Which kind sends what is the registry's (outbound-kind.ts).
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Clock } from '../clock.ts';
import type { OutboundDeliveryRow, OutboundRepository } from '../storage/outbound-repository.ts';
import { judgeByStatus, type OutboundKinds, type Verdict } from './outbound-kind.ts';
import { postOnce, TOTAL_TIMEOUT_MS, type PostLimits, type PostReply } from './post-once.ts';
import { DEFAULT_RETRY_POLICY, scheduleRetry, type RetryPolicy } from './retry-schedule.ts';
import { resolveSafeTarget, TargetRefusedError, type ResolveHost } from './safe-target.ts';

export interface DeliveryLoopOptions {
  queue: OutboundRepository;
  kinds: OutboundKinds;
  clock: Clock;
  /** --webhook-allow-private (and later --push-allow-insecure): http:// and non-public addresses allowed. */
  allowPrivate: (kind: string) => boolean;
  logError: (error: unknown) => void;
  /** A poll finds what no wake-up announced (a retry come due, another process's queueing on SQLite). */
  pollMs?: number;
  /** Deliveries in flight at once in this process, every target together. */
  maxInFlight?: number;
  retry?: RetryPolicy;
  limits?: PostLimits;
  resolve?: ResolveHost;
}

/** Longer than a whole attempt can take, so a live owner's lease never runs out under it. */
const LEASE_MS = TOTAL_TIMEOUT_MS * 3;

export class DeliveryLoop {
  /** Names this process's leases: the host, the pid and a random part (a restarted pid is another owner). */
  readonly owner = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private readonly options: DeliveryLoopOptions;
  private inFlight = 0;
  private leasing = false;
  private again = false;
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly settledListeners = new Set<() => void>();

  constructor(options: DeliveryLoopOptions) {
    this.options = options;
  }

  start(): void {
    this.timer = setInterval(() => this.wake(), this.options.pollMs ?? 1000);
    this.timer.unref();
    this.wake();
  }

  /** Stops leasing; what is in flight ends by itself (a lease it cannot record runs out, and the row is sent again). */
  stop(): void {
    this.stopped = true;
    clearInterval(this.timer);
  }

  /** Something may be due: lease now (or right after the lease under way). */
  wake(): void {
    if (this.stopped) return;
    if (this.leasing) {
      this.again = true;
      return;
    }
    void this.leaseAndSend();
  }

  /** Resolves when nothing is in flight in this process (tests and the benchmark wait on it). */
  idle(): Promise<void> {
    if (this.inFlight === 0 && !this.leasing) return Promise.resolve();
    return new Promise((resolve) => {
      const check = (): void => {
        if (this.inFlight === 0 && !this.leasing) {
          this.settledListeners.delete(check);
          resolve();
        }
      };
      this.settledListeners.add(check);
    });
  }

  private async leaseAndSend(): Promise<void> {
    this.leasing = true;
    try {
      do {
        this.again = false;
        const room = (this.options.maxInFlight ?? 64) - this.inFlight;
        if (room <= 0) break;
        const now = this.options.clock.now();
        const rows = await this.options.queue.leaseDueDeliveries(this.owner, now, now + LEASE_MS, room);
        for (const row of rows) void this.sendOne(row);
        if (rows.length === room) this.again = true;
      } while (this.again && !this.stopped);
    } catch (error) {
      if (!this.stopped) this.options.logError(error);
    } finally {
      this.leasing = false;
      this.notifySettled();
    }
  }

  private async sendOne(row: OutboundDeliveryRow): Promise<void> {
    this.inFlight += 1;
    try {
      await this.attempt(row);
    } catch (error) {
      if (!this.stopped) this.options.logError(error);
    } finally {
      this.inFlight -= 1;
      // The target's next delivery may go now.
      this.wake();
      this.notifySettled();
    }
  }

  private async attempt(row: OutboundDeliveryRow): Promise<void> {
    const { queue, clock } = this.options;
    const kind = this.options.kinds.find(row.kind);
    const prepared = kind ? await kind.prepare(row, clock.now()) : null;
    if (!kind || !prepared) {
      const at = clock.now();
      await queue.recordAttempt(row.id, this.owner, { state: 'dropped', nextAttemptAt: at, at, status: null, error: kind ? 'target disabled or deleted' : `unknown kind ${row.kind}`, durationMs: null });
      return;
    }
    let reply: PostReply;
    try {
      const target = await resolveSafeTarget(prepared.url, { allowPrivate: this.options.allowPrivate(row.kind), resolve: this.options.resolve });
      reply = await postOnce(target, prepared.headers, prepared.body, this.options.limits);
    } catch (error) {
      if (!(error instanceof TargetRefusedError)) throw error;
      reply = { status: 0, headers: {}, body: Buffer.alloc(0), durationMs: 0, error: `refused: ${error.message}` };
    }
    const verdict: Verdict = (kind.judge ?? judgeByStatus)(reply);
    const at = clock.now();
    const attempt = { at, status: reply.status === 0 ? null : reply.status, error: reply.error ?? (verdict.outcome === 'delivered' ? null : `HTTP ${reply.status}`), durationMs: reply.durationMs };
    if (verdict.outcome === 'delivered') {
      if (await queue.recordAttempt(row.id, this.owner, { ...attempt, state: 'delivered', nextAttemptAt: at })) await this.tell(() => kind.delivered?.(row, reply));
      return;
    }
    const next = verdict.outcome === 'retry'
      ? scheduleRetry(this.options.retry ?? DEFAULT_RETRY_POLICY, row.createdAt, row.attempts + 1, at, verdict.afterMs)
      : undefined;
    if (next !== undefined) {
      await queue.recordAttempt(row.id, this.owner, { ...attempt, state: 'pending', nextAttemptAt: next });
      return;
    }
    if (await queue.recordAttempt(row.id, this.owner, { ...attempt, state: 'failed', nextAttemptAt: at })) await this.tell(() => kind.gaveUp?.(row, reply));
  }

  /** A kind's after-work: its failure is logged, never undoes what was recorded. */
  private async tell(work: () => Promise<void> | undefined): Promise<void> {
    try {
      await work();
    } catch (error) {
      this.options.logError(error);
    }
  }

  private notifySettled(): void {
    for (const listener of [...this.settledListeners]) listener();
  }
}
