// An audit entry as every backend stores it: its detail a JSON text, read back into an object.
import type { AuditRow } from './account-rows.ts';

export type AuditRecord = Omit<AuditRow, 'detail'> & { detail: string | null };

export function auditFromRecord(record: AuditRecord): AuditRow {
  return { ...record, detail: record.detail === null ? null : JSON.parse(record.detail) as Record<string, unknown> };
}

export function detailText(entry: AuditRow): string | null {
  return entry.detail === null ? null : JSON.stringify(entry.detail);
}
