// Builds the route table and turns each request into route -> handler -> reply.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Config } from './config.ts';
import { formatErrorLine, type LogFormat } from './http/access-log.ts';
import { SYSTEM_CLOCK, type Clock } from './clock.ts';
import type { AppServices, Caller, Reply, RequestContext, Route } from './resources/context.ts';
import { corsHeaders, preflightMethods, type CorsRequest } from './http/cors.ts';
import { HttpError, httpErrorOf } from './http/http-error.ts';
import { formBody, formNotAccepted, isFormPost, readFormPost, type FormSubmission } from './http/form-post.ts';
import { presetBody } from './http/read-body.ts';
import { negotiateMediaType, REPRESENTATION_TYPES } from './http/negotiate.ts';
import { observeExchange, type ExchangeLabels } from './http/observe-exchange.ts';
import { toProblem } from './http/problem.ts';
import { sendReply } from './http/send.ts';
import { clientAddress } from './http/client-address.ts';
import { ClientPresence } from './http/client-presence.ts';
import { RateLimit } from './resources/limits/rate-limit.ts';
import { authenticate } from './resources/session/authenticate.ts';
import { keptReadsFor } from './resources/kept-reply.ts';
import { LoginLimiter } from './resources/session/login-limiter.ts';
import { PasswordHasher } from './resources/session/password-hasher.ts';
import { ServerMetrics, UNMATCHED_ROUTE } from './metrics/server-metrics.ts';
import { ALL_ROUTES } from './resources/all-routes.ts';
import { formRuleOf, type FormRule } from './resources/form-rules.ts';
import { createPageAnswers } from './page-answers.ts';
import { EventHub } from './events/hub.ts';
import { buildPath } from './router/compile-pattern.ts';
import { RouteTable } from './router/route-table.ts';
import { openStore, type StoreConfig } from './storage/open-store.ts';
import { StoreConstraintError, StoreUnavailableError, StoreWriteRefusedError } from './storage/store.ts';
import { refusedWritesError } from './resources/refused-writes-error.ts';

export interface App {
  services: AppServices;
  routes: RouteTable<Route>;
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** From now on, every answer closes its connection (RFC 9112 §9.6), so kept-alive clients let go; event streams end. */
  stopAccepting(): void;
  /** Tells the app where it listens: the default public origin (--public-url unset). */
  setListenUrl(url: string): void;
  /** Stops the hub and the metrics, finishes queued writes and closes the store. */
  close(): Promise<void>;
}

/** Internal store options (benchmarks compare synchronous=NORMAL, no group commit, no events); they are not flags. */
export type StorageOptions = Omit<StoreConfig, 'db' | 'onCommit' | 'sharedRateCounters'>;

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Retry-After of a 503 while the database cannot be reached: about what a PostgreSQL restart takes. */
const DATABASE_RETRY_SECONDS = 2;

/**
 * Turns any error into a problem reply; a 5xx says only its status text (the stack goes to the log).
 * A client that went away is one log line, not a stack: nothing is wrong with the server.
 */
function problemReply(error: unknown, requestId: string, clientGone: boolean, logFormat: LogFormat): Reply {
  if (error instanceof StoreUnavailableError) {
    // Not a bug: the database (PostgreSQL) is restarting or cut off. One line in the log, 503 with a time to retry.
    process.stderr.write(formatErrorLine(logFormat, Date.now(), requestId, `database unavailable: ${String((error.cause as Error | undefined)?.message ?? error.message).split('\n', 1)[0]}`));
    error = new HttpError('ERR_DATABASE_UNAVAILABLE', 'The database cannot be reached right now; nothing was changed, try again shortly', { headers: { 'Retry-After': String(DATABASE_RETRY_SECONDS) } });
  } else if (error instanceof StoreWriteRefusedError) {
    // Not a bug either: an operator must free space or fix permissions (docs/operations.md). One line, 503.
    process.stderr.write(formatErrorLine(logFormat, Date.now(), requestId, `database ${error.reason}: ${error.message.split('\n', 1)[0]}`));
    error = refusedWritesError(error.reason);
  }
  if (error instanceof StoreConstraintError && error.constraint === 'foreign-key') {
    // A handler checks what a write refers to before its transaction; on PostgreSQL another request may delete
    // it in between (a chat, a message). Not a bug: what the request named is gone, as a retry would say (404).
    error = new HttpError('ERR_NOT_FOUND', 'What this request refers to was deleted while it ran');
  }
  const expected = httpErrorOf(error);
  const known = expected ?? new HttpError('ERR_INTERNAL', 'The server could not complete the request');
  if (clientGone && expected === undefined) {
    process.stderr.write(formatErrorLine(logFormat, Date.now(), requestId, 'client closed the connection before the answer'));
  } else if (expected === undefined) {
    process.stderr.write(formatErrorLine(logFormat, Date.now(), requestId, error));
  }
  return { status: known.status, headers: { ...known.headers }, representation: { kind: 'problem', data: toProblem(known) } };
}

/** RFC 9112 §3.2: a request with more than one Host is refused. */
function checkFraming(req: IncomingMessage): void {
  let hosts = 0;
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!;
    if (name.length === 4 && name.toLowerCase() === 'host') hosts++;
  }
  if (hosts > 1) throw new HttpError('ERR_BAD_REQUEST', 'The request has more than one Host header');
}

/** Intervals of the event hub's timers, for tests that cannot wait 15 s for a ping (not flags). */
export interface EventTimings {
  pingMs?: number;
  pollMs?: number;
  pruneMs?: number;
  /** Also called after each commit that wrote events (a worker tells the others through the primary). */
  onEventsCommitted?: () => void;
}

/**
 * One request's context (RequestContext): a class, so a request makes one object with no closures, and what
 * most requests never ask for (the AbortSignal, the client's address) is worked out only when asked.
 */
class Exchange implements RequestContext {
  readonly mediaType: string;
  private address: string | undefined;

  constructor(
    readonly req: IncomingMessage,
    readonly method: string,
    readonly path: string,
    readonly rawQuery: string,
    readonly params: Record<string, string>,
    readonly requestId: string,
    private readonly state: { mediaType: string; responseHeaders: Record<string, string> | undefined; client: ClientPresence },
    readonly services: AppServices,
    readonly caller: Caller | undefined,
    readonly kept: RequestContext['kept'],
    readonly href: RequestContext['href'],
    readonly form: FormSubmission | undefined,
  ) {
    this.mediaType = state.mediaType;
  }

  get signal(): AbortSignal {
    return this.state.client.signal;
  }

  /** Made when first asked for: most answers add no header of the request's own. */
  get responseHeaders(): Record<string, string> {
    return this.state.responseHeaders ??= {};
  }

  get clientAddress(): string {
    return this.address ??= clientAddress(this.req, this.services.config.trustProxy);
  }
}

/** storageOptions are internal (benchmarks compare synchronous=NORMAL, no group commit); they are not flags. */
export async function createApp(config: Config, clock: Clock = SYSTEM_CLOCK, storageOptions: StorageOptions = {}, eventTimings: EventTimings = {}): Promise<App> {
  // Always there, so any code may count; requests are recorded only when a metrics port is set.
  const metrics = new ServerMetrics();
  const storage = await openStore({
    ...storageOptions,
    db: config.db,
    poolSize: config.dbPool,
    onCommit: (writes) => metrics.observeWriteBatch(writes),
    // One process counts in memory; several processes on one database (--workers) count in it, together.
    sharedRateCounters: config.workers > 1,
  });
  const { onEventsCommitted, ...timings } = eventTimings;
  const rateCounters = storage.rateCounters;
  let listenOrigin = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}`;
  const events = new EventHub({
    log: storage.events,
    snapshot: (work) => storage.snapshot((tx) => work(tx.events)),
    startAfter: await storage.events.newestId(),
    now: () => clock.now(),
    retentionSeconds: config.eventRetention,
    liveSessions: (ids) => storage.sessions.findLiveSessionIds(ids, clock.now()),
    logError: (error) => process.stderr.write(formatErrorLine(config.logFormat, clock.now(), 'event-hub', error)),
    ...timings,
  });
  storage.onEventsCommitted((count) => {
    metrics.eventsWritten.inc(count);
    events.wake();
    // Count 0 is PostgreSQL's NOTIFY hint: every other process got that notification itself, so only this
    // process's own commits are passed on (--workers relays them to the other workers).
    if (count > 0) onEventsCommitted?.();
  });
  metrics.streamsOpen.readFrom(() => events.streamCount());
  const services: AppServices = {
    config,
    storage,
    clock,
    metrics,
    hasher: new PasswordHasher({ n: config.scryptN, concurrency: config.hashConcurrency, maxQueued: config.hashQueue }),
    loginLimiter: new LoginLimiter({ maxFailures: config.loginMaxFailures, windowMs: config.loginWindow * 1000, checkRate: config.loginRate, clock, store: rateCounters }),
    writeLimit: new RateLimit({ name: 'writes', quota: config.writeRate, windowSeconds: 60 }, rateCounters, clock),
    registerLimit: new RateLimit({ name: 'registrations', quota: config.registerRate, windowSeconds: 3600 }, rateCounters, clock),
    publicOrigin: () => config.publicUrl || listenOrigin,
    events,
  };
  const routes = new RouteTable<Route>(ALL_ROUTES.map((route) => ({ method: route.method, pattern: route.pattern, handler: route })));
  const basePath = config.basePath;
  const pages = createPageAnswers(routes, basePath);
  let draining = false;
  // What watches each exchange (http/observe-exchange.ts), decided once: nothing at all when nothing is recorded.
  const recorded = config.metricsPort === null ? undefined : metrics;
  const logFormat = config.quiet ? undefined : config.logFormat;
  const observed = recorded !== undefined || logFormat !== undefined || config.trace;
  const now = (): number => clock.now();
  /** Links under the base path: one function for every request (RequestContext.href). */
  const href = (pattern: string, params: Record<string, string> = {}, query = ''): string => `${basePath}${buildPath(pattern, params)}${query ? `?${query}` : ''}`;

  interface RequestState {
    mediaType: string;
    negotiated: boolean;
    /** Headers for whatever this request answers (the RateLimit fields), made when first needed. */
    responseHeaders: Record<string, string> | undefined;
    client: ClientPresence;
  }

  async function route(req: IncomingMessage, requestId: string, state: RequestState, labels: ExchangeLabels): Promise<Reply> {
    checkFraming(req);
    // Chosen first, so that even a 404 or 405 answers in a representation the client accepts.
    const chosen = negotiateMediaType(req.headers.accept, REPRESENTATION_TYPES);
    if (chosen !== null) state.mediaType = chosen;
    const url = req.url ?? '/';
    const queryAt = url.indexOf('?');
    const fullPath = queryAt === -1 ? url : url.slice(0, queryAt);
    const rawQuery = queryAt === -1 ? '' : url.slice(queryAt + 1);
    if (basePath && fullPath !== basePath && !fullPath.startsWith(`${basePath}/`)) {
      throw new HttpError('ERR_NOT_FOUND', `No resource at ${fullPath}`);
    }
    const path = fullPath.slice(basePath.length) || '/';
    let method = req.method ?? 'GET';
    // CONTRACT §7, HTML forms: a same-origin form post stands for the method its `_method` field names.
    let form: FormSubmission | undefined;
    if (isFormPost(req, services.publicOrigin())) {
      form = await readFormPost(req, config.maxBodyBytes, basePath);
      method = form.method;
    }
    const match = routes.match(method, path);
    if (match.kind === 'not-found') throw new HttpError('ERR_NOT_FOUND', `No resource at ${fullPath}`);
    if (match.kind === 'method-not-allowed') {
      labels.route = match.pattern;
      // RFC 9110 §15.5.6: a 405 carries Allow.
      throw new HttpError('ERR_METHOD_NOT_ALLOWED', `${method} is not allowed on ${fullPath}`, { headers: { Allow: match.allowed.join(', ') } });
    }
    const definition = match.route.handler;
    labels.route = match.route.pattern;
    let formRule: FormRule | undefined;
    if (form) {
      formRule = formRuleOf(method, match.route.pattern);
      if (!formRule || (form.kind === 'multipart' && !formRule.shape.files)) throw formNotAccepted(method, fullPath);
      // The handler reads the JSON body the fields describe, and validates it as it would any (one copy of the rules).
      if (form.kind === 'urlencoded') presetBody(req, formBody(form, formRule.shape));
    }
    if (method === 'OPTIONS') {
      const headers: Record<string, string> = { Allow: match.allowed.join(', ') };
      const patch = routes.match('PATCH', path);
      if (patch.kind === 'found' && patch.route.handler.acceptPatch) headers['Accept-Patch'] = patch.route.handler.acceptPatch.join(', ');
      return { status: 204, headers };
    }
    if (definition.extraMediaTypes) {
      // Asked for by name only (EventSource sends Accept: text/event-stream); */* still means JSON.
      const extended = negotiateMediaType(req.headers.accept, [...REPRESENTATION_TYPES, ...definition.extraMediaTypes]);
      if (extended !== null) state.mediaType = extended;
      state.negotiated = true;
      if (extended === null) {
        throw new HttpError('ERR_NOT_ACCEPTABLE', `Available representations: ${[...REPRESENTATION_TYPES, ...definition.extraMediaTypes].join(', ')}`);
      }
    } else if (!definition.raw) {
      if (chosen === null) {
        throw new HttpError('ERR_NOT_ACCEPTABLE', `Available representations: ${REPRESENTATION_TYPES.join(', ')}`);
      }
      state.negotiated = true;
    }
    // GET and HEAD find what nothing has changed since it was read (resources/kept-reply.ts); writes read it all.
    const kept = keptReadsFor(services.storage, method, definition);
    const caller: Caller | undefined = definition.auth === 'public' ? undefined
      : await authenticate(req, services, definition.auth === 'optional' ? 'optional' : 'required', kept);
    labels.userId = caller?.userId;
    // CONTRACT §11: a signed-in user's writes are counted before any work; over the quota nothing is written.
    if (caller && UNSAFE_METHODS.has(method) && definition.writeLimited !== false && services.writeLimit.enabled) {
      Object.assign(state.responseHeaders ??= {}, (await services.writeLimit.take(caller.userId)).headers);
    }
    const ctx = new Exchange(req, method, path, rawQuery, match.params, requestId, state, services, caller, kept, href, form);
    if (!form || !formRule) return pages.withPage(ctx, await definition.handler(ctx));
    return pages.answerForm(ctx, form, formRule, () => definition.handler(ctx));
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now();
    const requestId = randomUUID();
    const labels = observed ? observeExchange(req, res, { requestId, started, now, metrics: recorded, logFormat, trace: config.trace })
      : { route: UNMATCHED_ROUTE, userId: undefined };
    // Every answer's own headers go to writeHead with the rest, at once (http/send.ts): nothing is set on the
    // response before, which keeps Node on its fast path (one pass over the headers, not setHeader each).
    const baseHeaders: Record<string, string> = { 'X-Request-Id': requestId };
    if (draining) baseHeaders['Connection'] = 'close';
    const cors: CorsRequest = { origin: req.headers.origin, method: req.method ?? 'GET', requestMethod: req.headers['access-control-request-method'] };
    if (config.corsOrigins.length > 0) Object.assign(baseHeaders, corsHeaders(config.corsOrigins, cors));
    const client = new ClientPresence(res);
    const state: RequestState = { mediaType: 'application/json', negotiated: false, responseHeaders: undefined, client };
    let reply: Reply;
    try {
      reply = await route(req, requestId, state, labels);
    } catch (error) {
      const clientGone = client.gone() || req.errored !== null || (error as NodeJS.ErrnoException)?.code === 'ECONNRESET';
      reply = problemReply(error, requestId, clientGone, config.logFormat);
    }
    try {
      if (cors.method === 'OPTIONS') {
        const preflight = preflightMethods(config.corsOrigins, cors, reply.headers?.['Allow']);
        if (preflight['Access-Control-Allow-Methods']) reply.headers = { ...reply.headers, ...preflight };
      }
      if (res.headersSent || res.destroyed) return;
      // An answer given before the body was read in full (a 413, a refused part, a 401 before a body...)
      // cannot tell where the rest of the body ends: close the connection after it (RFC 9112 §9.6).
      if (!req.complete) baseHeaders['Connection'] = 'close';
      sendReply(req, res, reply, [baseHeaders, state.responseHeaders, reply.headers], {
        mediaType: state.mediaType, basePath, negotiated: state.negotiated, requestId, logFormat: config.logFormat,
      });
    } catch (error) {
      // sendReply never throws; this is the last guard of a promise nobody awaits (index.ts): a bug here is
      // logged and cuts one connection, it never ends the process (docs/operations.md).
      process.stderr.write(formatErrorLine(config.logFormat, Date.now(), requestId, error));
      res.destroy();
    }
  }

  return {
    services,
    routes,
    handle,
    stopAccepting: () => {
      draining = true;
      events.stop();
    },
    setListenUrl: (url) => { listenOrigin = new URL(url).origin; },
    close: async () => {
      events.stop();
      metrics.stop();
      await storage.close();
    },
  };
}
