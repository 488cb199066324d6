// The outbound delivery queue on PostgreSQL (docs/protocol.md §16.5): the lease skips rows another server is
// leasing at that moment (FOR UPDATE SKIP LOCKED), so two servers never lease the same row.
import type { ParsedQuery } from '../../parsers/query.ts';
import { MAX_KEPT_ATTEMPTS, type AttemptRecord, type DeliveryAttemptRow, type NewDelivery, type OutboundDeliveryRow, type OutboundRepository } from '../outbound-repository.ts';
import {
  ATTEMPT_COLUMNS_SQL, DELETE_DELIVERIES_SQL, DELETE_FINISHED_SQL, DELIVERY_LIST_COLUMNS, DELIVERY_SELECT, DROP_PENDING_SQL, FAILED_TARGETS_SQL, FIND_DELIVERY_SQL, INSERT_DELIVERY_SQL,
  LEASE_FOLLOWERS_SQL, leaseSql, RECORD_ATTEMPT_SQL, RELEASE_SQL,
} from '../outbound-sql.ts';
import type { Page } from '../rows.ts';
import type { Sql } from './connection.ts';
import { listPage } from './collections.ts';

const LEASE_SQL = leaseSql(' FOR UPDATE OF d SKIP LOCKED');

/**
 * Parameters: RECORD_ATTEMPT_SQL's, then at, status, error, durationMs. The row's update, its attempt's row and the
 * trimming of its oldest attempts in one statement (one round trip, one commit); inserts 1 row when the lease held.
 */
const RECORD_WITH_ATTEMPT_SQL = `WITH done AS (${RECORD_ATTEMPT_SQL} RETURNING id, attempts),`
  + ` trimmed AS (DELETE FROM outbound_attempts a USING done WHERE a.delivery_id = done.id AND a.attempt <= done.attempts - ${MAX_KEPT_ATTEMPTS})`
  + ' INSERT INTO outbound_attempts (delivery_id, attempt, at, status, error, duration_ms) SELECT id, attempts, ?::bigint, ?::integer, ?::text, ?::integer FROM done';

const ATTEMPTS_SQL = `SELECT ${ATTEMPT_COLUMNS_SQL} FROM outbound_attempts WHERE delivery_id = ANY(?::bigint[]) ORDER BY delivery_id, attempt`;

/** bigint columns arrive as text from pg: the queue's are numbers well inside 2^53. */
function toRow(row: Record<string, unknown>): OutboundDeliveryRow {
  const number = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));
  return {
    ...(row as unknown as OutboundDeliveryRow),
    id: Number(row.id), eventId: number(row.eventId), nextAttemptAt: Number(row.nextAttemptAt), createdAt: Number(row.createdAt),
    lastAttemptAt: number(row.lastAttemptAt), lastStatus: number(row.lastStatus), lastDurationMs: number(row.lastDurationMs),
  };
}

export class PgOutbound implements OutboundRepository {
  private readonly sql: Sql;

  constructor(sql: Sql) {
    this.sql = sql;
  }

  async enqueueDelivery(delivery: NewDelivery): Promise<number> {
    const row = await this.sql.one<{ id: string }>(`${INSERT_DELIVERY_SQL} RETURNING id`,
      [delivery.kind, delivery.targetId, delivery.eventId, delivery.payload, delivery.createdAt, delivery.createdAt]);
    return Number(row!.id);
  }

  /** The heads first (their lease commits), then each one's batch: no other server leases a row behind a held head. */
  async leaseDueDeliveries(owner: string, now: number, leaseUntil: number, limit: number, perTarget = 1): Promise<OutboundDeliveryRow[]> {
    const heads = (await this.sql.rows<Record<string, unknown>>(LEASE_SQL, [owner, leaseUntil, now, now, limit])).map(toRow);
    const rows = [...heads];
    if (perTarget > 1) {
      for (const head of heads) {
        rows.push(...(await this.sql.rows<Record<string, unknown>>(LEASE_FOLLOWERS_SQL, [owner, leaseUntil, head.kind, head.targetId, head.id, now, perTarget - 1])).map(toRow));
      }
    }
    return rows.sort((a, b) => a.id - b.id);
  }

  /** Each UPDATE commits on its own: PostgreSQL's commits do not hold up this process, and a lost one only repeats a POST. */
  async recordAttempts(owner: string, attempts: readonly (AttemptRecord & { id: number })[], released: readonly number[]): Promise<number[]> {
    const recorded: number[] = [];
    for (const attempt of attempts) if (await this.recordAttempt(attempt.id, owner, attempt)) recorded.push(attempt.id);
    for (const id of released) await this.sql.run(RELEASE_SQL, [id, owner]);
    return recorded;
  }

  async recordAttempt(id: number, owner: string, attempt: AttemptRecord): Promise<boolean> {
    const reply = [attempt.at, attempt.status, attempt.error, attempt.durationMs];
    return (await this.sql.count(RECORD_WITH_ATTEMPT_SQL, [attempt.state, attempt.nextAttemptAt, ...reply, id, owner, ...reply])) === 1;
  }

  async findDelivery(id: number): Promise<OutboundDeliveryRow | undefined> {
    const row = await this.sql.one<Record<string, unknown>>(FIND_DELIVERY_SQL, [id]);
    return row === undefined ? undefined : toRow(row);
  }

  dropPendingDeliveries(kind: string, targetId: string): Promise<number> {
    return this.sql.count(DROP_PENDING_SQL, [kind, targetId]);
  }

  deleteDeliveriesOf(kind: string, targetId: string): Promise<number> {
    return this.sql.count(DELETE_DELIVERIES_SQL, [kind, targetId]);
  }

  deleteFinishedDeliveries(before: number, limit: number): Promise<number> {
    return this.sql.count(DELETE_FINISHED_SQL, [before, limit]);
  }

  async listDeliveries(kind: string, targetId: string, query: ParsedQuery): Promise<Page<OutboundDeliveryRow>> {
    const page = await listPage<Record<string, unknown>>(this.sql, { select: DELIVERY_SELECT, columns: DELIVERY_LIST_COLUMNS, scope: 'd.kind = ? AND d.target_id = ?', scopeParams: [kind, targetId] }, query);
    return { rows: page.rows.map(toRow), total: page.total };
  }

  async listAttempts(deliveryIds: readonly number[]): Promise<DeliveryAttemptRow[]> {
    if (deliveryIds.length === 0) return [];
    const rows = await this.sql.rows<Record<string, unknown>>(ATTEMPTS_SQL, [deliveryIds]);
    return rows.map((row) => ({ ...(row as unknown as DeliveryAttemptRow), deliveryId: Number(row.deliveryId), at: Number(row.at) }));
  }

  async listTargetsWithFailures(kind: string): Promise<string[]> {
    return (await this.sql.rows<{ targetId: string }>(FAILED_TARGETS_SQL, [kind])).map((row) => row.targetId);
  }
}
