// The only file with side effects: read the configuration, open the database, listen, stop on a signal.
import { ConfigError, formatHelp, parseConfig, type Config } from './config.ts';
import { startServer, StartupError, type RunningServer } from './index.ts';
import { DatabaseOpenError } from './storage/database.ts';
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
    running = await startServer({ ...config, onEventsCommitted: () => tellPrimary({ type: 'events' }) });
  } catch (error) {
    tellPrimary({ type: 'failed', message: (error as Error).message });
    process.exit(2);
  }
  const { events } = running.app.services;
  onPrimaryMessage((message) => {
    if (message.type === 'wake') events.wake();
  });
  tellPrimary({ type: 'listening', url: `${running.url}${config.basePath}` });
  stopOn(['SIGTERM', 'SIGINT'], () => void running.close().then(() => process.exit(0)));
}

/** The start-up line's address, then where a newcomer goes next: the landing page and the API's description. */
function describeAddress(home: string, setup: string): string {
  return `${home} (${setup}): open ${home}/ in a browser; the API is described at ${home}/openapi.json`;
}

function runPrimary(config: Config): void {
  let primary: ReturnType<typeof startPrimary>;
  try {
    primary = startPrimary(config, {
      listening: (url) => process.stdout.write(`chat-server listening on ${describeAddress(url, `${config.workers} workers, database ${config.db}`)}\n`),
      log: (line) => process.stderr.write(`${line}\n`),
      failed: (message) => {
        process.stderr.write(`chat-server: ${message}\n`);
        process.exit(2);
      },
    });
  } catch (error) {
    // The primary opens the database once to migrate it: the same one-line exit 2 as a single process.
    if (!(error instanceof DatabaseOpenError)) throw error;
    process.stderr.write(`chat-server: ${error.message}\n`);
    process.exit(2);
  }
  stopOn(['SIGTERM', 'SIGINT'], (signal) => {
    process.stdout.write(`chat-server: ${signal}, draining ${config.workers} workers\n`);
    void primary.stop().then(() => process.exit(0));
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
  const config = readConfig(argv);
  if (config.workers > 1) return runPrimary(config);
  let running: RunningServer;
  try {
    running = await startServer(config);
  } catch (error) {
    // A database or address that cannot be used is a configuration error: one line, exit 2, no stack.
    if (!(error instanceof StartupError)) throw error;
    process.stderr.write(`chat-server: ${error.message}\n`);
    process.exit(2);
  }
  process.stdout.write(`chat-server listening on ${describeAddress(`${running.url}${config.basePath}`, `database ${config.db}`)}\n`);
  stopOn(['SIGTERM', 'SIGINT'], (signal) => {
    process.stdout.write(`chat-server: ${signal}, finishing requests in flight\n`);
    void running.close().then(() => process.exit(0));
  });
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`chat-server: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
