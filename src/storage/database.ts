// Opens the SQLite database: pragmas, migrations from sql/migrations applied in order, in a transaction.
import Database from 'better-sqlite3';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadEmbeddedAddon } from '../binary/native-addon.ts';

export type Db = Database.Database;

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'sql', 'migrations');

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
  /** FULL (the default) syncs the WAL at every commit; NORMAL exists only so benchmarks can compare; OFF is for the rate counters' own connection. */
  synchronous?: 'FULL' | 'NORMAL' | 'OFF';
}

export function openDatabase(path: string, migrations: readonly Migration[] = defaultMigrations(), options: OpenOptions = {}): Db {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  // better-sqlite3 also takes the addon's exports object (its issue #972), which @types/better-sqlite3 omits;
  // undefined, everywhere but the single executable, keeps its usual lookup in node_modules.
  const db = new Database(path, { nativeBinding: loadEmbeddedAddon() as unknown as string | undefined });
  // WAL lets readers run beside the writer; FULL syncs the WAL at every commit, so an
  // acknowledged write survives power loss, not only a process crash.
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${options.synchronous ?? 'FULL'}`);
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db, migrations);
  return db;
}

/** Maps SQLite errors to domain meaning, so that stores can answer 409 instead of 500. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
