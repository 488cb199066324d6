// The outbound queue's SQL that both backends share (docs/protocol.md §16.5): the columns, and the lease, whose
// rule (the head of each target's queue, due, not leased) is written once; PostgreSQL adds FOR UPDATE SKIP LOCKED.
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
 * Parameters: owner, leaseUntil, now, now, limit. The inner SELECT picks each target's first pending row (no
 * earlier pending row of its target) when it is due and unleased; `lock` is '' (SQLite: the UPDATE is one write
 * transaction, which no other process interleaves) or ' FOR UPDATE SKIP LOCKED' (PostgreSQL).
 */
export function leaseSql(lock: string): string {
  return 'UPDATE outbound_deliveries SET lease_owner = ?, lease_until = ? WHERE id IN ('
    + 'SELECT d.id FROM outbound_deliveries d WHERE d.state = \'pending\' AND d.next_attempt_at <= ?'
    + ' AND (d.lease_until IS NULL OR d.lease_until <= ?)'
    + ' AND NOT EXISTS (SELECT 1 FROM outbound_deliveries e WHERE e.state = \'pending\' AND e.kind = d.kind AND e.target_id = d.target_id AND e.id < d.id)'
    + ` ORDER BY d.next_attempt_at, d.id LIMIT ?${lock})`
    + ` RETURNING ${DELIVERY_COLUMNS_SQL.replaceAll('d.', '')}`;
}

/** Parameters: state, nextAttemptAt, at, status, error, durationMs, id, owner. */
export const RECORD_ATTEMPT_SQL = 'UPDATE outbound_deliveries SET state = ?, next_attempt_at = ?, attempts = attempts + 1, last_attempt_at = ?,'
  + ' last_status = ?, last_error = ?, last_duration_ms = ?, lease_owner = NULL, lease_until = NULL WHERE id = ? AND lease_owner = ?';

export const INSERT_DELIVERY_SQL = 'INSERT INTO outbound_deliveries (kind, target_id, event_id, payload, next_attempt_at, created_at) VALUES (?, ?, ?, ?, ?, ?)';

export const DROP_PENDING_SQL = 'UPDATE outbound_deliveries SET state = \'dropped\', lease_owner = NULL, lease_until = NULL WHERE kind = ? AND target_id = ? AND state = \'pending\'';

export const DELETE_DELIVERIES_SQL = 'DELETE FROM outbound_deliveries WHERE kind = ? AND target_id = ?';
