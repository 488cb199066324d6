// The Store on PostgreSQL: a pool sized by --db-pool, a transaction per unit of work on one pooled connection,
// migrations on open, and a LISTEN connection that wakes the event hub when another server appends events.
import type { CommitListener } from '../commit-listener.ts';
import { DatabaseOpenError, type KeptReads, type Repositories, type Store, type Tx, type WriteRefusal } from '../store.ts';
import { ReadThrough, type ChatVersions } from '../read-through.ts';
import { RefusedWrites, TOUCH_SQL } from '../refused-writes.ts';
import { Sql } from './connection.ts';
import { PgCollections } from './collections.ts';
import { PgChats, PgMessages, PgReactions, PgReadMarkers, PgRevisions } from './conversations.ts';
import { createClient, createPool, describeConnectFailure, isUnavailable, mapError, type Pool, type PoolClient } from './driver.ts';
import { EPHEMERAL_CHANNEL, EventListener } from './event-listener.ts';
import { PgInvites } from './invites.ts';
import { PgOutbound } from './outbound.ts';
import { PgPush } from './push.ts';
import { PgIntegrations } from './integrations.ts';
import { PgEventLog, PgRateCounters, type TxEvents } from './event-log.ts';
import { checkServerVersion, migratePostgres } from './migrate.ts';
import { PgAvatars, PgSessions, PgUsers, type Guarded } from './people.ts';
import { PgAccounts } from './accounts.ts';
import { PgAudit } from './audit-log.ts';
import { PgAttachments } from './attachments.ts';
import { FIRST_ADMIN_SQL, ROLES_MIGRATION, upgradeNotices } from '../upgrade-notices.ts';

export interface PostgresStoreOptions {
  /** Connections in the pool (--db-pool). */
  poolSize?: number;
  /** false: no event is written (benchmarks only). */
  recordEvents?: boolean;
  /** false: no LISTEN connection (a process that only migrates or copies). */
  listen?: boolean;
  /** Told after each committed write transaction (the metrics count write batches: one each here). */
  onCommit?: (writes: number) => void;
  /** Told after each commit that appended events, and of every NOTIFY (docs/events.md): the event hub's wake-up. */
  commits?: CommitListener;
  /** Told each payload another server broadcast (NOTIFY on the ephemeral channel). */
  onBroadcast?: (payload: string) => void;
  /** For benchmarks only: false reads no change stamp, so nothing is kept (storage/read-through.ts). */
  keepReads?: boolean;
}

/** The change stamp of sql/postgres/014-change-stamp.sql: the sum of counters every committed write bumps. */
const CHANGE_STAMP_SQL = 'SELECT sum(n)::text AS stamp FROM change_stamps';
/** A chat's versions (sql/postgres/017-chat-versions.sql): what its kept pages and memberships are read under. */
const CHAT_VERSION_SQL = 'SELECT s.messages_version::text AS messages, c.members_version::text AS members FROM chats c JOIN chat_stats s ON s.chat_id = c.id WHERE c.id = $1';

export const DEFAULT_POOL_SIZE = 10;

/** deadlock_detected and serialization_failure: PostgreSQL undid the transaction; running it again is safe. */
const RETRYABLE = new Set(['40P01', '40001']);
const MAX_ATTEMPTS = 6;
/** A retry waits up to this many milliseconds times its number, at random. */
const RETRY_JITTER_MS = 20;

function codeOf(error: unknown): string | undefined {
  const cause = (error as { cause?: unknown })?.cause ?? error;
  return (cause as { code?: string } | null)?.code ?? (error as { code?: string } | null)?.code;
}

/** The repositories over one way of running SQL; `tx` is set inside a transaction. */
function pgRepositories(sql: Sql, tx: TxEvents | undefined, store: PostgresStore, recordEvents: boolean): Repositories {
  // In a transaction, a statement that may break a constraint runs in a savepoint: the caller may catch the
  // error and go on, as it can with SQLite, where only the statement fails.
  const guarded: Guarded = tx === undefined ? (statement) => statement() : async (statement) => {
    await sql.run('SAVEPOINT guarded');
    try {
      const result = await statement();
      await sql.run('RELEASE SAVEPOINT guarded');
      return result;
    } catch (error) {
      await sql.run('ROLLBACK TO SAVEPOINT guarded');
      throw error;
    }
  };
  return {
    users: new PgUsers(sql, guarded),
    sessions: new PgSessions(sql),
    avatars: new PgAvatars(sql),
    chats: new PgChats(sql, guarded),
    messages: new PgMessages(sql),
    readMarkers: new PgReadMarkers(sql),
    reactions: new PgReactions(sql),
    revisions: new PgRevisions(sql),
    collections: new PgCollections(sql),
    events: new PgEventLog(sql, tx, recordEvents, (work) => store.run('BEGIN', (client) => work(new Sql(client)))),
    accounts: new PgAccounts(sql),
    invites: new PgInvites(sql),
    audit: new PgAudit(sql),
    outbound: new PgOutbound(sql),
    integrations: new PgIntegrations(sql),
    push: new PgPush(sql),
    attachments: new PgAttachments(sql),
  };
}

/**
 * Writes and rolls back: a standby, a role without write rights or default_transaction_read_only would otherwise
 * start and fail every write (docs/operations.md). What went wrong is told by describeConnectFailure.
 */
async function proveWritable(client: PoolClient): Promise<void> {
  await client.query('BEGIN');
  try {
    await client.query(TOUCH_SQL);
  } finally {
    await client.query('ROLLBACK');
  }
}

export class PostgresStore implements Store {
  readonly users;
  readonly sessions;
  readonly avatars;
  readonly chats;
  readonly messages;
  readonly readMarkers;
  readonly reactions;
  readonly revisions;
  readonly collections;
  readonly events;
  readonly accounts;
  readonly invites;
  readonly audit;
  readonly outbound;
  readonly integrations;
  readonly push;
  readonly attachments;
  readonly rateCounters: PgRateCounters;
  private readonly refused = new RefusedWrites();
  private readonly hints: EventListener | undefined;
  /** What GETs keep between requests while the change stamp holds (every server's commits move it). */
  private readonly kept: ReadThrough;
  private closed = false;

  private readonly pool: Pool;
  private readonly options: PostgresStoreOptions;
  readonly notices: readonly string[];

  /** Committed is durable here: nothing to note (Store.eventsOnDisk). */
  eventsOnDisk(): void {}

  private constructor(pool: Pool, url: string, options: PostgresStoreOptions, notices: readonly string[]) {
    this.pool = pool;
    this.notices = notices;
    this.options = options;
    const sql = new Sql(pool, this.refused);
    // Outside a transaction: the pool's repositories (each statement on any free connection).
    const base = pgRepositories(sql, undefined, this, options.recordEvents ?? true);
    ({ users: this.users, sessions: this.sessions, avatars: this.avatars, chats: this.chats, messages: this.messages } = base);
    this.accounts = base.accounts;
    ({ readMarkers: this.readMarkers, reactions: this.reactions, revisions: this.revisions, collections: this.collections, events: this.events, audit: this.audit } = base);
    this.attachments = base.attachments;
    this.invites = base.invites;
    this.outbound = base.outbound;
    this.integrations = base.integrations;
    this.push = base.push;
    this.rateCounters = new PgRateCounters(sql);
    // One statement on any pooled connection, outside every transaction: it sees every write committed before it.
    this.kept = new ReadThrough(this, options.keepReads === false ? undefined : {
      change: async () => (await sql.one<{ stamp: string }>(CHANGE_STAMP_SQL))?.stamp,
      chat: (chatId) => sql.one<ChatVersions>(CHAT_VERSION_SQL, [chatId]),
    });
    this.hints = options.listen === false ? undefined : new EventListener({ connect: () => createClient(url), commits: options.commits, onBroadcast: options.onBroadcast });
  }

  /** Connects, checks the server (15 or newer), migrates once, starts listening. Rejects with a DatabaseOpenError. */
  static async open(url: string, options: PostgresStoreOptions = {}): Promise<PostgresStore> {
    const pool = await createPool(url, options.poolSize ?? DEFAULT_POOL_SIZE);
    let notices: string[] = [];
    try {
      const client = await pool.connect();
      try {
        await checkServerVersion(client);
        if ((await migratePostgres(client)).includes(ROLES_MIGRATION.postgres)) {
          notices = upgradeNotices((await client.query<{ login: string }>(FIRST_ADMIN_SQL)).rows[0]?.login);
        }
        await proveWritable(client);
      } finally {
        client.release();
      }
    } catch (error) {
      await pool.end().catch(() => {});
      if (error instanceof DatabaseOpenError) throw new DatabaseOpenError(`cannot use the database: ${error.message}`);
      throw new DatabaseOpenError(describeConnectFailure(url, error));
    }
    const store = new PostgresStore(pool, url, options, notices);
    await store.hints?.start();
    return store;
  }

  /** Runs work on one connection between `begin` and COMMIT; a deadlock or serialization failure runs it again. */
  async run<T>(begin: string, work: (client: PoolClient, tx: TxEvents) => Promise<T>): Promise<T> {
    if (this.closed) throw new Error('the store is closed');
    for (let attempt = 1; ; attempt++) {
      let client: PoolClient;
      try {
        client = await this.pool.connect();
      } catch (error) {
        throw mapError(error);
      }
      const tx: TxEvents = { appended: 0 };
      // A connection cut between two statements of the work is reported by its next statement; the event itself
      // (the pool listens only to idle connections) must not become an uncaught exception.
      const ignore = (): void => {};
      client.on('error', ignore);
      try {
        await client.query(begin);
        const result = await work(client, tx);
        await client.query('COMMIT');
        client.off('error', ignore);
        client.release();
        if (tx.appended > 0) this.options.commits?.eventsCommitted(tx.appended);
        return result;
      } catch (error) {
        const broken = isUnavailable(error) || isUnavailable((error as { cause?: unknown })?.cause);
        if (!broken) await client.query('ROLLBACK').catch(() => {});
        client.off('error', ignore);
        // A connection that broke is dropped from the pool rather than handed to the next request.
        client.release(broken ? (error as Error) : undefined);
        if (RETRYABLE.has(codeOf(error) ?? '') && attempt < MAX_ATTEMPTS) {
          // Apart from whoever it collided with, which may be retrying too: at once, two could meet again.
          await new Promise((resolve) => setTimeout(resolve, Math.random() * RETRY_JITTER_MS * attempt));
          continue;
        }
        throw this.refused.note(mapError(error));
      }
    }
  }

  async transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    const result = await this.run('BEGIN', (client, tx) => work(pgRepositories(new Sql(client), tx, this, this.options.recordEvents ?? true)));
    this.options.onCommit?.(1);
    return result;
  }

  /** PostgreSQL groups concurrent commits itself (its WAL writer): every write is its own transaction here. */
  writeTogether<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.transaction(work);
  }

  snapshot<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.run('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY', (client) => work(pgRepositories(new Sql(client), undefined, this, false)));
  }

  /** NOTIFY on the ephemeral channel through the pool; every server's listening connection hears it, this one's too. */
  readonly broadcast = async (payload: string): Promise<void> => {
    await new Sql(this.pool, this.refused).run('SELECT pg_notify(?, ?)', [EPHEMERAL_CHANNEL, payload]);
  };

  keptReads(safe: boolean): KeptReads {
    return this.kept.forRequest(safe);
  }

  get writesRefused(): WriteRefusal | undefined {
    return this.refused.reason;
  }

  checkWrites(): Promise<WriteRefusal | undefined> {
    return this.refused.check(() => this.run('BEGIN', async (client) => void await client.query(TOUCH_SQL)));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.kept.close();
    await this.hints?.stop();
    await this.pool.end();
  }
}
