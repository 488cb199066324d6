// The embedding API: build a server on a database path and listen on a port (0 for any free one).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp, type App, type EventTimings } from './app.ts';
import { DEFAULT_CONFIG, type Config } from './config.ts';
import type { Clock } from './clock.ts';
import { guardConnections, planDescriptors, readFileLimit } from './http/descriptors.ts';
import { HttpError } from './http/http-error.ts';
import { sendSocketProblem } from './http/send.ts';
import { listenForMetrics, type MetricsListener } from './metrics/metrics-server.ts';
import { listenFailure, StartupError } from './startup-error.ts';
import { isPostgresUrl } from './storage/database-url.ts';
import { DatabaseOpenError } from './storage/store.ts';

export { StartupError } from './startup-error.ts';
// The conformance kit (docs/conformance.md): `import { runConformance } from 'chat-api'` audits any server by its URL.
export { ALL_CHECKS, formatJson, formatJunit, formatTap, formatText, runConformance } from './conformance/index.ts';
export type { Check, CheckResult, ConformanceOptions, ConformanceReport, Level, Outcome, ReporterName } from './conformance/index.ts';
export type { Config } from './config.ts';
export type { Clock } from './clock.ts';

export interface StartOptions extends Partial<Config> {
  /** A clock for tests that move time instead of sleeping. */
  clock?: Clock;
  /** For benchmarks only (not a flag): NORMAL shows what synchronous=FULL costs. Default FULL. */
  synchronous?: 'FULL' | 'NORMAL';
  /** For benchmarks only (not a flag): false commits every write alone, to show what group commit gains. */
  groupCommit?: boolean;
  /** For benchmarks only (not a flag): false writes no events, to show what the event write costs. */
  recordEvents?: boolean;
  /** For benchmarks only (not a flag): false gives SQLite no change stamp, so nothing is kept (storage/read-through.ts). */
  keepReads?: boolean;
  /** Called after each commit that wrote events, with its newest event id on disk (--workers: the primary tells the other workers). */
  onEventsCommitted?: (onDiskThrough: number | undefined) => void;
  /** --workers on SQLite: carries the ephemeral bus's messages to the primary, which relays them to the other workers. */
  onEphemeral?: (payload: string) => void;
  /** For tests only (not flags): the event hub's ping, poll and prune intervals, ms. */
  eventTimings?: EventTimings;
  /** false (--workers): record metrics but open no metrics listener; the primary serves the merged ones. */
  serveMetrics?: boolean;
}

export interface RunningServer {
  /** http://host:port, with no base path. */
  url: string;
  port: number;
  server: Server;
  app: App;
  /** http://host:port/metrics when --metrics-port is set (same host as the API). */
  metricsUrl?: string;
  /** Stops accepting, lets requests in flight finish, then closes the database. */
  close(): Promise<void>;
}

export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  const { clock, synchronous, groupCommit, recordEvents, keepReads, eventTimings, onEventsCommitted, onEphemeral, serveMetrics = true, ...overrides } = options;
  const config: Config = { ...DEFAULT_CONFIG, db: ':memory:', port: 0, quiet: true, ...overrides };
  // Descriptors are planned (docs/operations.md, File descriptors): --max-streams fits the file limit, or is lowered with a warning.
  const descriptors = planDescriptors(readFileLimit(), config.maxStreams, isPostgresUrl(config.db) ? config.dbPool : 0);
  if (descriptors.warning !== undefined) process.stderr.write(`${descriptors.warning}\n`);
  config.maxStreams = descriptors.maxStreams;
  let app: App;
  try {
    app = await createApp(config, clock, { synchronous, groupCommit, recordEvents, keepReads }, { ...eventTimings, onEventsCommitted, onEphemeral });
  } catch (error) {
    if (error instanceof DatabaseOpenError) throw new StartupError(error.message);
    throw error;
  }
  const server = createServer({
    // Deliberate limits against slow clients (slowloris): headers and whole requests must arrive in time,
    // and the check runs every second rather than Node's default 30 s.
    headersTimeout: config.headersTimeout * 1000,
    requestTimeout: config.requestTimeout * 1000,
    connectionsCheckingInterval: 1000,
    keepAliveTimeout: config.keepAliveTimeout * 1000,
    // RFC 9112 §6.3: conflicting framing (Content-Length with Transfer-Encoding) is refused by the parser.
    insecureHTTPParser: false,
  }, (req, res) => {
    // A connection past the file limit got its 503 already (http/descriptors.ts): its request is read and dropped, never served.
    if (connections.wasRefused(req.socket)) {
      req.resume();
      return;
    }
    void app.handle(req, res);
  });
  server.keepAliveTimeout = config.keepAliveTimeout * 1000;
  const connections = guardConnections(server, descriptors.maxConnections, (line) => process.stderr.write(`${line}\n`));
  // What Node's parser refuses (bad request line, conflicting framing, header overflow, timeouts)
  // still gets a problem document; CONNECT asks for a tunnel, which this server does not offer.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => sendSocketProblem(socket, error));
  server.on('connect', (_req, socket) => sendSocketProblem(socket, new HttpError('ERR_METHOD_NOT_ALLOWED', 'CONNECT is not supported', {
    headers: { Allow: 'OPTIONS, GET, HEAD, POST, PUT, PATCH, DELETE' },
  })));
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await app.close();
    throw listenFailure(error, config.host, config.port);
  }
  let metricsListener: MetricsListener | undefined;
  if (config.metricsPort !== null && !serveMetrics) app.services.metrics.start();
  if (config.metricsPort !== null && serveMetrics) {
    try {
      metricsListener = await listenForMetrics(app.services.metrics, config.metricsPort, config.host);
    } catch (error) {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await app.close();
      throw listenFailure(error, config.host, config.metricsPort, '--metrics-port');
    }
  }
  const port = (server.address() as AddressInfo).port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  app.setListenUrl(`http://${host}:${port}`);
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= new Promise<void>((resolve) => {
      app.stopAccepting();
      const metricsClosed = metricsListener?.close();
      // A client that stopped reading (a paused event stream) would hold the close for ever: past the time a whole
      // request may take (--request-timeout), what is still open is cut (docs/operations.md, Stopping).
      const deadline = setTimeout(() => connections.destroyAll(), config.requestTimeout * 1000);
      deadline.unref();
      server.close(() => {
        clearTimeout(deadline);
        void Promise.all([app.close(), metricsClosed]).then(() => resolve());
      });
      // Idle keep-alive connections would hold close() open; requests in flight still finish.
      server.closeIdleConnections();
    });
    return closing;
  };
  return { url: `http://${host}:${port}`, port, server, app, close, ...(metricsListener ? { metricsUrl: metricsListener.url } : {}) };
}
