// The one storage interface: everything handlers, the event hub and the limiters need, asynchronous, backend-neutral.
//
// Each backend (storage/sqlite/, later storage/postgres/) implements `Store`; openStore() in open-store.ts picks
// one from the --db value. Nothing here names a driver or holds SQL: collections take the parsed query of
// parsers/query.ts (filters, sort keys, limit, offset by field name) and each backend turns it into its own SQL.
// Rows are the shapes of rows.ts, the same for every backend.
import type { InviteRepository } from './invite-repository.ts';
import type { OutboundRepository } from './outbound-repository.ts';
import type { IntegrationRepository } from './integration-repository.ts';
import type { PushRepository } from './push-repository.ts';
import type { KeptReads } from './kept-reads.ts';
import type { UserRepository, AuditRepository, SessionRepository, AvatarRepository, AccountRepository } from './people-repository.ts';
import type { ChatRepository, MessageRepository, ReadMarkerRepository, ReactionRepository, RevisionRepository } from './conversation-repository.ts';
import type { CollectionRepository } from './collection-repository.ts';
import type { EventRepository, RateCounterRepository } from './event-repository.ts';
import type { AttachmentRepository } from './attachment-repository.ts';

export type * from './rows.ts';
export type * from './account-rows.ts';
export type * from './people-repository.ts';
export type * from './conversation-repository.ts';
export type * from './collection-repository.ts';
export type * from './event-repository.ts';
export type * from './attachment-repository.ts';
export type { KeptReads, KeptValueKind } from './kept-reads.ts';
export type { InviteRepository } from './invite-repository.ts';
export type * from './outbound-repository.ts';
export type * from './integration-repository.ts';
export type * from './push-repository.ts';
export { NO_ATTACHMENTS, NO_CHAT, NO_MENTIONS, NO_REACTIONS } from './rows.ts';

/** The database cannot be opened as configured (a path, permission, schema or connection problem): a configuration error. */
export class DatabaseOpenError extends Error {
  override name = 'DatabaseOpenError';
}

/**
 * A write broke a constraint of the schema: `unique` (a login taken in any letter case) or `foreign-key` (a
 * member id naming no user). Backends map their driver's codes to this, so handlers can answer 409/422 without
 * knowing the engine (see isUniqueViolation / isForeignKeyViolation).
 */
export class StoreConstraintError extends Error {
  override name = 'StoreConstraintError';
  readonly constraint: 'unique' | 'foreign-key';

  constructor(constraint: 'unique' | 'foreign-key', message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.constraint = constraint;
  }
}

export function isUniqueViolation(error: unknown): boolean {
  return error instanceof StoreConstraintError && error.constraint === 'unique';
}

export function isForeignKeyViolation(error: unknown): boolean {
  return error instanceof StoreConstraintError && error.constraint === 'foreign-key';
}

/** The repositories, as one transaction or the store itself sees them. */
export interface Repositories {
  readonly users: UserRepository;
  readonly sessions: SessionRepository;
  readonly avatars: AvatarRepository;
  readonly chats: ChatRepository;
  readonly messages: MessageRepository;
  readonly readMarkers: ReadMarkerRepository;
  readonly reactions: ReactionRepository;
  readonly revisions: RevisionRepository;
  readonly collections: CollectionRepository;
  readonly events: EventRepository;
  readonly accounts: AccountRepository;
  readonly invites: InviteRepository;
  readonly audit: AuditRepository;
  readonly outbound: OutboundRepository;
  readonly integrations: IntegrationRepository;
  readonly push: PushRepository;
  readonly attachments: AttachmentRepository;
}

/** The repositories bound to one open transaction: valid only until its work's promise settles. */
export type Tx = Repositories;

export interface Store extends Repositories {
  /** Outside any transaction and not undone by a rollback (a limit counts even a request that failed). */
  readonly rateCounters: RateCounterRepository;
  /**
   * Runs work in one transaction: all of it commits, or (when work rejects) none of it, events included. A
   * read outside it never sees its uncommitted writes; transactions never interleave. Work must use `tx`.
   */
  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  /**
   * Like transaction, but may share one commit with other writes of the moment (group commit, for message
   * posts): resolves only after the shared COMMIT, and a rejecting work undoes only its own changes.
   */
  writeTogether<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  /** Runs reads in one consistent snapshot (other processes may write meanwhile); nothing may be written. */
  snapshot<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  /** Finishes queued writes, then closes; later calls reject. */
  close(): Promise<void>;
  /**
   * Carries a payload (at most 7,900 bytes) to every other server on this database, to the `onBroadcast` each was
   * opened with, within the second (PostgreSQL: a NOTIFY on a second channel); nothing is stored and a server not
   * listening at that moment never hears it. Undefined for SQLite: a file on one host, whose processes (--workers) the
   * primary relays between (src/workers.ts). The ephemeral bus rides on it (events/ephemeral-bus.ts).
   */
  readonly broadcast: ((payload: string) => Promise<void>) | undefined;
  /**
   * Another process on this file says the events through `id` are on disk (--workers: relayed with its wake-up,
   * src/workers.ts): the log's reads hand them out without a sync of their own (docs/events.md, "Durable before
   * delivered"). PostgreSQL: nothing to do, a commit is durable before anyone sees it.
   */
  eventsOnDisk(id: number): void;
  /** What opening the database did that its operator should hear of (an upgrade that made an admin): printed at start. */
  readonly notices: readonly string[];
  /**
   * One request's reads, kept between requests while the database is unchanged (storage/read-through.ts): `safe`
   * for GET and HEAD, the only ones that keep or find anything. A store that cannot tell whether anything was
   * written (PostgreSQL) makes every read.
   */
  keptReads(safe: boolean): KeptReads;
  /**
   * Why writes are refused since the last one was ('read-only', 'full'); undefined while they are not, which is
   * the usual case and costs nothing to ask. Cleared only by checkWrites.
   */
  readonly writesRefused: WriteRefusal | undefined;
  /**
   * After a refusal, commits one real write of a value the database already holds (docs/operations.md, "When the
   * database refuses writes") and answers writesRefused as it then stands: undefined once space or permission is back.
   */
  checkWrites(): Promise<WriteRefusal | undefined>;
}

/**
 * The database cannot be reached right now (a PostgreSQL server restarting, a connection cut): the request fails
 * with 503 and Retry-After instead of 500, and the next one may well succeed (the pool reconnects by itself).
 */
export class StoreUnavailableError extends Error {
  override name = 'StoreUnavailableError';
}

/** Why the database refuses writes: its file or server is read-only, or it has no space left. */
export type WriteRefusal = 'read-only' | 'full';

/**
 * The database refused a write for a reason an operator must fix (a read-only file or server, a full disk):
 * the request fails with 503 and its own problem code, not 500; nothing was changed.
 */
export class StoreWriteRefusedError extends Error {
  override name = 'StoreWriteRefusedError';

  readonly reason: WriteRefusal;

  constructor(reason: WriteRefusal, message: string, options?: ErrorOptions) {
    super(message, options);
    this.reason = reason;
  }
}
