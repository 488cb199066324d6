// The Store on SQLite: one connection, a store per table prepared once, and an async face on their synchronous calls.
import { statfsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { CommitListener } from '../commit-listener.ts';
import { StoreWriteRefusedError, type KeptReads, type RateCounterRepository, type Repositories, type Store, type Tx, type WriteRefusal } from '../store.ts';
import { MemoryRateCounters } from '../memory-rate-counters.ts';
import { ReadThrough, type ChatVersions } from '../read-through.ts';
import { RefusedWrites, TOUCH_SQL } from '../refused-writes.ts';
import { asRepositories, asyncRepositories, settle, type SyncRepositories } from './async-repositories.ts';
import { AuditStore } from './audit-store.ts';
import { AttachmentStore } from './attachment-store.ts';
import { AvatarStore } from './avatar-store.ts';
import { ChatStore } from './chat-store.ts';
import { SqliteCollections } from './collections.ts';
import { openDatabase, relaxedSync, toStoreError, type Db, type OpenOptions } from './database.ts';
import { EventStore } from './event-store.ts';
import { QueuedWork } from './queued-work.ts';
import { durably, WalSync, type SyncFile } from './wal-sync.ts';
import { LockBusy, WriteLock, type Begin } from './write-lock.ts';
import { Checkpointer, SQLITE_CHECKPOINT_PAGES } from './checkpointer.ts';
import { Gate } from './gate.ts';
import { GroupCommit, type GroupCommitOptions } from './group-commit.ts';
import { InviteStore } from './invite-store.ts';
import { MessageStore } from './message-store.ts';
import { OutboundStore } from './outbound-store.ts';
import { IntegrationStore } from './integration-store.ts';
import { PushStore } from './push-store.ts';
import { SqliteRateCounters } from './rate-counter-store.ts';
import { ReactionStore } from './reaction-store.ts';
import { ReadMarkerStore } from './read-marker-store.ts';
import { RevisionStore } from './revision-store.ts';
import { SessionStore } from './session-store.ts';
import { UserStore } from './user-store.ts';
import { AccountStore } from './account-store.ts';
import { FIRST_ADMIN_SQL, ROLES_MIGRATION, upgradeNotices } from '../upgrade-notices.ts';

export type SqliteStoreOptions = OpenOptions & Omit<GroupCommitOptions, 'afterCommit' | 'batchFailure'> & {
  /** false: no event is written (only for the benchmark of what the event write costs). */
  recordEvents?: boolean;
  /** False: no change stamp, so nothing is kept (benchmarks' like-for-like control). */
  keepReads?: boolean;
  /** Told the number of writes after each committed group-commit batch (the metrics count batches). */
  onCommit?: (writes: number) => void;
  /** true (--workers on a file): rate counters live in the database, shared by every process; else in memory. */
  sharedRateCounters?: boolean;
  /** Told after each commit that appended events, how many (docs/events.md): the event hub's wake-up. */
  commits?: CommitListener;
  /**
   * true: on a file at synchronous=FULL, each commit's WAL is synced off the event loop (wal-sync.ts). Other processes
   * on the file (--workers) may read a commit in the moment before its sync; the log's reads hand out events only
   * once they are on disk (onDisk below).
   */
  syncOffLoop?: boolean;
  /** Tests only: how the WAL file is synced (to hold a sync open). */
  syncFile?: SyncFile;
  /** false: the connection checkpoints the WAL itself, on the event loop (benchmarks' control); else a thread does (checkpointer.ts). */
  checkpointThread?: boolean;
  /** Where the checkpoint thread's failure is told (it hands the checkpoint back to the connection). */
  logError?: (error: unknown) => void;
};

/** A chat's versions (sql/migrations/022-chat-versions.sql): what its kept pages and memberships are read under. */
const CHAT_VERSION_SQL = 'SELECT CAST(messages_version AS TEXT) AS messages, CAST(members_version AS TEXT) AS members FROM chat_stats WHERE chat_id = ?';
/** The sessions' version (sql/migrations/024-session-version.sql). */
const SESSION_VERSION_SQL = 'SELECT n FROM session_version';

export class SqliteStore implements Store {
  /** For tests and tools that must reach SQLite itself (the backup, a broken table); never for handlers. */
  readonly db: Db;
  readonly users: Repositories['users'];
  readonly sessions: Repositories['sessions'];
  readonly avatars: Repositories['avatars'];
  readonly chats: Repositories['chats'];
  readonly messages: Repositories['messages'];
  readonly readMarkers: Repositories['readMarkers'];
  readonly reactions: Repositories['reactions'];
  readonly revisions: Repositories['revisions'];
  readonly collections: Repositories['collections'];
  readonly events: Repositories['events'];
  readonly accounts: Repositories['accounts'];
  readonly invites: Repositories['invites'];
  readonly audit: Repositories['audit'];
  readonly outbound: Repositories['outbound'];
  readonly integrations: Repositories['integrations'];
  readonly push: Repositories['push'];
  readonly attachments: Repositories['attachments'];
  readonly rateCounters: RateCounterRepository & { close?(): void };
  private readonly eventLog: EventStore;
  /** Whether a transaction queued outbound deliveries: its commit wakes the delivery loop (commit-listener.ts). */
  private readonly queuedWork = new QueuedWork();
  private readonly gate = new Gate();
  /** The repositories a transaction's work uses: straight to the connection, which the transaction holds. */
  private readonly tx: Tx;
  /** The same, for a read snapshot: its reads of the log, as every other, hand out only what is on disk. */
  private readonly snapshotTx: Tx;
  private readonly group: GroupCommit;
  /** Set when commits sync the WAL off the event loop (wal-sync.ts): a file at synchronous=FULL. */
  private readonly walSync: WalSync | undefined;
  /**
   * With walSync: the newest event id known to be on disk, from this process's commits and what the others tell
   * (eventsOnDisk). Another process on the file (--workers, a script) commits and then syncs on its own thread
   * pool: an event of its read in that moment is handed out only after a sync of ours (docs/events.md, "Durable
   * before delivered").
   */
  private durableThrough = 0;
  /** The WAL's checkpoint on a thread (checkpointer.ts); undefined in memory or where no thread can run. */
  private readonly checkpointer: Checkpointer | undefined;
  /** BEGIN IMMEDIATE that waits for another process's lock without sleeping on the event loop (write-lock.ts). */
  private readonly writeLock: WriteLock;
  /** BEGIN, COMMIT and ROLLBACK, prepared once rather than parsed for every transaction. */
  private readonly control;
  private readonly commits: CommitListener | undefined;
  /** total_changes() and PRAGMA data_version: see changeStamp. */
  private readonly stamp;
  /** What GETs keep between requests while the change stamp holds: this store's, dropped when it closes. */
  private readonly kept: ReadThrough;
  /** The write checkWrites commits: see TOUCH_SQL. */
  private readonly touch;
  private closed = false;
  private readonly refused = new RefusedWrites();

  private readonly path: string;
  readonly notices: readonly string[];
  /** One file on one host: its processes (--workers) hear each other through the primary, not the database. */
  readonly broadcast = undefined;

  /** options are internal: benchmarks compare synchronous=NORMAL and writes without group commit. */
  constructor(path: string, options: SqliteStoreOptions = {}) {
    this.path = path;
    let migrated: number[] = [];
    this.db = openDatabase(path, undefined, { ...options, migrated: (versions) => (migrated = versions) });
    this.notices = migrated.includes(ROLES_MIGRATION.sqlite)
      ? upgradeNotices((this.db.prepare(FIRST_ADMIN_SQL).get() as { login: string } | undefined)?.login)
      : [];
    this.eventLog = new EventStore(this.db, options.recordEvents ?? true, this.queuedWork);
    this.commits = options.commits;
    this.control = {
      beginDeferred: this.db.prepare('BEGIN DEFERRED'),
      commit: this.db.prepare('COMMIT'),
      rollback: this.db.prepare('ROLLBACK'),
    };
    const stores: SyncRepositories = {
      users: new UserStore(this.db),
      sessions: new SessionStore(this.db),
      avatars: new AvatarStore(this.db),
      chats: new ChatStore(this.db),
      messages: new MessageStore(this.db),
      readMarkers: new ReadMarkerStore(this.db),
      reactions: new ReactionStore(this.db),
      revisions: new RevisionStore(this.db),
      collections: new SqliteCollections(this.db),
      events: this.eventLog,
      accounts: new AccountStore(this.db),
      invites: new InviteStore(this.db),
      audit: new AuditStore(this.db),
      outbound: new OutboundStore(this.db, this.queuedWork),
      integrations: new IntegrationStore(this.db),
      push: new PushStore(this.db),
      attachments: new AttachmentStore(this.db),
    };
    // Outside a transaction: at once when the connection is free, else queued behind the open transaction.
    const gated = asRepositories(asyncRepositories(stores, (method, store, args) => this.gate.busy
      ? this.gate.call(() => settle(method, store, args, this.refused)) as Promise<unknown>
      : settle(method, store, args, this.refused)));
    this.events = this.readOnDisk(gated.events);
    this.users = gated.users;
    // A session's use (its idle expiry moved, at most once a minute a session) shares the group commit: on its own
    // it was one synchronous commit, WAL sync included, for every user's first request of the minute.
    this.sessions = {
      ...gated.sessions,
      recordSessionUse: (id, userId, expiresAt, now) => this.writeTogether((tx) => tx.sessions.recordSessionUse(id, userId, expiresAt, now)),
    };
    this.avatars = gated.avatars;
    this.chats = gated.chats;
    this.messages = gated.messages;
    this.readMarkers = gated.readMarkers;
    this.reactions = gated.reactions;
    this.revisions = gated.revisions;
    this.collections = gated.collections;
    this.accounts = gated.accounts;
    this.invites = gated.invites;
    this.audit = gated.audit;
    this.outbound = gated.outbound;
    this.integrations = gated.integrations;
    this.push = gated.push;
    this.attachments = gated.attachments;
    this.tx = asRepositories(asyncRepositories(stores, (method, store, args) => {
      // A Tx kept past its transaction would write outside any transaction and around the gate.
      if (!this.gate.busy) return Promise.reject(new Error('storage: a transaction\'s repositories were used after it ended'));
      return settle(method, store, args, this.refused);
    }));
    this.snapshotTx = { ...this.tx, events: this.readOnDisk(this.tx.events) };
    this.writeLock = new WriteLock(this.db);
    if (path !== ':memory:' && options.checkpointThread !== false) {
      this.checkpointer = Checkpointer.start(this.db, path, options.logError ?? ((error) => void process.stderr.write(`checkpoint: ${String(error)}\n`)));
    }
    const relaxed = options.syncOffLoop && path !== ':memory:' ? relaxedSync(this.db) : undefined;
    this.walSync = relaxed ? new WalSync(this.db, relaxed, options.syncFile) : undefined;
    this.group = new GroupCommit(this.db, this.gate, {
      ...options,
      walSync: this.walSync,
      afterCommit: (committed, writes) => {
        if (committed) options.onCommit?.(writes);
        this.signalEvents(committed);
      },
      // BEGIN or COMMIT of the shared transaction failed (a full disk shows at COMMIT): what every write of it hears.
      batchFailure: (error) => this.refused.note(toStoreError(error)),
    });
    this.rateCounters = options.sharedRateCounters && path !== ':memory:' ? new SqliteRateCounters(path) : new MemoryRateCounters();
    // Two statements are cheaper than one joining pragma_data_version and concatenating in SQL.
    const totalChanges = this.db.prepare('SELECT total_changes()').pluck();
    const dataVersion = this.db.prepare('PRAGMA data_version').pluck();
    // The outbound queue's bookkeeping is left out (outbound-store.ts): every other change of this connection counts.
    this.stamp = { get: (): string => `${(totalChanges.get() as number) - stores.outbound.bookkeepingChanges}.${dataVersion.get() as number}` };
    const touch = this.db.prepare(TOUCH_SQL);
    this.touch = this.db.transaction(() => void touch.run());
    const chatVersion = this.db.prepare(CHAT_VERSION_SQL);
    const sessionVersion = this.db.prepare(SESSION_VERSION_SQL).pluck();
    this.kept = new ReadThrough(this, options.keepReads === false ? undefined : {
      change: () => this.changeStamp(),
      // Through the gate like the stamp, and undefined inside a transaction for the same reason.
      chat: (chatId) => this.gate.call(() => (this.db.inTransaction ? undefined : chatVersion.get(chatId) as ChatVersions | undefined)),
      sessions: () => this.gate.call(() => (this.db.inTransaction ? undefined : String(sessionVersion.get()))),
    });
  }

  keptReads(safe: boolean): KeptReads {
    return this.kept.forRequest(safe);
  }

  get writesRefused(): WriteRefusal | undefined {
    return this.refused.reason;
  }

  /**
   * A committed write (a rolled-back one never reaches the WAL, so it could not tell a full disk), through the gate.
   * After SQLITE_FULL it also needs room on the file system for the WAL to grow to its checkpoint size: the one
   * write would otherwise fit in the space the refused transaction had already taken, and say "ok" on a full disk.
   */
  checkWrites(): Promise<WriteRefusal | undefined> {
    return this.refused.check(() => this.gate.call(() => {
      if (this.refused.reason === 'full' && this.path !== ':memory:') {
        // SQLite's own mark (the checkpoint thread keeps the WAL near it; the connection's own mark is higher meanwhile).
        const needed = SQLITE_CHECKPOINT_PAGES * (this.db.pragma('page_size', { simple: true }) as number);
        const { bavail, bsize } = statfsSync(dirname(resolve(this.path)));
        if (bavail * bsize < needed) throw new StoreWriteRefusedError('full', `less than ${needed} bytes free beside the database`);
      }
      try {
        this.touch.immediate();
      } catch (error) {
        throw toStoreError(error);
      }
    }));
  }

  /**
   * Changes whenever anything may have been written since: by this connection (SQLite's total_changes(),
   * triggers and rolled-back writes included) or by any other one, in this process or another (--workers, a
   * script: PRAGMA data_version). Read through the gate, so never inside another request's transaction.
   */
  private changeStamp(): Promise<string | undefined> {
    return this.gate.call(() => (this.db.inTransaction ? undefined : this.stamp.get()));
  }

  /** The log's reads, each answered once what it read is on disk (onDisk). */
  private readOnDisk(log: Repositories['events']): Repositories['events'] {
    return {
      ...log,
      readAfter: async (afterId, limit) => {
        const events = await log.readAfter(afterId, limit);
        await this.onDisk(events.at(-1)?.id ?? 0);
        return events;
      },
      newestId: async () => {
        const id = await log.newestId();
        await this.onDisk(id);
        return id;
      },
    };
  }

  /**
   * Resolves once event `id`, read from the log, is on disk: at once for this process's own commits (signalEvents
   * marks them after their sync); else a sync of the WAL, which puts everything committed before it there.
   */
  private async onDisk(id: number): Promise<void> {
    if (this.walSync === undefined || id <= this.durableThrough) return;
    await this.walSync.syncNow();
    this.eventsOnDisk(id);
  }

  eventsOnDisk(id: number): void {
    if (id > this.durableThrough) this.durableThrough = id;
  }

  /** After every COMMIT or ROLLBACK (group commit's or a transaction's): a commit that appended events wakes the hub. */
  private signalEvents(committed: boolean): void {
    const { count, newestId } = this.eventLog.takeCommitted();
    // On disk: signalled after durably(), the sync included.
    if (committed) this.eventsOnDisk(newestId);
    const queued = this.queuedWork.take();
    if (committed && (count > 0 || queued)) this.commits?.eventsCommitted(count, queued, newestId);
  }

  /**
   * Runs work in one transaction holding the connection (gate.ts). IMMEDIATE takes the write lock first
   * (waiting up to busy_timeout): a deferred transaction that read before writing could fail with SQLITE_BUSY
   * at once when another process (--workers) wrote in between.
   */
  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.writeLock.whenFree((begin) => this.transactionTry(begin, work));
  }

  /** One try of transaction(): a LockBusy from begin (nothing done) goes back to whenFree, the gate let go. */
  private transactionTry<T>(begin: Begin, work: (tx: Tx) => Promise<T>): Promise<T> {
    const run = async (): Promise<T> => {
      try {
        begin();
        const result = await work(this.tx);
        this.control.commit.run();
        return result;
      } catch (error) {
        // Rolled back here, before wal-sync.ts restores the level (SQLite will not change it inside a transaction).
        if (this.db.inTransaction) this.control.rollback.run();
        throw error;
      }
    };
    return this.gate.hold(async () => {
      let committed = false;
      try {
        const result = await durably(this.walSync, run);
        committed = true;
        return result;
      } catch (error) {
        if (error instanceof LockBusy) throw error;
        throw this.refused.note(toStoreError(error));
      } finally {
        this.signalEvents(committed);
      }
    });
  }

  /**
   * Runs work in a transaction shared with the other writes of this event-loop turn (group commit); resolves
   * only after that transaction committed. A rejection rolls back work's own changes only, events included.
   */
  writeTogether<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.group.run(async () => {
      const mark = this.eventLog.mark();
      try {
        return await work(this.tx);
      } catch (error) {
        // Its savepoint is rolled back: so are the events it appended.
        this.eventLog.rollBackTo(mark);
        throw this.refused.note(toStoreError(error));
      }
    });
  }

  /** A read transaction: one snapshot of the file, whatever other processes commit meanwhile. */
  snapshot<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.gate.hold(async () => {
      this.control.beginDeferred.run();
      try {
        return await work(this.snapshotTx);
      } finally {
        // Nothing was written: COMMIT and ROLLBACK both just end the read.
        if (this.db.inTransaction) this.control.commit.run();
      }
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.kept.close();
    await this.group.flush();
    // Its connection goes first, so the store's is the last one: closing it checkpoints and removes the WAL.
    await this.checkpointer?.stop();
    // Waits for a transaction still open, then closes while nothing else can run.
    await this.gate.hold(async () => {
      this.rateCounters.close?.();
      this.walSync?.close();
      if (this.db.open) this.db.close();
    });
  }
}
