// Everything the app keeps: the database and one store per table, opened and prepared once.
import { AvatarStore } from './avatar-store.ts';
import { ChatStore } from './chat-store.ts';
import { openDatabase, type Db, type OpenOptions } from './database.ts';
import { EventStore } from './event-store.ts';
import { GroupCommit, type GroupCommitOptions } from './group-commit.ts';
import { PageRunner } from './list-page.ts';
import { MessageStore } from './message-store.ts';
import { ReactionStore } from './reaction-store.ts';
import { ReadMarkerStore } from './read-marker-store.ts';
import { RevisionStore } from './revision-store.ts';
import { SessionStore } from './session-store.ts';
import { UserStore } from './user-store.ts';

export type StorageOptions = OpenOptions & Omit<GroupCommitOptions, 'afterCommit'> & {
  /** false: no event is written (only for the benchmark of what the event write costs). */
  recordEvents?: boolean;
  /** Told the number of writes after each committed batch (the metrics count batches). */
  onCommit?: (writes: number) => void;
};

export class Storage {
  readonly db: Db;
  readonly users: UserStore;
  readonly sessions: SessionStore;
  readonly avatars: AvatarStore;
  readonly chats: ChatStore;
  readonly messages: MessageStore;
  readonly readMarkers: ReadMarkerStore;
  readonly reactions: ReactionStore;
  readonly revisions: RevisionStore;
  readonly pages: PageRunner;
  readonly events: EventStore;
  private readonly group: GroupCommit;
  private readonly stamp;
  /** Called after a commit that appended events, with how many: a wake-up for the hub, never the data itself. */
  onEventsCommitted: (count: number) => void = () => {};

  /** options are internal: benchmarks compare synchronous=NORMAL and writes without group commit. */
  constructor(path: string, options: StorageOptions = {}) {
    this.db = openDatabase(path, undefined, options);
    this.group = new GroupCommit(this.db, {
      ...options,
      afterCommit: (committed, writes) => {
        if (committed) options.onCommit?.(writes);
        this.signalEvents(committed);
      },
    });
    this.users = new UserStore(this.db);
    this.sessions = new SessionStore(this.db);
    this.avatars = new AvatarStore(this.db);
    this.chats = new ChatStore(this.db);
    this.messages = new MessageStore(this.db);
    this.readMarkers = new ReadMarkerStore(this.db);
    this.reactions = new ReactionStore(this.db);
    this.revisions = new RevisionStore(this.db);
    this.pages = new PageRunner(this.db);
    this.events = new EventStore(this.db, options.recordEvents ?? true);
    this.stamp = this.db.prepare("SELECT total_changes() || '.' || data_version FROM pragma_data_version").pluck();
  }

  /**
   * Changes whenever anything may have been written to the database since the last call: by this connection
   * (SQLite's total_changes(), triggers and rolled-back writes included) or by any other one, in this process
   * or another (--workers: PRAGMA data_version). Undefined inside a transaction, whose writes are not final.
   * What was read after a stamp is still current while the stamp is the same (issue #22's page cache).
   */
  changeStamp(): string | undefined {
    return this.db.inTransaction ? undefined : this.stamp.get() as string;
  }

  /** Only after the outermost commit: a nested transaction's events are not durable yet. */
  private signalEvents(committed: boolean): void {
    if (this.db.inTransaction) return;
    const count = this.events.takeCommitted();
    if (committed && count > 0) this.onEventsCommitted(count);
  }

  /**
   * Runs fn in one transaction: a failure leaves nothing half done. IMMEDIATE takes the write lock first (waiting
   * up to busy_timeout): a deferred transaction that read before writing could fail with SQLITE_BUSY at once
   * when another process (--workers) wrote in between.
   */
  transaction<T>(fn: () => T): T {
    const mark = this.events.mark();
    let committed = false;
    try {
      const result = this.db.transaction(fn).immediate();
      committed = true;
      return result;
    } catch (error) {
      this.events.rollBackTo(mark);
      throw error;
    } finally {
      this.signalEvents(committed);
    }
  }

  /**
   * Runs synchronous fn in a transaction shared with the other writes of this event-loop turn (group commit);
   * resolves only after that transaction committed. A throw rolls back fn's own changes only.
   */
  writeTogether<T>(fn: () => T): Promise<T> {
    return this.group.run(() => {
      const mark = this.events.mark();
      try {
        return fn();
      } catch (error) {
        // Its savepoint is rolled back: so are the events it appended.
        this.events.rollBackTo(mark);
        throw error;
      }
    });
  }

  close(): void {
    if (!this.db.open) return;
    this.group.flush();
    this.db.close();
  }
}
