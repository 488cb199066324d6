// The invites table: a row per invite, found by the SHA-256 of its code; a use is one conditional UPDATE.
import type { ParsedQuery } from '../../parsers/query.ts';
import type { Page } from '../rows.ts';
import type { InviteRow } from '../account-rows.ts';
import type { Db } from './database.ts';
import { PageRunner } from './list-page.ts';
import type { SqlColumns } from './query-sql.ts';

const COLUMNS = 'i.id, i.code_hash AS codeHash, i.created_by AS createdBy, i.role, i.max_uses AS maxUses, i.uses, i.expires_at AS expiresAt,'
  + ' i.created_at AS createdAt, i.revoked_at AS revokedAt';

export const INVITE_SELECT = `SELECT ${COLUMNS} FROM invites i`;

export const INVITE_COLUMNS: SqlColumns = {
  idField: 'id',
  columns: {
    id: 'i.id', role: 'i.role', createdBy: 'i.created_by', maxUses: 'i.max_uses', uses: 'i.uses',
    expiresAt: 'i.expires_at', createdAt: 'i.created_at', revokedAt: 'i.revoked_at',
  },
};

export class InviteStore {
  private readonly insert;
  private readonly byId;
  private readonly byCodeHash;
  private readonly use;
  private readonly revoke;
  private readonly pages: PageRunner;

  constructor(db: Db) {
    this.insert = db.prepare('INSERT INTO invites (id, code_hash, created_by, role, max_uses, uses, expires_at, created_at, revoked_at)'
      + ' VALUES (@id, @codeHash, @createdBy, @role, @maxUses, @uses, @expiresAt, @createdAt, @revokedAt)');
    this.byId = db.prepare(`${INVITE_SELECT} WHERE i.id = ?`);
    this.byCodeHash = db.prepare(`${INVITE_SELECT} WHERE i.code_hash = ?`);
    // The conditions and the increment in one statement: two sign-ups cannot both take the last use.
    this.use = db.prepare('UPDATE invites SET uses = uses + 1 WHERE id = @id AND revoked_at IS NULL'
      + ' AND (max_uses IS NULL OR uses < max_uses) AND (expires_at IS NULL OR expires_at > @now)');
    this.revoke = db.prepare('UPDATE invites SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL');
    this.pages = new PageRunner(db);
  }

  insertInvite(invite: InviteRow): void {
    this.insert.run(invite);
  }

  findInviteById(id: string): InviteRow | undefined {
    return this.byId.get(id) as InviteRow | undefined;
  }

  findInviteByCodeHash(codeHash: Buffer): InviteRow | undefined {
    return this.byCodeHash.get(codeHash) as InviteRow | undefined;
  }

  useInvite(id: string, now: number): boolean {
    return this.use.run({ id, now }).changes === 1;
  }

  revokeInvite(id: string, now: number): boolean {
    return this.revoke.run(now, id).changes === 1;
  }

  listInvites(createdBy: string | undefined, query: ParsedQuery): Page<InviteRow> {
    const scope = createdBy === undefined ? {} : { scope: 'i.created_by = ?', scopeParams: [createdBy] };
    return this.pages.listPage<InviteRow>({ select: INVITE_SELECT, columns: INVITE_COLUMNS, ...scope }, query);
  }
}
