// Applies sql/postgres/*.sql in order, once, whichever of several servers starts first (an advisory lock).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DatabaseOpenError } from '../store.ts';
import type { Queryable } from './driver.ts';

export interface PostgresMigration {
  version: number;
  name: string;
  sql: string;
}

/** PostgreSQL 15 or newer (docs/protocol.md §12.2): older ones lack what the schema uses (e.g. normalize() in every build, or unaccent as a trusted extension). */
export const MINIMUM_SERVER_VERSION = 150000;

/** Advisory lock keys of this application: (namespace, what). */
export const LOCK_NAMESPACE = 0x63686174;
export const MIGRATION_LOCK = 1;

const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'sql', 'postgres');

// The single executable has no sql/ beside it: scripts/build-binary.ts defines this from loadPostgresMigrations().
declare const CHAT_SERVER_PG_MIGRATIONS: PostgresMigration[] | undefined;

export function loadPostgresMigrations(dir: string = MIGRATIONS_DIR): PostgresMigration[] {
  if (dir === MIGRATIONS_DIR && typeof CHAT_SERVER_PG_MIGRATIONS !== 'undefined') return CHAT_SERVER_PG_MIGRATIONS;
  return readdirSync(dir)
    .filter((file) => /^\d{3}-[a-z0-9-]+\.sql$/.test(file))
    .sort()
    .map((file) => ({ version: Number(file.slice(0, 3)), name: file, sql: readFileSync(join(dir, file), 'utf8') }));
}

/** Refuses a server older than 15, with its version in the message. */
export async function checkServerVersion(db: Queryable): Promise<void> {
  const { rows } = await db.query<{ num: string; text: string }>("SELECT current_setting('server_version_num') AS num, current_setting('server_version') AS text");
  const found = rows[0]!;
  if (Number(found.num) < MINIMUM_SERVER_VERSION) {
    throw new DatabaseOpenError(`PostgreSQL ${found.text} is too old: chat-server needs PostgreSQL 15 or newer`);
  }
}

/**
 * Applies every migration newer than the recorded version, all in one transaction, holding a session advisory
 * lock so that servers starting together migrate once. `db` must be one connection (not a pool). Answers the
 * versions applied.
 */
export async function migratePostgres(db: Queryable, migrations: readonly PostgresMigration[] = loadPostgresMigrations()): Promise<number[]> {
  await db.query('SELECT pg_advisory_lock($1, $2)', [LOCK_NAMESPACE, MIGRATION_LOCK]);
  try {
    await db.query('CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at bigint NOT NULL)');
    const { rows } = await db.query<{ v: number }>('SELECT coalesce(max(version), 0) AS v FROM schema_migrations');
    const current = rows[0]!.v;
    const newest = Math.max(0, ...migrations.map((migration) => migration.version));
    // An older server on a newer schema would corrupt it silently: refuse instead.
    if (current > newest) {
      throw new DatabaseOpenError(`its schema version ${current} is newer than this server's (${newest}); run a newer chat-server`);
    }
    const pending = migrations.filter((migration) => migration.version > current);
    if (pending.length === 0) return [];
    await db.query('BEGIN');
    try {
      for (const migration of pending) {
        await db.query(migration.sql);
        await db.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [migration.version, migration.name, Date.now()]);
      }
      await db.query('COMMIT');
    } catch (error) {
      await db.query('ROLLBACK').catch(() => {});
      throw error;
    }
    return pending.map((migration) => migration.version);
  } finally {
    await db.query('SELECT pg_advisory_unlock($1, $2)', [LOCK_NAMESPACE, MIGRATION_LOCK]).catch(() => {});
  }
}
