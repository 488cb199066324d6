// Opens the SQLite database: pragmas, migrations from sql/migrations applied in order, in a transaction.
import Database from 'better-sqlite3';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadEmbeddedAddon } from '../../binary/native-addon.ts';
import { TOUCH_SQL } from '../refused-writes.ts';
import { DatabaseOpenError, StoreConstraintError, StoreUnavailableError, StoreWriteRefusedError, type WriteRefusal } from '../store.ts';

export type Db = Database.Database;

export { DatabaseOpenError };

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'sql', 'migrations');

// The single executable has no sql/ beside it: scripts/build-binary.ts defines this constant
// as the output of loadMigrations() at build time, so the one listing of migrations stays here.
declare const CHAT_SERVER_MIGRATIONS: Migration[] | undefined;

function defaultMigrations(): Migration[] {
  return typeof CHAT_SERVER_MIGRATIONS === 'undefined' ? loadMigrations() : CHAT_SERVER_MIGRATIONS;
}

export function loadMigrations(dir: string = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .filter((file) => /^\d{3}-[a-z0-9-]+\.sql$/.test(file))
    .sort()
    .map((file) => ({ version: Number(file.slice(0, 3)), name: file, sql: readFileSync(join(dir, file), 'utf8') }));
}

/** Applies every migration newer than the recorded version, all in one transaction. */
export function migrate(db: Db, migrations: readonly Migration[]): number[] {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL) STRICT');
  const current = (db.prepare('SELECT coalesce(max(version), 0) AS v FROM schema_migrations').get() as { v: number }).v;
  const newest = Math.max(0, ...migrations.map((migration) => migration.version));
  // Running an older server on a newer database would corrupt it silently: refuse instead.
  if (current > newest) {
    throw new DatabaseOpenError(`its schema version ${current} is newer than this server's (${newest}); run a newer chat-server`);
  }
  const pending = migrations.filter((migration) => migration.version > current);
  const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
  db.transaction(() => {
    for (const migration of pending) {
      db.exec(migration.sql);
      record.run(migration.version, migration.name, Date.now());
    }
  })();
  return pending.map((migration) => migration.version);
}

export interface OpenOptions {
  /** false: skip proving at open that the file takes writes (a copy that only reads it, e.g. `migrate`). */
  proveWritable?: boolean;
  /** FULL (the default) syncs the WAL at every commit; NORMAL exists only so benchmarks can compare; OFF is for the rate counters' own connection. */
  synchronous?: 'FULL' | 'NORMAL' | 'OFF';
  /** Told the versions of the migrations this open applied (none when the schema was current). */
  migrated?: (versions: number[]) => void;
}

/**
 * Creates each missing directory one level at a time. Node 20's mkdirSync({ recursive: true }) never
 * returns for a path under /proc (it retries the ENOENT forever), so a bad --db would hang the start.
 */
function ensureDirectory(dir: string): void {
  if (existsSync(dir)) {
    if (!statSync(dir).isDirectory()) throw new DatabaseOpenError(`${dir} is not a directory`);
    return;
  }
  const parent = dirname(dir);
  if (parent !== dir) ensureDirectory(parent);
  mkdirSync(dir);
}

// What a newcomer can act on, for the errors a bad --db gives; anything else keeps SQLite's own words.
const OPEN_FAILURES = new Map([
  ['SQLITE_NOTADB', 'the file is not an SQLite database'],
  ['SQLITE_CANTOPEN', 'the file cannot be opened or created there (check the permissions of it and its directory)'],
  ['SQLITE_READONLY', 'the server cannot write the file (check its owner and permissions, and those of its directory)'],
  ['SQLITE_PERM', 'permission denied'],
  ['SQLITE_CORRUPT', 'the file is corrupt'],
  ['EACCES', 'permission denied'],
  ['EPERM', 'operation not permitted'],
  ['EROFS', 'the file system is read-only'],
  ['ENOENT', 'a directory on the way does not exist and cannot be created'],
  ['ENOTDIR', 'a part of the path is a file, not a directory'],
]);

function describeOpenFailure(error: unknown): string {
  if (error instanceof DatabaseOpenError) return error.message;
  const { code, message } = error as { code?: string; message?: string };
  // SQLITE_READONLY_DBMOVED, _CANTLOCK, ...: every kind of read-only says the same to the operator.
  const general = code?.startsWith('SQLITE_READONLY') ? 'SQLITE_READONLY' : code;
  return OPEN_FAILURES.get(general ?? '') ?? String(message ?? error).split('\n', 1)[0]!;
}

/** Switches a connection to synchronous=NORMAL for a transaction of its own, and back to its own level after. */
export interface RelaxedSync {
  normal(): void;
  restore(): void;
}

/**
 * The connection's own level (FULL unless a benchmark chose otherwise) and NORMAL, prepared once (SQLite applies this
 * PRAGMA each time it runs, unlike busy_timeout); undefined when the connection does not sync on commit anyway.
 * Either is refused inside a transaction: callers switch before BEGIN and back after COMMIT or ROLLBACK.
 */
export function relaxedSync(db: Db): RelaxedSync | undefined {
  const level = db.pragma('synchronous', { simple: true }) as number;
  if (level <= 1) return undefined;
  const normal = db.prepare('PRAGMA synchronous = NORMAL');
  const restore = db.prepare(`PRAGMA synchronous = ${level}`);
  return { normal: () => void normal.run(), restore: () => void restore.run() };
}

/**
 * Runs `work`, a transaction of its own, at synchronous=NORMAL: it commits without waiting for the disk, and the next
 * FULL commit (which syncs the whole WAL) puts it on disk too. Inside another transaction the other's commit decides.
 */
export function withoutSync<T>(db: Db, relaxed: RelaxedSync | undefined, work: () => T): T {
  const relax = relaxed !== undefined && !db.inTransaction ? relaxed : undefined;
  relax?.normal();
  try {
    return work();
  } finally {
    relax?.restore();
  }
}

/** How long a statement waits for another process's lock before SQLITE_BUSY (a 503): write-lock.ts waits as long. */
export const BUSY_TIMEOUT_MS = 5000;

/**
 * Takes the write lock and writes (TOUCH_SQL), then rolls back: the file is left as it was (docs/operations.md).
 * Opening a file read-only succeeds (SQLite quietly falls back to reading it), so only a write proves the server can serve.
 */
function proveWritable(db: Db): void {
  db.exec('BEGIN IMMEDIATE');
  try {
    db.exec(TOUCH_SQL);
  } finally {
    if (db.inTransaction) db.exec('ROLLBACK');
  }
}

export function openDatabase(path: string, migrations: readonly Migration[] = defaultMigrations(), options: OpenOptions = {}): Db {
  let db: Db | undefined;
  try {
    if (path !== ':memory:') {
      ensureDirectory(dirname(resolve(path)));
      if (existsSync(path) && statSync(path).isDirectory()) throw new DatabaseOpenError('it is a directory, not a database file');
    }
    // better-sqlite3 also takes the addon's exports object (its issue #972), which @types/better-sqlite3 omits;
    // undefined, everywhere but the single executable, keeps its usual lookup in node_modules.
    db = new Database(path, { nativeBinding: loadEmbeddedAddon() as unknown as string | undefined });
    // WAL lets readers run beside the writer; FULL syncs the WAL at every commit, so an
    // acknowledged write survives power loss, not only a process crash.
    db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${options.synchronous ?? 'FULL'}`);
    db.pragma('foreign_keys = ON');
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    const applied = migrate(db, migrations);
    options.migrated?.(applied);
    if (options.proveWritable !== false) proveWritable(db);
    return db;
  } catch (error) {
    db?.close();
    throw new DatabaseOpenError(`cannot open the database ${path}: ${describeOpenFailure(error)}`);
  }
}

// SQLite's extended result codes for a broken constraint, as the store's neutral kinds (https://sqlite.org/rescode.html).
const CONSTRAINTS = new Map<string, 'unique' | 'foreign-key'>([
  ['SQLITE_CONSTRAINT_UNIQUE', 'unique'],
  ['SQLITE_CONSTRAINT_PRIMARYKEY', 'unique'],
  ['SQLITE_CONSTRAINT_FOREIGNKEY', 'foreign-key'],
]);

/**
 * SQLITE_FULL (the disk, or the file system's quota), every SQLITE_READONLY_*, and an I/O error of a write (a file
 * system remounted read-only after a fault, a failing disk): writes refused until an operator acts.
 */
function refusalOf(code: string): WriteRefusal | undefined {
  if (code === 'SQLITE_FULL') return 'full';
  if (code.startsWith('SQLITE_READONLY')) return 'read-only';
  return code.startsWith('SQLITE_IOERR') && !UNAVAILABLE.test(code) ? 'read-only' : undefined;
}

/**
 * The file is there but cannot be used this moment: another process holds the write lock past busy_timeout (an
 * operator's sqlite3 shell, a long transaction), a read failed, memory ran out. 503 with a short Retry-After.
 */
const UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|NOMEM|PROTOCOL|IOERR_READ|IOERR_SHORT_READ|IOERR_NOMEM)(_|$)/;

/** Maps SQLite errors to domain meaning, so that handlers can answer 409 or 503 instead of 500 without knowing SQLite. */
export function toStoreError(error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return error;
  const constraint = CONSTRAINTS.get(code);
  if (constraint !== undefined) return new StoreConstraintError(constraint, (error as Error).message, { cause: error });
  if (UNAVAILABLE.test(code)) return new StoreUnavailableError(`the database is busy or failed a read (${code})`, { cause: error });
  const refusal = refusalOf(code);
  return refusal === undefined ? error : new StoreWriteRefusedError(refusal, (error as Error).message, { cause: error });
}
