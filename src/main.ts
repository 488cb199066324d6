// The only file with side effects: read the configuration, open the database, listen, stop on a signal.
import { runAdminCommand } from './admin-command.ts';
import { runBackupCommand } from './backup-command.ts';
import { runConformanceCommand } from './conformance-command.ts';
import { runMigrateCommand } from './migrate-command.ts';
import { redactDatabase } from './storage/database-url.ts';
import { ConfigError, parseConfig, type Config } from './config.ts';
import { formatHelp } from './help.ts';
import { startServer, type RunningServer } from './index.ts';
import { answerMetricsRequests, clusterMetricsSource } from './metrics/cluster-metrics.ts';
import { listenForMetrics, type MetricsListener } from './metrics/metrics-server.ts';
import { PATHS } from './paths.ts';
import { listenFailure, StartupError } from './startup-error.ts';
import { DatabaseOpenError } from './storage/store.ts';
import { serverVersion } from './version.ts';
import { isWorkerProcess, onPrimaryMessage, startPrimary, tellPrimary, workerConfig } from './workers.ts';

/** Bad configuration (an option, a database or address that cannot be used): one line on stderr, exit 2. */
function exitMisconfigured(message: string): never {
  process.stderr.write(`chat-server: ${message}\n`);
  process.exit(2);
}

function readConfig(argv: string[]): Config {
  try {
    return parseConfig(argv, process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    exitMisconfigured(error.message);
  }
}

function stopOn(signals: readonly NodeJS.Signals[], stop: (signal: string) => void): void {
  for (const signal of signals) process.once(signal, () => stop(signal));
}

/** One of --workers N processes: the primary gave it the configuration and shares the port with it. */
async function runWorker(): Promise<void> {
  const config = workerConfig();
  let running;
  try {
    running = await startServer({
      ...config, serveMetrics: false,
      onEventsCommitted: (onDiskThrough) => tellPrimary({ type: 'events', onDiskThrough }),
      onEphemeral: (payload) => tellPrimary({ type: 'ephemeral', payload }),
    });
  } catch (error) {
    tellPrimary({ type: 'failed', message: (error as Error).message });
    process.exit(2);
  }
  const { events, metrics, bus, storage } = running.app.services;
  if (config.metricsPort !== null) answerMetricsRequests(metrics);
  onPrimaryMessage((message) => {
    if (message.type === 'wake') {
      // Before the wake: the hub's read then finds the other's events on disk, without a sync of its own.
      if (message.onDiskThrough !== undefined) storage.eventsOnDisk(message.onDiskThrough);
      events.wake();
    }
    else if (message.type === 'ephemeral') bus.receive(message.payload);
  });
  tellPrimary({ type: 'listening', url: `${running.url}${config.basePath}` });
  stopOn(['SIGTERM', 'SIGINT'], () => void running.close().then(() => process.exit(0)));
}

/** The start-up line's address, then where a newcomer goes next: the landing page and the API's description. */
function describeAddress(home: string, setup: string): string {
  return `${home} (${setup}): open ${home}/ in a browser; the API is described at ${home}${PATHS.openApi}`;
}

/** A database or address that cannot be used is a configuration error: one line, exit 2, no stack. */
function exitOnStartupError(error: unknown): never {
  if (!(error instanceof StartupError || error instanceof DatabaseOpenError)) throw error;
  exitMisconfigured(error.message);
}

async function runPrimary(config: Config): Promise<void> {
  // One metrics port for all workers: each scrape merges what every worker counted.
  let metricsListener: MetricsListener | undefined;
  let primary: Awaited<ReturnType<typeof startPrimary>>;
  try {
    if (config.metricsPort !== null) {
      const port = config.metricsPort;
      metricsListener = await listenForMetrics(clusterMetricsSource(), port, config.host).catch((error: unknown) => {
        throw listenFailure(error, config.host, port, '--metrics-port');
      });
    }
    // The primary opens the database once to migrate it: the same one-line exit 2 as a single process.
    primary = await startPrimary(config, {
      listening: (url) => {
        process.stdout.write(`chat-server listening on ${describeAddress(url, `${config.workers} workers, database ${redactDatabase(config.db)}`)}\n`);
        if (metricsListener) process.stdout.write(`chat-server metrics on ${metricsListener.url}\n`);
      },
      log: (line) => process.stderr.write(`${line}\n`),
      failed: exitMisconfigured,
      notice: (line) => process.stdout.write(`chat-server: ${line}\n`),
    });
  } catch (error) {
    exitOnStartupError(error);
  }
  stopOn(['SIGTERM', 'SIGINT'], (signal) => {
    process.stdout.write(`chat-server: ${signal}, draining ${config.workers} workers\n`);
    void primary.stop().then(() => metricsListener?.close()).then(() => process.exit(0));
  });
}

async function main(argv: string[]): Promise<void> {
  if (isWorkerProcess()) return runWorker();
  if (argv.includes('--help')) {
    process.stdout.write(formatHelp());
    return;
  }
  if (argv.includes('--version')) {
    // The runtime too: the single executable carries its own Node.js, whose security fixes are the build's (docs/binary.md).
    process.stdout.write(`${serverVersion()} (Node.js ${process.version})\n`);
    return;
  }
  if (argv[0] === 'backup') {
    process.exitCode = await runBackupCommand(argv.slice(1), process.env);
    return;
  }
  if (argv[0] === 'admin') {
    process.exitCode = await runAdminCommand(argv.slice(1), process.env);
    return;
  }
  if (argv[0] === 'conformance') {
    process.exitCode = await runConformanceCommand(argv.slice(1));
    return;
  }
  if (argv[0] === 'migrate') {
    process.exitCode = await runMigrateCommand(argv.slice(1));
    return;
  }
  const config = readConfig(argv);
  if (config.workers > 1) return runPrimary(config);
  let running: RunningServer;
  try {
    running = await startServer(config);
  } catch (error) {
    exitOnStartupError(error);
  }
  process.stdout.write(`chat-server listening on ${describeAddress(`${running.url}${config.basePath}`, `database ${redactDatabase(config.db)}`)}\n`);
  for (const notice of running.app.services.storage.notices) process.stdout.write(`chat-server: ${notice}\n`);
  if (running.metricsUrl) process.stdout.write(`chat-server metrics on ${running.metricsUrl}\n`);
  stopOn(['SIGTERM', 'SIGINT'], (signal) => {
    process.stdout.write(`chat-server: ${signal}, finishing requests in flight\n`);
    void running.close().then(() => process.exit(0));
  });
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`chat-server: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
