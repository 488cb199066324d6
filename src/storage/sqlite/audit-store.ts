// The audit log (docs/protocol.md §13): appended in the transaction of the change it records.
import type { AuditRow } from '../account-rows.ts';
import { detailText } from '../audit-record.ts';
import type { Db } from './database.ts';
import { prepareStatements, type Statements } from './statements.ts';

const SQL = {
  append: 'INSERT INTO audit_log (id, at, actor_id, action, target_type, target_id, detail) VALUES (?, ?, ?, ?, ?, ?, ?)',
};

export class AuditStore {
  private readonly sql: Statements<typeof SQL>;

  constructor(db: Db) {
    this.sql = prepareStatements(db, SQL);
  }

  appendAudit(entry: AuditRow): void {
    this.sql.append.run(entry.id, entry.at, entry.actorId, entry.action, entry.targetType, entry.targetId,
      detailText(entry));
  }
}
