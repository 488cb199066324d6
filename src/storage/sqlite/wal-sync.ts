// The commit's disk sync off the event loop (docs/performance.md, "The commit's sync"). At synchronous=FULL SQLite
// syncs the WAL inside COMMIT, on the calling thread: on a busy server that was the largest single cost of the event
// loop (16 % of it at 10,000 users). Here a transaction runs at synchronous=NORMAL (the WAL is written, not synced),
// then the WAL file is synced on libuv's thread pool, and only then are its writes acknowledged and its events
// woken. The caller holds the connection's gate across both, so nothing in this process reads the commit before it
// is on disk: from outside it is FULL, while the loop parses, renders and writes to sockets meanwhile. NORMAL in WAL
// mode keeps the file safe on its own (the WAL is synced before each checkpoint, the database after it).
// Under --workers another process can read a commit in the moment between it and its sync: its event log reads wait
// for a sync of their own before handing such events out (sqlite-store.ts, onDisk), so no stream ever gets an event
// an OS crash could take back; a page read there in that moment can show a message such a crash would lose, never
// one whose writer was answered (docs/workers.md).
import { fdatasync, openSync, closeSync } from 'node:fs';
import { StoreWriteRefusedError } from '../store.ts';
import type { Db, RelaxedSync } from './database.ts';

/** fdatasync on the thread pool; tests hand their own to hold a sync open. */
export type SyncFile = (fd: number) => Promise<void>;

const syncOnThreadPool: SyncFile = (fd) => new Promise((resolve, reject) => {
  fdatasync(fd, (error) => (error ? reject(error) : resolve()));
});

function openWal(path: string): number | undefined {
  try {
    return openSync(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

export class WalSync {
  private readonly relaxed: RelaxedSync;
  private readonly walPath: string;
  private readonly syncFile: SyncFile;
  /** The WAL file, opened at the first sync (SQLite creates it with the first write). */
  private fd: number | undefined;

  /** For a connection on a file that syncs on commit (database.ts's relaxedSync is defined for it). */
  constructor(db: Db, relaxed: RelaxedSync, syncFile: SyncFile = syncOnThreadPool) {
    this.relaxed = relaxed;
    this.walPath = `${db.name}-wal`;
    this.syncFile = syncFile;
  }

  /**
   * Runs one whole transaction, BEGIN to COMMIT or ROLLBACK (SQLite will not change the level inside one), without
   * the sync, then syncs, while the caller holds the gate: it answers once the commit is on disk.
   */
  async commit<T>(transaction: () => Promise<T>): Promise<T> {
    this.relaxed.normal();
    let result: T;
    try {
      result = await transaction();
    } finally {
      this.relaxed.restore();
    }
    await this.syncNow();
    return result;
  }

  /**
   * Puts everything committed so far on disk, whichever process committed it (a sync of the file covers every
   * write made to it before); a failed sync refuses writes as SQLite's own failed sync would.
   */
  async syncNow(): Promise<void> {
    try {
      this.fd ??= openWal(this.walPath);
      // No WAL file: no commit was written to one, so there is nothing to sync (SQLite makes it at the first read).
      if (this.fd !== undefined) await this.syncFile(this.fd);
    } catch (error) {
      const full = (error as NodeJS.ErrnoException).code === 'ENOSPC';
      throw new StoreWriteRefusedError(full ? 'full' : 'read-only', `syncing the WAL failed: ${(error as Error).message}`, { cause: error });
    }
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}

/** Runs one whole transaction and answers once it is on disk: through walSync when there is one, else as SQLite syncs it, inside COMMIT. */
export function durably<T>(walSync: WalSync | undefined, transaction: () => Promise<T>): Promise<T> {
  return walSync ? walSync.commit(transaction) : transaction();
}
