// The request context handlers receive, the reply they return, and the route definition they live in.
import type { DeliveryLoop } from '../outbound/delivery-loop.ts';
import type { OutboundKinds } from '../outbound/outbound-kind.ts';
import type { CryptoPool } from '../outbound/crypto-pool.ts';
import type { VapidSigner } from '../outbound/vapid.ts';
import type { IncomingMessage } from 'node:http';
import type { Config } from '../config.ts';
import type { QueryDoc, RequestBodyDoc, RouteResponses } from '../openapi/route-doc.ts';
import type { Method } from '../router/route-table.ts';
import type { Clock } from '../clock.ts';
import type { KeptReads, KeptValueKind, Store } from '../storage/store.ts';
import type { PasswordHasher } from './session/password-hasher.ts';
import type { LoginLimiter } from './session/login-limiter.ts';
import type { ServerMetrics } from '../metrics/server-metrics.ts';
import type { EventHub } from '../events/hub.ts';
import type { EphemeralBus } from '../events/ephemeral-bus.ts';
import type { PresenceTracker } from '../events/presence.ts';
import type { TypingTracker } from '../events/typing.ts';
import type { Reply } from '../http/reply.ts';
import type { FormSubmission } from '../http/form-post.ts';
import type { RateLimit } from './limits/rate-limit.ts';
import type { PeriodicSweep } from '../storage/periodic-sweep.ts';

export type { Clock } from '../clock.ts';
export type { Reply } from '../http/reply.ts';

/** What lives as long as the app: configuration, storage and shared services. */
export interface AppServices {
  config: Config;
  storage: Store;
  clock: Clock;
  hasher: PasswordHasher;
  loginLimiter: LoginLimiter;
  /** Counters and gauges for GET /metrics (e.g. metrics.eventsWritten.inc()). */
  metrics: ServerMetrics;
  events: EventHub;
  /** Ephemeral events across every process (docs/events.md "Ephemeral events"): typing and presence ride on it. */
  bus: EphemeralBus;
  typing: TypingTracker;
  presence: PresenceTracker;
  /** docs/protocol.md §11.1: writes per signed-in user per minute, and registrations per address per hour. */
  writeLimit: RateLimit;
  registerLimit: RateLimit;
  /** Removes unused uploads after their hour (docs/protocol.md §15.2); tests call its sweep() after moving the clock. */
  uploadCleanup: PeriodicSweep;
  /** Removes finished outbound deliveries past --delivery-retention; tests call its sweep() after moving the clock. */
  deliveryRetention: PeriodicSweep;
  /** The origin browsers reach the server at (--public-url, else the listen address): never the client's Host. */
  publicOrigin(): string;
  /** docs/protocol.md §16.5: the durable delivery queue's loop and the kinds it sends. */
  outbound: { kinds: OutboundKinds; loop: DeliveryLoop };
  /** docs/protocol.md §17.1: the server's VAPID key, kept in the database; the threads that encrypt and sign pushes. */
  push: { signer: VapidSigner; pool: CryptoPool };
}

/** The authenticated caller. */
export interface Caller {
  userId: string;
  /** The session's id, or the personal access token's (docs/protocol.md §16.1): what a session.ended names. */
  sessionId: string;
  /** Set when the caller came with a personal access token: its scopes (a session may do anything its user may). */
  token?: { scopes: 'read' | 'read write' };
  /** The caller is a bot (docs/protocol.md §16.2): no HTML pages. */
  bot?: boolean;
  /** How the token came: a cookie-authenticated write must pass the same-origin check. */
  via: 'header' | 'cookie';
}

export interface RequestContext {
  req: IncomingMessage;
  method: string;
  /** The path after the base path, e.g. /chats/01J... */
  path: string;
  /** The raw query string, without "?". */
  rawQuery: string;
  params: Record<string, string>;
  requestId: string;
  /** The media type the answer will be rendered in. */
  mediaType: string;
  services: AppServices;
  /** Set for every route whose auth is 'required'; may be set for 'optional' ones. */
  caller: Caller | undefined;
  /** Reads kept while the database is unchanged (resources/kept-reply.ts); for writes, every read is made. */
  kept: RequestKept;
  /** Aborted when the client goes away before its answer is sent: queued work for it is dropped. */
  signal: AbortSignal;
  /** The client's address for per-address limits (X-Forwarded-For's last entry with --trust-proxy). */
  clientAddress: string;
  /** Headers added to whatever this request answers, errors included (the RateLimit fields). */
  responseHeaders: Record<string, string>;
  /** A path under the base path, built from a route pattern: the one way links are made. */
  href(pattern: string, params?: Record<string, string>, query?: string): string;
  /** Set when the request is an HTML form post (docs/protocol.md §7.3): its handler answers as to JSON, pipeline/answer-form.ts turns that into 303. */
  form?: FormSubmission;
}

/** One request's kept reads (resources/kept-reply.ts makes them): the store's, and how its route's reply may be kept. */
export interface RequestKept {
  /** The store's reads for this request (storage/read-through.ts): kept ones for GET and HEAD, every read made for a write. */
  readonly reads: KeptReads;
  /** The route's `keep`, for GET and HEAD; undefined for a write, or a route whose reply is never kept. */
  readonly reply: KeptValueKind | undefined;
}

export type Handler = (ctx: RequestContext) => Promise<Reply> | Reply;

export interface Route {
  method: Method;
  pattern: string;
  handler: Handler;
  /** 'required' (default): 401 without a valid session. 'optional': the caller is read if present. */
  auth?: 'required' | 'optional' | 'public';
  /** One line for the OpenAPI document. */
  summary: string;
  /** OpenAPI schema of the request body, if any. */
  requestBody?: RequestBodyDoc;
  /**
   * Every success answer by status, for the OpenAPI document (and the tests that check each answer
   * against it). Problem answers (4xx) are added by rule in openapi/problems.ts; `problems` adds more.
   */
  responses: RouteResponses;
  /** Problem statuses beyond those the rules give this kind of route (409, a 403 of a read, ...). */
  problems?: readonly number[];
  /** The query language's fields (for collections) and the parameters the handler reads itself. */
  query?: QueryDoc;
  /** The group of the operation in the document and /docs; the first path segment unless given. */
  tag?: string;
  /** Answers raw bytes instead of a representation. */
  raw?: boolean;
  /**
   * 'refused': a personal access token may not call it (docs/protocol.md §16.1: tokens, sessions, invites); a
   * session must.
   */
  tokens?: 'refused';
  /** false: not counted against the write limit (logout must always work). */
  writeLimited?: false;
  /** Media types this route's PATCH accepts, for Accept-Patch. */
  acceptPatch?: readonly string[];
  /** Media types this route answers besides JSON, XML and HTML (text/event-stream), asked for explicitly. */
  extraMediaTypes?: readonly string[];
  /**
   * GET: the reply may be kept and answer later requests too (docs/performance.md, "Kept reads"), through keptReply
   * (resources/kept-reply.ts). 'shared': the same for every member of the chat its path names, made of that chat's
   * messages only, kept while they and its members hold (the handler checks access before, on every request);
   * 'per-caller': it carries the caller's own fields, kept while nothing at all is written.
   */
  keep?: KeptValueKind;
}
