// Opens the Store the --db value names: a file path or :memory: is SQLite; the one place a backend is chosen.
import type { Store } from './store.ts';
import { isPostgresUrl } from './database-url.ts';
import { PostgresStore } from './postgres/postgres-store.ts';
import { SqliteStore, type SqliteStoreOptions } from './sqlite/sqlite-store.ts';

/** Options every backend understands; those a backend has no use for (synchronous, groupCommit) it ignores. */
export interface StoreConfig extends SqliteStoreOptions {
  /** --db: a SQLite file path or `:memory:`; a postgres:// URL is for storage/postgres/. */
  db: string;
  /** PostgreSQL only: connections in the pool (--db-pool). */
  poolSize?: number;
  /** PostgreSQL only: told each payload another server broadcast (Store.broadcast). */
  onBroadcast?: (payload: string) => void;
}

interface Backend {
  /** True when this backend serves the --db value. */
  accepts(db: string): boolean;
  open(config: StoreConfig): Promise<Store>;
}

/**
 * Tried in order; the last one takes every path. A PostgreSQL backend goes first, accepting
 * `postgres://` and `postgresql://` URLs, and loads its driver lazily in its own open().
 */
const BACKENDS: readonly Backend[] = [
  {
    accepts: isPostgresUrl,
    open: ({ db, poolSize, recordEvents, onCommit, commits, onBroadcast, keepReads }) => PostgresStore.open(db, { poolSize, recordEvents, onCommit, commits, onBroadcast, keepReads }),
  },
  { accepts: () => true, open: async ({ db, onBroadcast: _unused, ...options }) => new SqliteStore(db, options) },
];

/** Rejects with a DatabaseOpenError (one line for the operator) when the database cannot be opened. */
export async function openStore(config: StoreConfig): Promise<Store> {
  const backend = BACKENDS.find((candidate) => candidate.accepts(config.db))!;
  return backend.open(config);
}
