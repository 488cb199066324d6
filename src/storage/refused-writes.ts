// What a store remembers of the last refused write (read-only, full), so that /health says it until its own check passes.
import { StoreWriteRefusedError, type WriteRefusal } from './store.ts';

/**
 * The write that proves the database takes writes, at start (rolled back) and from /health (committed): the newest
 * migration's row set to the value it has, so nothing changes. Plain SQL that SQLite and PostgreSQL both take.
 */
export const TOUCH_SQL = 'UPDATE schema_migrations SET name = name WHERE version = (SELECT max(version) FROM schema_migrations)';

export class RefusedWrites {
  /** The reason of the last refusal; undefined once check() passed after it. */
  reason: WriteRefusal | undefined;

  /** Notes the reason when `error` is a refusal; answers `error` unchanged, for `throw refused.note(error)`. */
  note(error: unknown): unknown {
    if (error instanceof StoreWriteRefusedError) this.reason = error.reason;
    return error;
  }

  /**
   * Runs `probe` (a real, committed write) only while refused; its outcome sets the reason. Only this clears it, not
   * a request's write that happened to fit: /health answers by one rule, not by whichever write came last.
   */
  check(probe: () => Promise<void>): Promise<WriteRefusal | undefined> {
    if (this.reason === undefined) return Promise.resolve(undefined);
    // Checks asked for together share one probe: a flood of /health costs one write at a time, not one each.
    this.checking ??= this.probe(probe).finally(() => {
      this.checking = undefined;
    });
    return this.checking;
  }

  private checking: Promise<WriteRefusal | undefined> | undefined;

  private async probe(probe: () => Promise<void>): Promise<WriteRefusal | undefined> {
    try {
      await probe();
      this.reason = undefined;
    } catch (error) {
      if (!(this.note(error) instanceof StoreWriteRefusedError)) throw error;
    }
    return this.reason;
  }
}
