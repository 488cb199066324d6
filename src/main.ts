// The only file with side effects: read the configuration, open the database, listen, stop on a signal.
import { ConfigError, formatHelp, parseConfig, type Config } from './config.ts';
import { startServer, StartupError, type RunningServer } from './index.ts';
import { serverVersion } from './version.ts';

async function main(argv: string[]): Promise<void> {
  if (argv.includes('--help')) {
    process.stdout.write(formatHelp());
    return;
  }
  if (argv.includes('--version')) {
    process.stdout.write(`${serverVersion()}\n`);
    return;
  }
  let config: Config;
  try {
    config = parseConfig(argv, process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`chat-server: ${error.message}\n`);
    process.exit(2);
  }
  let running: RunningServer;
  try {
    running = await startServer(config);
  } catch (error) {
    // A database or address that cannot be used is a configuration error: one line, exit 2, no stack.
    if (!(error instanceof StartupError)) throw error;
    process.stderr.write(`chat-server: ${error.message}\n`);
    process.exit(2);
  }
  const home = `${running.url}${config.basePath}`;
  process.stdout.write(`chat-server listening on ${home} (database ${config.db}): open ${home}/ in a browser; the API is described at ${home}/openapi.json\n`);
  const stop = (signal: string): void => {
    process.stdout.write(`chat-server: ${signal}, finishing requests in flight\n`);
    void running.close().then(() => process.exit(0));
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`chat-server: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
