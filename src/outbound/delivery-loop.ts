// The loop every process runs over the outbound queue (docs/protocol.md §16.5): lease due deliveries, send each once,
// record what came of it. Woken after commits that queued work and by a poll; a lease held by a process that died
// runs out and another process takes the row. Which kind sends what is the registry's (outbound-kind.ts).
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Clock } from '../clock.ts';
import type { AttemptRecord, OutboundDeliveryRow, OutboundRepository } from '../storage/outbound-repository.ts';
import { judgeByStatus, type OutboundKind, type OutboundKinds, type Verdict } from './outbound-kind.ts';
import { AttemptRecorder } from './attempt-recorder.ts';
import { KeepAliveAgents } from './keep-alive-agents.ts';
import { postOnce, TOTAL_TIMEOUT_MS, type PostLimits, type PostReply } from './post-once.ts';
import { DEFAULT_RETRY_POLICY, scheduleRetry, type RetryPolicy } from './retry-schedule.ts';
import { SendSlots } from './send-slots.ts';
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

/** Three whole attempts long: a batch sends its next row only while a whole attempt still fits in the lease. */
export const LEASE_MS = TOTAL_TIMEOUT_MS * 3;
/** Rows of one target leased and recorded together (one commit for up to this many POSTs). */
const BATCH = 64;

interface Attempted {
  row: OutboundDeliveryRow;
  kind: OutboundKind | undefined;
  reply: PostReply;
  record: AttemptRecord;
}

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
  private readonly recorder: AttemptRecorder;
  private readonly agents = new KeepAliveAgents();
  private readonly slots: SendSlots;

  constructor(options: DeliveryLoopOptions) {
    this.options = options;
    this.recorder = new AttemptRecorder(options.queue, this.owner);
    this.slots = new SendSlots((kind) => options.kinds.find(kind));
  }

  start(): void {
    this.timer = setInterval(() => this.wake(), this.options.pollMs ?? 1000);
    this.timer.unref();
    for (const kind of this.options.kinds.all()) if (kind.resume) void this.tell(() => kind.resume!());
    this.wake();
  }

  /** Stops leasing; what is in flight ends by itself (a lease it cannot record runs out, and the row is sent again). */
  stop(): void {
    this.stopped = true;
    clearInterval(this.timer);
    this.recorder.flushNow();
    // Idle keep-alive connections go once nothing is in flight (they never hold the process open meanwhile).
    void this.idle().then(() => this.agents.destroy());
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
        const maxInFlight = this.options.maxInFlight ?? 64;
        const room = maxInFlight - this.inFlight;
        // A lease is a commit: while most of the room is taken, wait for a quarter of it, rather than leasing one
        // row each time one finishes (a fan-out of 1,000 would be 1,000 leases).
        if (room <= 0 || (this.inFlight > 0 && room < Math.ceil(maxInFlight / 4))) break;
        const now = this.options.clock.now();
        const rows = await this.options.queue.leaseDueDeliveries(this.owner, now, now + LEASE_MS, room, BATCH);
        const leasedAt = performance.now();
        const batches = new Map<string, OutboundDeliveryRow[]>();
        for (const row of rows) {
          const key = `${row.kind} ${row.targetId}`;
          const batch = batches.get(key);
          if (batch) batch.push(row);
          else batches.set(key, [row]);
        }
        for (const batch of batches.values()) void this.sendBatch(batch, leasedAt);
        if (batches.size === room) this.again = true;
      } while (this.again && !this.stopped);
    } catch (error) {
      if (!this.stopped) this.options.logError(error);
    } finally {
      this.leasing = false;
      this.notifySettled();
    }
  }

  /**
   * One target's batch: its head and the rows right behind it, sent one after another while the lease has room for
   * a whole attempt more, stopping at the first that is not delivered; the attempts commit together, then the kinds
   * hear of them. A crash before that commit repeats the batch's answered POSTs (at least once).
   */
  private async sendBatch(rows: readonly OutboundDeliveryRow[], leasedAt: number): Promise<void> {
    this.inFlight += 1;
    try {
      const done: Attempted[] = [];
      for (const row of rows) {
        // A kind's share, one start per turn of the event loop (send-slots.ts); the lease is judged after the wait.
        const release = await this.slots.acquire(row.kind);
        if (this.stopped || performance.now() - leasedAt > LEASE_MS - TOTAL_TIMEOUT_MS * 1.5) {
          release();
          break;
        }
        const attempted = await this.attempt(row).finally(release);
        done.push(attempted);
        if (attempted.record.state === 'pending') break;
      }
      const released = rows.slice(done.length).map((row) => row.id);
      const recorded = await this.recorder.record(done.map((item) => ({ ...item.record, id: item.row.id })), released);
      for (const item of done) {
        if (!recorded.has(item.row.id) || !item.kind) continue;
        if (item.record.state === 'delivered') await this.tell(() => item.kind!.delivered?.(item.row, item.reply));
        if (item.record.state === 'failed') await this.tell(() => item.kind!.gaveUp?.(item.row, item.reply));
      }
    } catch (error) {
      if (!this.stopped) this.options.logError(error);
    } finally {
      this.inFlight -= 1;
      // The target's next delivery may go now.
      this.wake();
      this.notifySettled();
    }
  }

  /** Prepares and sends one row; answers what to record. */
  private async attempt(row: OutboundDeliveryRow): Promise<Attempted> {
    const { clock } = this.options;
    const kind = this.options.kinds.find(row.kind);
    const prepared = kind ? await kind.prepare(row, clock.now()) : null;
    const none: PostReply = { status: 0, headers: {}, body: Buffer.alloc(0), durationMs: 0, error: null };
    if (!kind || !prepared) {
      const at = clock.now();
      return { row, kind, reply: none, record: { state: 'dropped', nextAttemptAt: at, at, status: null, error: kind ? 'target disabled or deleted' : `unknown kind ${row.kind}`, durationMs: null } };
    }
    let reply: PostReply;
    try {
      const target = await resolveSafeTarget(prepared.url, { allowPrivate: this.options.allowPrivate(row.kind), resolve: this.options.resolve });
      reply = await postOnce(target, prepared.headers, prepared.body, this.options.limits, this.agents.agentFor(target));
    } catch (error) {
      if (!(error instanceof TargetRefusedError)) throw error;
      reply = { ...none, error: `refused: ${error.message}` };
    }
    const verdict: Verdict = (kind.judge ?? judgeByStatus)(reply);
    const at = clock.now();
    const base = { at, status: reply.status === 0 ? null : reply.status, error: reply.error ?? (verdict.outcome === 'delivered' ? null : `HTTP ${reply.status}`), durationMs: reply.durationMs };
    if (verdict.outcome === 'delivered') return { row, kind, reply, record: { ...base, state: 'delivered', nextAttemptAt: at } };
    const next = verdict.outcome === 'retry'
      ? scheduleRetry(this.options.retry ?? DEFAULT_RETRY_POLICY, row.createdAt, row.attempts + 1, at, verdict.afterMs)
      : undefined;
    return { row, kind, reply, record: next === undefined ? { ...base, state: 'failed', nextAttemptAt: at } : { ...base, state: 'pending', nextAttemptAt: next } };
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
