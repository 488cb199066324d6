// Everything that lives as long as the server: the store, the event hub, metrics, limits and the route table.
import type { Config } from './config.ts';
import { formatErrorLine } from './http/access-log.ts';
import { SYSTEM_CLOCK, type Clock } from './clock.ts';
import type { AppServices, Route } from './resources/context.ts';
import { RateLimit } from './resources/limits/rate-limit.ts';
import { LoginLimiter } from './resources/session/login-limiter.ts';
import { PasswordHasher } from './resources/session/password-hasher.ts';
import { findLiveSessions } from './resources/session/live-sessions.ts';
import { ServerMetrics } from './metrics/server-metrics.ts';
import { ALL_ROUTES } from './resources/all-routes.ts';
import { checkFormRules } from './resources/form-rules.ts';
import { EventHub } from './events/hub.ts';
import { EventWakeUp } from './events/event-wake-up.ts';
import { EphemeralBus, type BusTransport } from './events/ephemeral-bus.ts';
import { PresenceTracker } from './events/presence.ts';
import { TypingTracker } from './events/typing.ts';
import { RouteTable } from './router/route-table.ts';
import { uploadCleanup as makeUploadCleanup } from './resources/attachments/cleanup.ts';
import { deliveryRetention as makeDeliveryRetention } from './outbound/delivery-retention.ts';
import { openStore, type StoreConfig } from './storage/open-store.ts';
import { DeliveryLoop, type DeliveryLoopOptions } from './outbound/delivery-loop.ts';
import { OutboundKinds } from './outbound/outbound-kind.ts';
import { createWebhookKind } from './resources/webhooks/webhook-kind.ts';
import { CryptoPool } from './outbound/crypto-pool.ts';
import { createPushKind } from './resources/push/push-kind.ts';
import { loadVapidSigner } from './resources/push/vapid-key.ts';

/** Internal store options (benchmarks compare synchronous=NORMAL, no group commit, no events); they are not flags. */
export type StorageOptions = Omit<StoreConfig, 'db' | 'onCommit' | 'sharedRateCounters' | 'commits'>;

/** Intervals of the event hub's timers, for tests that cannot wait 15 s for a ping (not flags). */
export interface EventTimings {
  pingMs?: number;
  pollMs?: number;
  pruneMs?: number;
  /** Also called after each commit that wrote events, with its newest event id on disk (a worker tells the others through the primary). */
  onEventsCommitted?: (onDiskThrough: number | undefined) => void;
  outbound?: OutboundTimings;
  /** --workers on SQLite: carries an ephemeral bus message to the other workers (through the primary: src/workers.ts). */
  onEphemeral?: (payload: string) => void;
  /** For tests: presence's flush and sweep intervals, ms (events/presence.ts). */
  presenceFlushMs?: number;
  presenceSweepMs?: number;
}

/** The outbound loop's timings, for tests that cannot wait for a 5 s backoff (not flags). */
export type OutboundTimings = Pick<DeliveryLoopOptions, 'pollMs' | 'retry' | 'limits' | 'resolve'>;

export interface Services extends AppServices {
  routes: RouteTable<Route>;
  /** Tells the services where the server listens: the default public origin (--public-url unset). */
  setListenUrl(url: string): void;
  /** Stops the hub and the metrics, finishes queued writes and closes the store. */
  close(): Promise<void>;
}

function listenOriginOf(config: Config): string {
  return `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}`;
}

/** Opens the store and builds what handlers use (AppServices) around it; the order is the order of dependence. */
export async function createServices(config: Config, clock: Clock = SYSTEM_CLOCK, storageOptions: StorageOptions = {}, eventTimings: EventTimings = {}): Promise<Services> {
  // A form rule for a route that does not exist stops the server before anything is opened (docs/html.md).
  checkFormRules(ALL_ROUTES);
  // Always there, so any code may count; requests are recorded only when a metrics port is set.
  const metrics = new ServerMetrics();
  // commit -> event -> wake-up (docs/events.md): the store tells wakeUp of each commit that wrote events; wakeUp
  // counts them, wakes the hub made below, and relays them to the other workers (--workers).
  const { onEventsCommitted, onEphemeral, presenceFlushMs, presenceSweepMs, outbound: outboundTimings, ...timings } = eventTimings;
  const wakeUp = new EventWakeUp(metrics.eventsWritten, onEventsCommitted);
  // The ephemeral bus (docs/events.md, "Ephemeral events"): typing and presence reach every process of the server.
  const bus = new EphemeralBus();
  const storage = await openStore({
    ...storageOptions,
    db: config.db,
    poolSize: config.dbPool,
    onCommit: (writes) => metrics.observeWriteBatch(writes),
    // One process counts in memory; several processes on one database (--workers) count in it, together.
    sharedRateCounters: config.workers > 1,
    // Each commit's sync off the event loop (storage/sqlite/wal-sync.ts), with --workers too: the log's reads hand out
    // another process's events once they are on disk.
    syncOffLoop: true,
    commits: wakeUp,
    onBroadcast: (payload) => bus.receive(payload),
    logError: (error) => void process.stderr.write(formatErrorLine(config.logFormat, clock.now(), 'checkpoint', error)),
  });
  // PostgreSQL carries the bus between servers and between the workers of each (each listens itself); SQLite's
  // workers hear each other through the primary; one process alone needs no transport.
  const transport: BusTransport | undefined = storage.broadcast
    ? { send: (payload) => void storage.broadcast!(payload).catch(() => {}) }
    : onEphemeral && { send: onEphemeral };
  bus.connect(transport);
  const logHubError = (error: unknown): void => void process.stderr.write(formatErrorLine(config.logFormat, clock.now(), 'event-hub', error));
  let presence: PresenceTracker | undefined;
  const rateCounters = storage.rateCounters;
  let listenOrigin = listenOriginOf(config);
  const events = new EventHub({
    log: storage.events,
    snapshot: (work) => storage.snapshot((tx) => work(tx.events)),
    startAfter: await storage.events.newestId(),
    now: () => clock.now(),
    retentionSeconds: config.eventRetention,
    // A stream's "session" is a login session or a personal access token (docs/protocol.md §16.1).
    liveSessions: (ids) => findLiveSessions(storage, ids, clock.now()),
    logError: logHubError,
    streamsChanged: (userId, open) => presence?.streamsChanged(userId, open),
    ...timings,
  });
  bus.listen((message) => {
    if (message.kind === 'event') metrics.ephemeralDelivered.inc(events.deliverEphemeral(message.event));
  });
  presence = new PresenceTracker({
    bus,
    now: () => clock.now(),
    localStreams: (userId) => events.streamCount(userId),
    localHolders: () => events.streamHolders(),
    chatIdsOfUser: (userId) => storage.events.chatIdsOfUser(userId),
    lastSeenOf: async (userId) => (await storage.users.findUserById(userId))?.lastSeenAt ?? null,
    // In the group commit: its sync off the event loop, shared with the requests' writes of the moment.
    recordLastSeen: (seen) => storage.writeTogether((tx) => tx.users.recordLastSeen(seen)),
    logError: logHubError,
    flushMs: presenceFlushMs,
    sweepMs: presenceSweepMs,
  });
  const typing = new TypingTracker(bus, () => clock.now());
  wakeUp.startWaking(events);
  // docs/protocol.md §16.5: every process runs the outbound loop; commits that queued deliveries wake it.
  const kinds = new OutboundKinds();
  const loop = new DeliveryLoop({
    queue: storage.outbound,
    kinds,
    clock,
    allowPrivate: (kind) => (kind === 'webhook' && config.webhookAllowPrivate) || (kind === 'push' && config.pushAllowInsecure),
    logError: (error) => process.stderr.write(formatErrorLine(config.logFormat, clock.now(), 'outbound', error)),
    ...outboundTimings,
  });
  kinds.register(createWebhookKind({ storage, clock, config }));
  // docs/push.md, "What runs where": push encryption and signatures on worker threads, started at the first push.
  const cryptoPool = new CryptoPool({ logError: (error) => process.stderr.write(formatErrorLine(config.logFormat, clock.now(), 'crypto-pool', error)) });
  if (config.pushSubject !== '') cryptoPool.start();
  // docs/protocol.md §17.1: the one VAPID key, made by the first process that starts on this database.
  const pushSigner = await loadVapidSigner(storage, clock, cryptoPool);
  const publicOrigin = (): string => config.publicUrl || listenOrigin;
  kinds.register(createPushKind({ storage, clock, config, events, publicOrigin }, pushSigner, cryptoPool));
  wakeUp.alsoWake(() => loop.wake());
  loop.start();
  const uploadCleanup = makeUploadCleanup({
    storage, clock, logError: (error) => process.stderr.write(formatErrorLine(config.logFormat, clock.now(), 'upload-cleanup', error)),
  });
  uploadCleanup.start();
  const deliveryRetention = makeDeliveryRetention({
    storage, clock, retentionSeconds: config.deliveryRetention,
    logError: (error) => process.stderr.write(formatErrorLine(config.logFormat, clock.now(), 'delivery-retention', error)),
  });
  deliveryRetention.start();
  metrics.streamsOpen.readFrom(() => events.streamCount());
  return {
    config,
    storage,
    clock,
    metrics,
    hasher: new PasswordHasher({ n: config.scryptN, concurrency: config.hashConcurrency, maxQueued: config.hashQueue }),
    loginLimiter: new LoginLimiter({ maxFailures: config.loginMaxFailures, windowMs: config.loginWindow * 1000, checkRate: config.loginRate, clock, store: rateCounters }),
    writeLimit: new RateLimit({ name: 'writes', quota: config.writeRate, windowSeconds: 60 }, rateCounters, clock),
    registerLimit: new RateLimit({ name: 'registrations', quota: config.registerRate, windowSeconds: 3600 }, rateCounters, clock),
    publicOrigin,
    events,
    outbound: { kinds, loop },
    push: { signer: pushSigner, pool: cryptoPool },
    uploadCleanup,
    deliveryRetention,
    bus,
    typing,
    presence,
    routes: new RouteTable<Route>(ALL_ROUTES.map((route) => ({ method: route.method, pattern: route.pattern, handler: route }))),
    setListenUrl: (url) => { listenOrigin = new URL(url).origin; },
    close: async () => {
      typing.stopTimers();
      // Before the hub ends the streams: the other processes hear that this one's holders left, not one by one.
      await presence.stop().catch(logHubError);
      events.stop();
      loop.stop();
      // Jobs not yet answered are rejected: their deliveries are not recorded, and are sent when their lease runs out.
      await cryptoPool.stop();
      uploadCleanup.stop();
      deliveryRetention.stop();
      metrics.stop();
      await storage.close();
    },
  };
}
