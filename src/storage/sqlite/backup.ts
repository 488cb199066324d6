// An online, consistent copy of a SQLite database through SQLite's backup API, safe while other processes write.
import Database from 'better-sqlite3';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { loadEmbeddedAddon } from '../../binary/native-addon.ts';

export interface BackupOptions {
  /**
   * Pages copied per step. SQLite restarts a backup when another connection writes between two steps, so the
   * default copies every page in one step: one read transaction, one snapshot, and no restart under writes.
   */
  pagesPerStep?: number;
  /** Called between steps (tests write here to show that a restarted backup is still consistent). */
  onStep?: (progress: { totalPages: number; remainingPages: number }) => void;
}

export interface BackupResult {
  pages: number;
  /** PRAGMA integrity_check of the copy: "ok" when sound. */
  integrity: string;
}

export class BackupError extends Error {
  override name = 'BackupError';
}

/**
 * Copies `source` to `destination`, which must not exist yet. The copy is written beside it under a temporary
 * name and renamed at the end, so a failed backup never leaves a file that looks complete.
 */
export async function backupDatabase(source: string, destination: string, options: BackupOptions = {}): Promise<BackupResult> {
  if (source === ':memory:') throw new BackupError('an in-memory database (:memory:) has nothing to back up');
  if (!existsSync(source)) throw new BackupError(`no database at ${source}`);
  if (existsSync(destination)) throw new BackupError(`${destination} already exists; choose a new file name`);
  mkdirSync(dirname(destination), { recursive: true });
  const partial = `${destination}.partial-${process.pid}`;
  const nativeBinding = loadEmbeddedAddon() as unknown as string | undefined;
  // Read-only: a backup never changes the live database, and needs no migrations.
  const db = new Database(source, { readonly: true, fileMustExist: true, nativeBinding });
  try {
    db.pragma('busy_timeout = 5000');
    const pagesPerStep = options.pagesPerStep ?? 0x7fffffff;
    const progress = await db.backup(partial, {
      progress: (step) => {
        options.onStep?.(step);
        return pagesPerStep;
      },
    });
    const copy = new Database(partial, { nativeBinding });
    let integrity: string;
    try {
      integrity = (copy.pragma('integrity_check') as { integrity_check: string }[]).map((row) => row.integrity_check).join('; ');
    } finally {
      copy.close();
    }
    if (integrity !== 'ok') throw new BackupError(`the copy failed its integrity check: ${integrity}`);
    renameSync(partial, destination);
    return { pages: progress.totalPages, integrity };
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  } finally {
    db.close();
  }
}
