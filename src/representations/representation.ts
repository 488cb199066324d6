// What a handler answers with, before it is rendered as JSON, XML or HTML.
export type Resource = Record<string, unknown>;

export interface Link {
  rel: string;
  href: string;
  title?: string;
}

export interface PageMeta {
  total: number;
  limit: number;
  offset: number;
}

/** The meta of a long-poll answer: where the client goes on from (docs/protocol.md §9.8). */
export interface EventPageMeta {
  lastEventId: string;
}

/** One resource. `type` names it (user, avatar, session, chat, message, action, health, ...). */
export interface SingleRepresentation {
  kind: 'single';
  type: string;
  /** Chats, messages and actions travel as {"data": {...}}; users, avatars and sessions as plain objects. */
  enveloped: boolean;
  data: Resource;
  /** Related resources, for the HTML page (and XML link elements). Hrefs are complete paths. */
  links?: Link[];
  /** What only the HTML page shows: names and avatars for ids, the caller's rights, a form to show again. */
  page?: PageContext;
  /** The same object answers every request (a constant such as /health): rendered and tagged once per media type. */
  shared?: boolean;
}

/** A page of a collection: {"data": [...], "meta": {...}}. `type` names one item. */
export interface CollectionRepresentation {
  kind: 'collection';
  type: string;
  data: Resource[];
  meta: PageMeta | EventPageMeta;
  /** next/prev and related links; next/prev also go into the Link header. */
  links?: Link[];
  /** The page of one item (a complete path), so the HTML list can link each id; undefined leaves it as text. */
  itemHref?: (item: Resource) => string | undefined;
  /**
   * Set on the newest page of a chat's history: the HTML page follows the event stream at `events` and
   * shows the chat's new, edited and deleted messages as they happen (docs/protocol.md §9.9).
   */
  live?: { events: string; chatId: string; messages: string; users: string };
  page?: PageContext;
  /**
   * The same object answers many requests (a kept page or chat, resources/kept-reply.ts): never changed once
   * made, so its rendering and ETag are kept with it, per media type.
   */
  shared?: boolean;
}

/** An RFC 9457 problem. */
export interface ProblemRepresentation {
  kind: 'problem';
  data: {
    type: string;
    title: string;
    status: number;
    detail: string;
    code: string;
    instance?: string;
    errors?: { field: string; message: string }[];
  };
}

/** A user as a page names them: login and, when they have one, their current avatar (public avatar fields). */
export interface PageUser {
  id: string;
  login: string;
  avatar?: Resource;
  /** An erased account (docs/protocol.md §3.7) whose messages stayed: shown as "deleted user", linked nowhere. */
  erased?: boolean;
  /** An admin deactivated the account: shown as "(deactivated)" beside the login (docs/html.md). */
  deactivated?: boolean;
  /** An active admin: may delete any message (docs/protocol.md §4.7). */
  admin?: boolean;
  /** online, away or offline when the page was made (docs/protocol.md §14.6): the dot beside the login. */
  presence?: string;
}

/** A form post that broke a rule: the page shows that form again with what was typed and each error beside its field. */
export interface FormState {
  /** The path the form posted to, and the method it stood for (after `_method`). */
  action: string;
  method: string;
  values: Record<string, string>;
  errors: { field: string; message: string }[];
  status: number;
  title: string;
  detail: string;
}

/**
 * HTML-only context of a page (never in JSON or XML): read after the handler answered, for the one who asks.
 * The page's ETag covers it too, so a renamed user or a new unread message never answers 304.
 */
export interface PageContext {
  basePath: string;
  me?: PageUser;
  users: Record<string, PageUser>;
  /** The chat the page belongs to, as the caller reads it (title, ownerId, members, unreadCount, lastReadId). */
  chat?: Resource;
  /** Messages that a shown message replies to: id -> {authorId, text}. */
  replied: Record<string, Resource>;
  /** Users who are not members of the chat, for the owner's "Add" buttons (members page). */
  candidates?: PageUser[];
  /** The chats of a search page's message hits, by id ({id, title, kind, members}), to say where each is (docs/html.md). */
  chats?: Record<string, Resource>;
  /** The reader's notification level in the page's chat (docs/protocol.md §14.3), on the chat's own page. */
  notificationLevel?: string;
  /** The reader's language for dates (the first usable tag of Accept-Language), or undefined. */
  locale?: string;
  /** The path and query of this page, for the forms' `_back` field. */
  self: string;
  /** The reader is an active administrator: the navigation links the administration page (docs/html.md). */
  admin?: boolean;
  /** The signed-in user may create invites (an admin, or any member with --members-invite): the invite form shows. */
  mayInvite?: boolean;
  /** The server sends Web Push (--push-subject is set): your page offers Notify me (docs/html.md). */
  pushSending?: boolean;
  form?: FormState;
  /** The chat screen's sidebar (docs/html.md): the reader's chats, most recently active first, each with lastActivityAt. */
  sidebar?: Resource[];
}

export type Representation = SingleRepresentation | CollectionRepresentation | ProblemRepresentation;
