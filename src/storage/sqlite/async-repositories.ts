// The async face of SQLite's synchronous stores: each method run through the gate, or directly inside a transaction.
import type { Repositories } from '../store.ts';
import type { RefusedWrites } from '../refused-writes.ts';
import type { AttachmentStore } from './attachment-store.ts';
import type { AuditStore } from './audit-store.ts';
import type { AvatarStore } from './avatar-store.ts';
import type { ChatStore } from './chat-store.ts';
import type { SqliteCollections } from './collections.ts';
import { toStoreError } from './database.ts';
import type { EventStore } from './event-store.ts';
import type { InviteStore } from './invite-store.ts';
import type { OutboundStore } from './outbound-store.ts';
import type { IntegrationStore } from './integration-store.ts';
import type { PushStore } from './push-store.ts';
import type { MessageStore } from './message-store.ts';
import type { ReactionStore } from './reaction-store.ts';
import type { ReadMarkerStore } from './read-marker-store.ts';
import type { RevisionStore } from './revision-store.ts';
import type { SessionStore } from './session-store.ts';
import type { UserStore } from './user-store.ts';
import type { AccountStore } from './account-store.ts';

/** The synchronous stores, as one transaction or the gate runs them. */
export interface SyncRepositories {
  users: UserStore;
  sessions: SessionStore;
  avatars: AvatarStore;
  chats: ChatStore;
  messages: MessageStore;
  readMarkers: ReadMarkerStore;
  reactions: ReactionStore;
  revisions: RevisionStore;
  collections: SqliteCollections;
  events: EventStore;
  accounts: AccountStore;
  invites: InviteStore;
  audit: AuditStore;
  outbound: OutboundStore;
  integrations: IntegrationStore;
  push: PushStore;
  attachments: AttachmentStore;
}

export type Method = (...args: unknown[]) => unknown;
export type Run = (method: Method, store: object, args: unknown[]) => Promise<unknown>;

/** Runs one synchronous store call as a settled promise, SQLite's errors mapped to the store's (a refusal noted). */
export function settle(method: Method, store: object, args: unknown[], refused: RefusedWrites): Promise<unknown> {
  try {
    return Promise.resolve(method.apply(store, args));
  } catch (error) {
    return Promise.reject(refused.note(toStoreError(error)));
  }
}

/** The async face of one synchronous store: every method of its class, run through `run` (the gate, or directly in a transaction). */
function asyncView(store: object, run: Run): unknown {
  const view: Record<string, unknown> = {};
  const prototype = Object.getPrototypeOf(store) as Record<string, unknown>;
  for (const name of Object.getOwnPropertyNames(prototype)) {
    const method = prototype[name];
    if (name === 'constructor' || typeof method !== 'function') continue;
    view[name] = (...args: unknown[]) => run(method as Method, store, args);
  }
  return view;
}

/** A synchronous store's public methods, each answering a promise of what it returned. */
type Async<T> = { [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<R> : never };

/**
 * The async faces of every store. Typed as Async<store>, so that assigning them to the interface's repositories
 * below makes tsc check each synchronous store against the interface, method by method.
 */
export function asyncRepositories(stores: SyncRepositories, run: Run): { [K in keyof SyncRepositories]: Async<SyncRepositories[K]> } {
  return Object.fromEntries(Object.entries(stores).map(([name, store]) => [name, asyncView(store as object, run)])) as never;
}

export function asRepositories(views: { [K in keyof SyncRepositories]: Async<SyncRepositories[K]> }): Repositories {
  return {
    users: views.users,
    sessions: views.sessions,
    avatars: views.avatars,
    chats: views.chats,
    messages: views.messages,
    readMarkers: views.readMarkers,
    reactions: views.reactions,
    revisions: views.revisions,
    // listActions is generic in the interface (it answers the items' own type): checked by hand, the cast stays.
    collections: views.collections as unknown as Repositories['collections'],
    events: views.events,
    accounts: views.accounts,
    invites: views.invites,
    audit: views.audit,
    outbound: views.outbound,
    integrations: views.integrations,
    push: views.push,
    attachments: views.attachments,
  };
}
