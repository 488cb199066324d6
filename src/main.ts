// The only file with side effects: read the configuration, open the database, listen, stop on a signal.
import { runBackupCommand } from './backup-command.ts';
import { ConfigError, formatHelp, parseConfig, type Config } from './config.ts';
import { startServer } from './index.ts';
import { answerMetricsRequests, clusterMetricsSource } from './metrics/cluster-metrics.ts';
import { listenForMetrics, type MetricsListener } from './metrics/metrics-server.ts';
import { serverVersion } from './version.ts';
import { isWorkerProcess, onPrimaryMessage, startPrimary, tellPrimary, workerConfig } from './workers.ts';

function readConfig(argv: string[]): Config {
  try {
    return parseConfig(argv, process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`chat-server: ${error.message}\n`);
    process.exit(2);
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
    running = await startServer({ ...config, serveMetrics: false, onEventsCommitted: () => tellPrimary({ type: 'events' }) });
  } catch (error) {
    tellPrimary({ type: 'failed', message: (error as Error).message });
    process.exit(2);
  }
  const { events, metrics } = running.app.services;
  if (config.metricsPort !== null) answerMetricsRequests(metrics);
  onPrimaryMessage((message) => {
    if (message.type === 'wake') events.wake();
  });
  tellPrimary({ type: 'listening', url: `${running.url}${config.basePath}` });
  stopOn(['SIGTERM', 'SIGINT'], () => void running.close().then(() => process.exit(0)));
}

async function runPrimary(config: Config): Promise<void> {
  // One metrics port for all workers: each scrape merges what every worker counted.
  let metricsListener: MetricsListener | undefined;
  if (config.metricsPort !== null) metricsListener = await listenForMetrics(clusterMetricsSource(), config.metricsPort, config.host);
  const primary = startPrimary(config, {
    listening: (url) => {
      process.stdout.write(`chat-server listening on ${url} (${config.workers} workers, database ${config.db})\n`);
      if (metricsListener) process.stdout.write(`chat-server metrics on ${metricsListener.url}\n`);
    },
    log: (line) => process.stderr.write(`${line}\n`),
    failed: (message) => {
      process.stderr.write(`chat-server: ${message}\n`);
      process.exit(2);
    },
  });
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
    process.stdout.write(`${serverVersion()}\n`);
    return;
  }
  if (argv[0] === 'backup') {
    process.exitCode = await runBackupCommand(argv.slice(1), process.env);
    return;
  }
  const config = readConfig(argv);
  if (config.workers > 1) return runPrimary(config);
  const running = await startServer(config);
  process.stdout.write(`chat-server listening on ${running.url}${config.basePath} (database ${config.db})\n`);
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
