// TEMPORARY stub of the foundation's record.ts (replaced by main's at merge).
import type { RequestContext } from '../context.ts';
import type { Tx } from '../../storage/store.ts';

export async function recordAudit(_tx: Tx, _ctx: RequestContext, _entry: { action: string; targetType: string; targetId: string; detail?: Record<string, unknown> | null }): Promise<void> {}
