// Writes one audit entry (docs/protocol.md §13) in the transaction of the change it records: the entry and the
// change commit or roll back together.
import type { RequestContext } from '../context.ts';
import { newId } from '../../storage/ids.ts';
import type { Tx } from '../../storage/store.ts';

export interface AuditEntry {
  /** `<noun>.<verb>`: user.promote, invite.create, message.delete, ... */
  action: string;
  targetType: 'user' | 'invite' | 'chat' | 'message' | 'member' | 'session' | 'webhook';
  targetId: string;
  detail?: Record<string, unknown>;
  /** Who acted; the caller unless said (an invite's use is the new user's act). */
  actorId?: string | null;
}

/** Records what a request did: its caller acts (unless the entry names the actor), at the server's clock. */
export async function recordAudit(tx: Tx, ctx: RequestContext, entry: AuditEntry): Promise<void> {
  const actorId = entry.actorId !== undefined ? entry.actorId : ctx.caller?.userId ?? null;
  await appendAuditEntry(tx, ctx.services.clock.now(), { ...entry, actorId });
}

/** Records an act at `at`; no actor (null) is the server's own act, as `chat-server admin` on the database. */
export async function appendAuditEntry(tx: Tx, at: number, entry: AuditEntry): Promise<void> {
  await tx.audit.appendAudit({
    id: newId(at), at, actorId: entry.actorId ?? null,
    action: entry.action, targetType: entry.targetType, targetId: entry.targetId, detail: entry.detail ?? null,
  });
}
