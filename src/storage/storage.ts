// Everything the app keeps: the database and one store per table, opened and prepared once.
import { AvatarStore } from './avatar-store.ts';
import { openDatabase, type Db } from './database.ts';
import { PageRunner } from './list-page.ts';
import { SessionStore } from './session-store.ts';
import { UserStore } from './user-store.ts';

export class Storage {
  readonly db: Db;
  readonly users: UserStore;
  readonly sessions: SessionStore;
  readonly avatars: AvatarStore;
  readonly pages: PageRunner;

  constructor(path: string) {
    this.db = openDatabase(path);
    this.users = new UserStore(this.db);
    this.sessions = new SessionStore(this.db);
    this.avatars = new AvatarStore(this.db);
    this.pages = new PageRunner(this.db);
  }

  /** Runs fn in one transaction: a failure leaves nothing half done. */
  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
