// `chat-server backup <file>`: an online copy of the configured database, for operators and `make backup`.
import { ConfigError, parseConfig } from './config.ts';
import { BackupError, backupDatabase } from './storage/sqlite/backup.ts';

const USAGE = 'usage: chat-server backup <file> [--db <path>]';

/** Runs the subcommand; answers the exit code: 0 done, 2 bad arguments or nothing to copy, 1 copy failed. */
export async function runBackupCommand(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const fail = (code: number, message: string): number => {
    process.stderr.write(`chat-server backup: ${message}\n`);
    return code;
  };
  const file = argv[0];
  if (file === undefined || file.startsWith('--')) return fail(2, `missing the backup file name (${USAGE})`);
  let db: string;
  try {
    // The same --db / DB_PATH as the server, so one environment serves both.
    db = parseConfig(argv.slice(1), env).db;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return fail(2, error.message);
  }
  if (/^postgres(ql)?:\/\//i.test(db)) {
    return fail(2, 'the database is PostgreSQL: back it up with pg_dump (e.g. pg_dump --format=custom --file=chat.dump "$DATABASE_URL")');
  }
  try {
    const started = Date.now();
    const result = await backupDatabase(db, file);
    process.stdout.write(`chat-server backup: copied ${db} to ${file} (${result.pages} pages, integrity ${result.integrity}, ${Date.now() - started} ms)\n`);
    return 0;
  } catch (error) {
    if (error instanceof BackupError) return fail(2, error.message);
    return fail(1, `the copy failed: ${(error as Error).message}`);
  }
}
