// The one file that loads the `pg` driver (an optional dependency, imported only when --db names PostgreSQL), opens
// pools and single connections, and maps the driver's errors to the store's own.
import type { Client, ClientConfig, Pool, PoolClient } from 'pg';
import { redactDatabase as redactUrl } from '../database-url.ts';
import { DatabaseOpenError, StoreConstraintError, StoreUnavailableError, StoreWriteRefusedError, type WriteRefusal } from '../store.ts';

export type { Client, Pool, PoolClient };

/** What runs a query: the pool (one statement, any connection) or one connection (a transaction). */
export interface Queryable {
  query<R = any>(text: string, values?: unknown[]): Promise<{ rows: R[]; rowCount: number | null }>;
}

type PgModule = typeof import('pg');

let loaded: Promise<PgModule> | undefined;

/** Imports pg once; a missing optional dependency is a configuration error with one line to act on. */
export function loadDriver(): Promise<PgModule> {
  loaded ??= import('pg').then(
    (module) => ((module as unknown as { default?: PgModule }).default ?? module),
    () => {
      loaded = undefined;
      throw new DatabaseOpenError('the PostgreSQL driver is not installed: run `npm install pg` (an optional dependency), or use a SQLite file');
    },
  );
  return loaded;
}

// int8 (bigint: timestamps, counts, ids of the log) as a number: every value the schema keeps is below 2^53.
const INT8_OID = 20;

function configFor(pg: PgModule, url: string): ClientConfig {
  return {
    connectionString: url,
    application_name: 'chat-server',
    // A server that does not answer, or a pool busy that long, fails the request (503) instead of holding it for ever.
    connectionTimeoutMillis: 10_000,
    types: { getTypeParser: ((oid: number, format?: string) => (oid === INT8_OID ? Number : pg.types.getTypeParser(oid, format as 'text'))) as never },
  };
}

export async function createPool(url: string, size: number): Promise<Pool> {
  const pg = await loadDriver();
  const pool = new pg.Pool({ ...configFor(pg, url), max: size, idleTimeoutMillis: 30_000 });
  // An idle connection the server cut (a restart) is an event of the pool, not a crash of the process.
  pool.on('error', () => {});
  return pool;
}

export async function createClient(url: string): Promise<Client> {
  const pg = await loadDriver();
  return new pg.Client(configFor(pg, url));
}

const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOTFOUND',
  // admin_shutdown, crash_shutdown, cannot_connect_now, out_of_memory, too_many_connections, connection_exception family.
  '57P01', '57P02', '57P03', '53200', '53300', '08000', '08001', '08003', '08004', '08006',
]);

/** True when the error says the database cannot be reached now (down, restarting, cut), not that the query is wrong. */
export function isUnavailable(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: string; message?: string };
  if (code !== undefined && UNAVAILABLE_CODES.has(code)) return true;
  return /Connection terminated|connection error|timeout exceeded when trying to connect|Client was closed|not queryable/i.test(message ?? '');
}

/**
 * read_only_sql_transaction (a hot standby, default_transaction_read_only), and class 53 insufficient_resources:
 * disk_full, configuration_limit_exceeded. out_of_memory (53200) and too_many_connections (53300) pass in a
 * moment: they are in UNAVAILABLE_CODES instead.
 */
const REFUSALS = new Map<string, WriteRefusal>([
  ['25006', 'read-only'],
  ['53000', 'full'], ['53100', 'full'], ['53400', 'full'],
]);

/** Driver errors in the store's terms: constraint violations, refused writes, an unreachable database; anything else as is. */
export function mapError(error: unknown): unknown {
  const code = (error as { code?: string } | null)?.code;
  if (code === '23505') return new StoreConstraintError('unique', (error as Error).message, { cause: error });
  if (code === '23503') return new StoreConstraintError('foreign-key', (error as Error).message, { cause: error });
  const refusal = REFUSALS.get(code ?? '');
  if (refusal !== undefined) return new StoreWriteRefusedError(refusal, (error as Error).message, { cause: error });
  if (isUnavailable(error)) return new StoreUnavailableError('the database cannot be reached', { cause: error });
  return error;
}

/** Why a first connection failed, in words an operator can act on (the URL shown without its password). */
export function describeConnectFailure(url: string, error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: string; message?: string };
  const reason = code === 'ECONNREFUSED' ? 'connection refused (is PostgreSQL running there?)'
    : code === 'ENOTFOUND' || code === 'EAI_AGAIN' ? 'unknown host'
      : code === '28P01' || code === '28000' ? 'authentication failed'
        : code === '3D000' ? 'the database does not exist'
          : code === '25006' ? 'the database is read-only (a standby, or default_transaction_read_only): the server must write'
            : String(message ?? error).split('\n', 1)[0]!.replaceAll(url, redactUrl(url));
  return `cannot open the database ${redactUrl(url)}: ${reason}`;
}
