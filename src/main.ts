// The only file with side effects: read the configuration, open the database, listen, stop on a signal.
import { runBackupCommand } from './backup-command.ts';
import { ConfigError, formatHelp, parseConfig, type Config } from './config.ts';
import { startServer } from './index.ts';
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
  if (argv[0] === 'backup') {
    process.exitCode = await runBackupCommand(argv.slice(1), process.env);
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
  const running = await startServer(config);
  process.stdout.write(`chat-server listening on ${running.url}${config.basePath} (database ${config.db})\n`);
  if (running.metricsUrl) process.stdout.write(`chat-server metrics on ${running.metricsUrl}\n`);
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
