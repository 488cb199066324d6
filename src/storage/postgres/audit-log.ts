// The audit log on PostgreSQL (docs/protocol.md §13), as storage/sqlite/audit-store.ts.
import type { AuditRepository, AuditRow } from '../store.ts';
import { detailText } from '../audit-record.ts';
import type { Sql } from './connection.ts';

export class PgAudit implements AuditRepository {
  private readonly sql: Sql;

  constructor(sql: Sql) {
    this.sql = sql;
  }

  async appendAudit(entry: AuditRow): Promise<void> {
    await this.sql.run('INSERT INTO audit_log (id, at, actor_id, action, target_type, target_id, detail) VALUES (?, ?, ?, ?, ?, ?, ?)',
      [entry.id, entry.at, entry.actorId, entry.action, entry.targetType, entry.targetId, detailText(entry)]);
  }
}
