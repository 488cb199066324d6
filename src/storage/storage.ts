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

export type StorageOptions = OpenOptions & GroupCommitOptions & {
  /** false: no event is written (only for the benchmark of what the event write costs). */
  recordEvents?: boolean;
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
  /** Called after a commit that appended events (set by the event hub): a wake-up, never the data itself. */
  onEventsCommitted: () => void = () => {};

  /** options are internal: benchmarks compare synchronous=NORMAL and writes without group commit. */
  constructor(path: string, options: StorageOptions = {}) {
    this.db = openDatabase(path, undefined, options);
    this.group = new GroupCommit(this.db, { ...options, afterCommit: () => this.signalEvents() });
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
  }

  /** Only after the outermost commit: a nested transaction's events are not durable yet. */
  private signalEvents(): void {
    if (!this.db.inTransaction && this.events.takeAppended()) this.onEventsCommitted();
  }

  /** Runs fn in one transaction: a failure leaves nothing half done. */
  transaction<T>(fn: () => T): T {
    try {
      return this.db.transaction(fn)();
    } finally {
      // After a rollback nothing was appended: takeAppended() still resets the mark.
      this.signalEvents();
    }
  }

  /**
   * Runs synchronous fn in a transaction shared with the other writes of this event-loop turn (group commit);
   * resolves only after that transaction committed. A throw rolls back fn's own changes only.
   */
  writeTogether<T>(fn: () => T): Promise<T> {
    return this.group.run(fn);
  }

  close(): void {
    if (!this.db.open) return;
    this.group.flush();
    this.db.close();
  }
}
