// Invites on PostgreSQL: found by the SHA-256 of the code; a use is one conditional UPDATE, which a racing one waits on.
import type { ParsedQuery } from '../../parsers/query.ts';
import type { InviteRepository, InviteRow, Page } from '../store.ts';
import type { SqlColumns } from '../query-sql.ts';
import type { Sql } from './connection.ts';
import { listPage } from './collections.ts';

export const INVITE_ROW_COLUMNS = 'i.id, i.code_hash AS "codeHash", i.created_by AS "createdBy", i.role, i.max_uses AS "maxUses", i.uses, i.expires_at AS "expiresAt",'
  + ' i.created_at AS "createdAt", i.revoked_at AS "revokedAt"';

// The list reads the hash as hex text: the page travels as JSON (collections.ts), which has no bytes.
const LIST_SELECT = 'SELECT i.id, encode(i.code_hash, \'hex\') AS "codeHash", i.created_by AS "createdBy", i.role, i.max_uses AS "maxUses", i.uses,'
  + ' i.expires_at AS "expiresAt", i.created_at AS "createdAt", i.revoked_at AS "revokedAt" FROM invites i';

const INVITE_COLUMNS: SqlColumns = {
  idField: 'id',
  columns: {
    id: 'i.id', role: 'i.role', createdBy: 'i.created_by', maxUses: 'i.max_uses', uses: 'i.uses',
    expiresAt: 'i.expires_at', createdAt: 'i.created_at', revokedAt: 'i.revoked_at',
  },
};

export class PgInvites implements InviteRepository {
  private readonly sql: Sql;

  constructor(sql: Sql) {
    this.sql = sql;
  }

  async insertInvite(invite: InviteRow): Promise<void> {
    await this.sql.run('INSERT INTO invites (id, code_hash, created_by, role, max_uses, uses, expires_at, created_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [invite.id, invite.codeHash, invite.createdBy, invite.role, invite.maxUses, invite.uses, invite.expiresAt, invite.createdAt, invite.revokedAt]);
  }

  findInviteById(id: string): Promise<InviteRow | undefined> {
    return this.sql.one(`SELECT ${INVITE_ROW_COLUMNS} FROM invites i WHERE i.id = ?`, [id]);
  }

  findInviteByCodeHash(codeHash: Buffer): Promise<InviteRow | undefined> {
    return this.sql.one(`SELECT ${INVITE_ROW_COLUMNS} FROM invites i WHERE i.code_hash = ?`, [codeHash]);
  }

  /**
   * Read committed: a second UPDATE of the same row waits for the first to commit, then checks its WHERE again
   * against the row as the first left it, so two sign-ups racing for the last use cannot both count.
   */
  async useInvite(id: string, now: number): Promise<boolean> {
    return (await this.sql.count('UPDATE invites SET uses = uses + 1 WHERE id = ? AND revoked_at IS NULL'
      + ' AND (max_uses IS NULL OR uses < max_uses) AND (expires_at IS NULL OR expires_at > ?)', [id, now])) === 1;
  }

  async revokeInvite(id: string, now: number): Promise<boolean> {
    return (await this.sql.count('UPDATE invites SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL', [now, id])) === 1;
  }

  async listInvites(createdBy: string | undefined, query: ParsedQuery): Promise<Page<InviteRow>> {
    const scope = createdBy === undefined ? {} : { scope: 'i.created_by = ?', scopeParams: [createdBy] };
    const page = await listPage<Omit<InviteRow, 'codeHash'> & { codeHash: string }>(this.sql, { select: LIST_SELECT, columns: INVITE_COLUMNS, ...scope }, query);
    return { rows: page.rows.map((row) => ({ ...row, codeHash: Buffer.from(row.codeHash, 'hex') })), total: page.total };
  }
}
