// Revisions of a message's text: the earlier texts (message_revisions, kept by a trigger) followed by the current one.
import type { RevisionRow } from '../rows.ts';
import type { Db } from './database.ts';

/**
 * Every version of one message's text as one collection, so it answers the query conventions through the
 * page runner: the stored earlier texts, then the current text (numbered after them, dated by its editedAt,
 * or its createdAt if never edited). Bind the message id twice (REVISION_SELECT_PARAMS).
 */
export const REVISION_SELECT = 'SELECT v.id, v.text, v.createdAt FROM ('
  + 'SELECT n AS id, text, created_at AS createdAt FROM message_revisions WHERE message_id = ?'
  + ' UNION ALL SELECT (SELECT count(*) FROM message_revisions WHERE message_id = m.id) + 1, m.text, coalesce(m.edited_at, m.created_at)'
  + ' FROM messages m WHERE m.id = ?) v';

export const REVISION_SELECT_PARAMS = (messageId: string): string[] => [messageId, messageId];

export class RevisionStore {
  private readonly one;

  constructor(db: Db) {
    this.one = db.prepare(`${REVISION_SELECT} WHERE v.id = ?`);
  }

  /** Revision n of a message (1 = as posted; the highest = the current text), or undefined. */
  findRevision(messageId: string, n: number): RevisionRow | undefined {
    return this.one.get(...REVISION_SELECT_PARAMS(messageId), n) as RevisionRow | undefined;
  }
}
