// The outbound queue's SQL that both backends share (docs/protocol.md §16.5): the columns, and the lease, whose
// rule (the head of each target's queue, due, not leased) is written once; PostgreSQL adds FOR UPDATE SKIP LOCKED.
import { MAX_KEPT_ATTEMPTS } from './outbound-repository.ts';
import type { SqlColumns } from './query-sql.ts';

export const DELIVERY_COLUMNS_SQL = 'd.id, d.kind, d.target_id AS "targetId", d.event_id AS "eventId", d.payload, d.state, d.attempts,'
  + ' d.next_attempt_at AS "nextAttemptAt", d.created_at AS "createdAt", d.last_attempt_at AS "lastAttemptAt",'
  + ' d.last_status AS "lastStatus", d.last_error AS "lastError", d.last_duration_ms AS "lastDurationMs"';

export const DELIVERY_SELECT = `SELECT ${DELIVERY_COLUMNS_SQL} FROM outbound_deliveries d`;

export const DELIVERY_LIST_COLUMNS: SqlColumns = {
  idField: 'id',
  columns: {
    id: 'd.id', eventId: 'd.event_id', state: 'd.state', attempts: 'd.attempts', nextAttemptAt: 'd.next_attempt_at',
    createdAt: 'd.created_at', lastAttemptAt: 'd.last_attempt_at', lastStatus: 'd.last_status',
  },
};

/**
 * Parameters: owner, leaseUntil, now, now, limit. The heads of the targets' queues (each target's first pending row,
 * found by the partial index) that are due and unleased; `lock` is '' (SQLite: the UPDATE is one write transaction,
 * which no other process interleaves) or ' FOR UPDATE OF d SKIP LOCKED' (PostgreSQL: rows another server is leasing
 * at that moment are skipped).
 */
export function leaseSql(lock: string): string {
  return 'UPDATE outbound_deliveries SET lease_owner = ?, lease_until = ? WHERE id IN ('
    + 'SELECT d.id FROM outbound_deliveries d JOIN (SELECT min(id) AS id FROM outbound_deliveries WHERE state = \'pending\' GROUP BY kind, target_id) h ON h.id = d.id'
    + ' WHERE d.next_attempt_at <= ? AND (d.lease_until IS NULL OR d.lease_until <= ?)'
    + ` ORDER BY d.next_attempt_at, d.id LIMIT ?${lock})`
    + ` RETURNING ${DELIVERY_COLUMNS_SQL.replaceAll('d.', '')}`;
}

/**
 * Parameters: owner, leaseUntil, kind, targetId, headId, now, limit. The pending rows right behind a head this owner
 * holds: no other process leases them, as none of them is a head while the head is pending.
 */
export const LEASE_FOLLOWERS_SQL = 'UPDATE outbound_deliveries SET lease_owner = ?, lease_until = ? WHERE id IN ('
  + 'SELECT id FROM outbound_deliveries WHERE kind = ? AND target_id = ? AND state = \'pending\' AND id > ?'
  + ' AND (lease_until IS NULL OR lease_until <= ?) ORDER BY id LIMIT ?)'
  + ` RETURNING ${DELIVERY_COLUMNS_SQL.replaceAll('d.', '')}`;

/** Parameters: id, owner. Gives a leased row back unattempted. */
export const RELEASE_SQL = 'UPDATE outbound_deliveries SET lease_owner = NULL, lease_until = NULL WHERE id = ? AND lease_owner = ?';

/** Parameters: state, nextAttemptAt, at, status, error, durationMs, id, owner. */
export const RECORD_ATTEMPT_SQL = 'UPDATE outbound_deliveries SET state = ?, next_attempt_at = ?, attempts = attempts + 1, last_attempt_at = ?,'
  + ' last_status = ?, last_error = ?, last_duration_ms = ?, lease_owner = NULL, lease_until = NULL WHERE id = ? AND lease_owner = ?';

/** Parameters: deliveryId, attempt, at, status, error, durationMs. */
export const INSERT_ATTEMPT_SQL = 'INSERT INTO outbound_attempts (delivery_id, attempt, at, status, error, duration_ms) VALUES (?, ?, ?, ?, ?, ?)';

/** Parameters: deliveryId, the newest attempt number. Keeps the newest MAX_KEPT_ATTEMPTS. */
export const TRIM_ATTEMPTS_SQL = `DELETE FROM outbound_attempts WHERE delivery_id = ? AND attempt <= ? - ${MAX_KEPT_ATTEMPTS}`;

export const ATTEMPT_COLUMNS_SQL = 'delivery_id AS "deliveryId", attempt, at, status, error, duration_ms AS "durationMs"';

export const FAILED_TARGETS_SQL = 'SELECT DISTINCT target_id AS "targetId" FROM outbound_deliveries WHERE kind = ? AND state = \'failed\'';

export const INSERT_DELIVERY_SQL = 'INSERT INTO outbound_deliveries (kind, target_id, event_id, payload, next_attempt_at, created_at) VALUES (?, ?, ?, ?, ?, ?)';

export const DROP_PENDING_SQL = 'UPDATE outbound_deliveries SET state = \'dropped\', lease_owner = NULL, lease_until = NULL WHERE kind = ? AND target_id = ? AND state = \'pending\'';

export const FIND_DELIVERY_SQL = `${DELIVERY_SELECT} WHERE d.id = ?`;

export const DELETE_DELIVERIES_SQL = 'DELETE FROM outbound_deliveries WHERE kind = ? AND target_id = ?';

/** At most `limit` finished deliveries (any state but pending) queued before a time, their attempts with them (index outbound_finished). */
export const DELETE_FINISHED_SQL = "DELETE FROM outbound_deliveries WHERE id IN (SELECT id FROM outbound_deliveries WHERE state <> 'pending' AND created_at < ? LIMIT ?)";
