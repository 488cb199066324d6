// The outbound delivery queue on SQLite (docs/protocol.md §16.5): the lease is one UPDATE ... RETURNING, a write
// transaction of its own, so two processes on one file never lease the same row.
import type { ParsedQuery } from '../../parsers/query.ts';
import { MAX_KEPT_ATTEMPTS, type AttemptRecord, type DeliveryAttemptRow, type NewDelivery, type OutboundDeliveryRow } from '../outbound-repository.ts';
import {
  ATTEMPT_COLUMNS_SQL, DELETE_DELIVERIES_SQL, DELETE_FINISHED_SQL, DELIVERY_LIST_COLUMNS, DELIVERY_SELECT, DROP_PENDING_SQL, FAILED_TARGETS_SQL, FIND_DELIVERY_SQL, INSERT_ATTEMPT_SQL,
  INSERT_DELIVERY_SQL, LEASE_FOLLOWERS_SQL, leaseSql, RECORD_ATTEMPT_SQL, RELEASE_SQL, TRIM_ATTEMPTS_SQL,
} from '../outbound-sql.ts';
import type { Page } from '../rows.ts';
import { relaxedSync, withoutSync, type Db, type RelaxedSync } from './database.ts';
import type { QueuedWork } from './queued-work.ts';
import { PageRunner } from './list-page.ts';
import { prepareStatements } from './statements.ts';

export class OutboundStore {
  /**
   * Rows the queue's own bookkeeping (leases, attempts recorded, rows given back) changed on this connection: the
   * change stamp of kept reads leaves them out (docs/performance.md, "Kept reads"), since no kept read shows a
   * delivery's state; otherwise each of a fan-out's commits would retire every kept read of the API.
   */
  bookkeepingChanges = 0;
  private readonly statements;
  private readonly totalChanges: () => number;
  /**
   * The queue's bookkeeping commits without waiting for the disk (synchronous=NORMAL for its own transactions; in WAL
   * mode the next FULL commit syncs them too): a power cut may forget the last leases and outcomes, and those
   * deliveries are sent again (at least once, as after a SIGKILL). Nothing queued is forgotten: a delivery is queued in
   * the FULL transaction of what caused it. A commit's WAL sync on the event loop took up to 90 ms (docs/push.md).
   */
  private readonly relaxSync: RelaxedSync | undefined;
  private readonly db: Db;
  private readonly pages: PageRunner;
  private readonly leaseBatches: (owner: string, now: number, leaseUntil: number, limit: number, perTarget: number) => OutboundDeliveryRow[];
  private readonly recordOne: (id: number, owner: string, attempt: AttemptRecord) => boolean;
  private readonly recordBatch: (owner: string, attempts: readonly (AttemptRecord & { id: number })[], released: readonly number[]) => number[];

  private readonly queuedWork: QueuedWork | undefined;

  constructor(db: Db, queuedWork?: QueuedWork) {
    this.queuedWork = queuedWork;
    this.statements = prepareStatements(db, {
      insert: INSERT_DELIVERY_SQL,
      lease: leaseSql(''),
      record: `${RECORD_ATTEMPT_SQL} RETURNING attempts`,
      insertAttempt: INSERT_ATTEMPT_SQL,
      trimAttempts: TRIM_ATTEMPTS_SQL,
      // One statement for any number of ids: they come as a JSON array.
      attempts: `SELECT ${ATTEMPT_COLUMNS_SQL} FROM outbound_attempts WHERE delivery_id IN (SELECT value FROM json_each(?)) ORDER BY delivery_id, attempt`,
      failedTargets: FAILED_TARGETS_SQL,
      drop: DROP_PENDING_SQL,
      remove: DELETE_DELIVERIES_SQL,
      removeFinished: DELETE_FINISHED_SQL,
      find: FIND_DELIVERY_SQL,
      followers: LEASE_FOLLOWERS_SQL,
      release: RELEASE_SQL,
    });
    const totalChanges = db.prepare('SELECT total_changes()').pluck();
    this.totalChanges = () => totalChanges.get() as number;
    this.relaxSync = relaxedSync(db);
    this.db = db;
    this.leaseBatches = db.transaction((owner: string, now: number, leaseUntil: number, limit: number, perTarget: number) => {
      const heads = this.statements.lease.all(owner, leaseUntil, now, now, limit) as OutboundDeliveryRow[];
      const rows = [...heads];
      if (perTarget > 1) {
        for (const head of heads) rows.push(...this.statements.followers.all(owner, leaseUntil, head.kind, head.targetId, head.id, now, perTarget - 1) as OutboundDeliveryRow[]);
      }
      return rows.sort((a, b) => a.id - b.id);
    });
    this.recordBatch = db.transaction((owner: string, attempts: readonly (AttemptRecord & { id: number })[], released: readonly number[]) => {
      const recorded = attempts.filter((attempt) => this.writeAttempt(attempt.id, owner, attempt)).map((attempt) => attempt.id);
      for (const id of released) this.statements.release.run(id, owner);
      return recorded;
    });
    this.recordOne = db.transaction((id: number, owner: string, attempt: AttemptRecord) => this.writeAttempt(id, owner, attempt));
    this.pages = new PageRunner(db);
  }

  enqueueDelivery(delivery: NewDelivery): number {
    const result = this.statements.insert.run(delivery.kind, delivery.targetId, delivery.eventId, delivery.payload, delivery.createdAt, delivery.createdAt);
    this.queuedWork?.note();
    return Number(result.lastInsertRowid);
  }

  /** Heads and their batches in one write transaction: one commit for up to limit x perTarget rows. */
  leaseDueDeliveries(owner: string, now: number, leaseUntil: number, limit: number, perTarget = 1): OutboundDeliveryRow[] {
    return this.countBookkeeping(() => this.leaseBatches(owner, now, leaseUntil, limit, perTarget));
  }

  recordAttempts(owner: string, attempts: readonly (AttemptRecord & { id: number })[], released: readonly number[]): number[] {
    return this.countBookkeeping(() => this.recordBatch(owner, attempts, released));
  }

  recordAttempt(id: number, owner: string, attempt: AttemptRecord): boolean {
    return this.countBookkeeping(() => this.recordOne(id, owner, attempt));
  }

  /** The row's update and its attempt's row: inside recordOne's or recordBatch's transaction. */
  private writeAttempt(id: number, owner: string, attempt: AttemptRecord): boolean {
    const row = this.statements.record.get(attempt.state, attempt.nextAttemptAt, attempt.at, attempt.status, attempt.error, attempt.durationMs, id, owner) as { attempts: number } | undefined;
    if (row === undefined) return false;
    this.statements.insertAttempt.run(id, row.attempts, attempt.at, attempt.status, attempt.error, attempt.durationMs);
    if (row.attempts > MAX_KEPT_ATTEMPTS) this.statements.trimAttempts.run(id, row.attempts);
    return true;
  }

  /**
   * Runs synchronous bookkeeping (nothing else runs on the connection meanwhile) and counts the rows it changed. Never
   * nested: a row counted twice would move the stamp back, to a value an older kept read may hold.
   */
  private countBookkeeping<T>(work: () => T): T {
    const before = this.totalChanges();
    try {
      return withoutSync(this.db, this.relaxSync, work);
    } finally {
      this.bookkeepingChanges += this.totalChanges() - before;
    }
  }

  findDelivery(id: number): OutboundDeliveryRow | undefined {
    return this.statements.find.get(id) as OutboundDeliveryRow | undefined;
  }

  dropPendingDeliveries(kind: string, targetId: string): number {
    return this.statements.drop.run(kind, targetId).changes;
  }

  deleteDeliveriesOf(kind: string, targetId: string): number {
    return this.statements.remove.run(kind, targetId).changes;
  }

  /** Bookkeeping too: no kept read shows a delivery, so the change stamp leaves it out. */
  deleteFinishedDeliveries(before: number, limit: number): number {
    return this.countBookkeeping(() => this.statements.removeFinished.run(before, limit).changes);
  }

  listDeliveries(kind: string, targetId: string, query: ParsedQuery): Page<OutboundDeliveryRow> {
    return this.pages.listPage<OutboundDeliveryRow>({ select: DELIVERY_SELECT, columns: DELIVERY_LIST_COLUMNS, scope: 'd.kind = ? AND d.target_id = ?', scopeParams: [kind, targetId] }, query);
  }

  listAttempts(deliveryIds: readonly number[]): DeliveryAttemptRow[] {
    return deliveryIds.length === 0 ? [] : this.statements.attempts.all(JSON.stringify(deliveryIds)) as DeliveryAttemptRow[];
  }

  listTargetsWithFailures(kind: string): string[] {
    return (this.statements.failedTargets.all(kind) as { targetId: string }[]).map((row) => row.targetId);
  }
}
