// The WAL's checkpoint on a thread of its own (docs/storage.md, "Checkpoints"). SQLite copies the WAL back into the
// database file once it holds 1,000 pages, inside the COMMIT that crossed the mark, on the thread that committed: the
// event loop. That second write of every byte was 30-50 % of an upload's time, and every request waited behind it.
// Here a worker thread with a connection of its own runs `PRAGMA wal_checkpoint(PASSIVE)`, which never blocks the
// writer or a reader, every 20 ms while the WAL grows and every 200 ms while it does not; the event loop's connection
// checkpoints by itself only once the WAL reaches 32 MiB (the thread is behind, or gone). Where no thread can run (the
// single executable has no better-sqlite3 to load in one) or it fails, the connection checkpoints as SQLite does.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { Db } from './database.ts';

/** SQLite's own mark, in pages: what the connection goes back to without the thread. */
export const SQLITE_CHECKPOINT_PAGES = 1000;
/** The connection's mark while the thread runs: it checkpoints only if the thread falls this far behind. */
export const FALLBACK_CHECKPOINT_PAGES = 8192;
/** The thread's pause between two looks: while the WAL grows, and while it does not. */
const BUSY_MS = 20;
const IDLE_MS = 200;

export interface CheckpointSettings {
  /** better-sqlite3's module file, as the thread loads it. */
  module: string;
  path: string;
  /** One Int32: 1 asks the thread to stop (it wakes at once). */
  stop: SharedArrayBuffer;
  busyMs: number;
  idleMs: number;
}

/**
 * The thread's whole program. It runs from its own source text (`String(checkpointLoop)`): a worker started from a file
 * would load the TypeScript loader the server runs under, which costs more than the work. Hence plain code, no imports:
 * `load` is the thread's require.
 */
export function checkpointLoop(settings: CheckpointSettings, load: (module: string) => unknown): void {
  const Database = load(settings.module) as typeof import('better-sqlite3');
  const db = new Database(settings.path, { fileMustExist: true });
  const stop = new Int32Array(settings.stop);
  let lastLog = -1;
  let pause = settings.busyMs;
  try {
    while (Atomics.wait(stop, 0, 0, pause) === 'timed-out') {
      const [row] = db.pragma('wal_checkpoint(PASSIVE)') as { busy: number; log: number; checkpointed: number }[];
      // Frames appended since the last look, or some still to copy: writes are under way, look again soon.
      const growing = row!.log !== lastLog || row!.checkpointed < row!.log;
      lastLog = row!.log;
      pause = growing ? settings.busyMs : settings.idleMs;
    }
  } finally {
    db.close();
  }
}

export class Checkpointer {
  private readonly worker: Worker;
  private readonly stopFlag: Int32Array;
  private readonly exited: Promise<unknown>;

  private constructor(worker: Worker, stopFlag: Int32Array) {
    this.worker = worker;
    this.stopFlag = stopFlag;
    // Not events.once: it rejects on the 'error' that comes before the exit of a failed thread.
    this.exited = new Promise((resolve) => worker.once('exit', resolve));
  }

  /** Starts the thread for the file `path` whose connection is `db`; undefined where none can run. */
  static start(db: Db, path: string, logError: (error: unknown) => void): Checkpointer | undefined {
    let module: string;
    try {
      module = createRequire(import.meta.url).resolve('better-sqlite3');
    } catch {
      return undefined;
    }
    const stop = new SharedArrayBuffer(4);
    const settings: CheckpointSettings = { module, path, stop, busyMs: BUSY_MS, idleMs: IDLE_MS };
    // execArgv: [] keeps the server's loader (tsx, in development) out of the thread: it needs none.
    const worker = new Worker(`(${String(checkpointLoop)})(require('node:worker_threads').workerData, require)`, { eval: true, execArgv: [], workerData: settings });
    const checkpointer = new Checkpointer(worker, new Int32Array(stop));
    db.pragma(`wal_autocheckpoint = ${FALLBACK_CHECKPOINT_PAGES}`);
    let handedBack = false;
    const handBack = (error: unknown): void => {
      if (handedBack) return;
      handedBack = true;
      if (db.open) db.pragma(`wal_autocheckpoint = ${SQLITE_CHECKPOINT_PAGES}`);
      logError(error);
    };
    // A failure is an 'error' and then an 'exit'; an exit without one (terminated) is a failure too, unless asked.
    worker.on('error', handBack);
    worker.on('exit', (code) => {
      if (Atomics.load(checkpointer.stopFlag, 0) === 0) handBack(new Error(`the checkpoint thread ended (exit code ${code}); the connection checkpoints by itself`));
    });
    // The thread never holds the process open; close() ends it.
    worker.unref();
    return checkpointer;
  }

  /** Ends the thread and its connection, before the store closes its own (the last one checkpoints and removes the WAL). */
  async stop(): Promise<void> {
    Atomics.store(this.stopFlag, 0, 1);
    Atomics.notify(this.stopFlag, 0);
    // Held now: an unref'd thread is nothing the process waits for, and it could end before the thread does.
    this.worker.ref();
    await this.exited;
  }
}
