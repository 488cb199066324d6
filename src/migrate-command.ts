// `chat-server migrate --from <sqlite file> --to <postgres url>`: moves a SQLite database into a new PostgreSQL one.
import { existsSync, statSync } from 'node:fs';
import { isPostgresUrl, redactDatabase } from './storage/database-url.ts';
import { openDatabase } from './storage/sqlite/database.ts';
import { copySqliteToPostgres } from './storage/postgres/copy-from-sqlite.ts';
import { createClient, describeConnectFailure } from './storage/postgres/driver.ts';
import { checkServerVersion, migratePostgres } from './storage/postgres/migrate.ts';
import { DatabaseOpenError } from './storage/store.ts';

const USAGE = 'usage: chat-server migrate --from <sqlite file> --to <postgres://user@host/database>';

function readArguments(argv: readonly string[]): { from: string; to: string } | string {
  const values = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [name, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    if (name !== '--from' && name !== '--to') return `unknown argument ${name} (${USAGE})`;
    const value = inline ?? argv[++i];
    if (value === undefined || value === '') return `${name}: missing value (${USAGE})`;
    values.set(name, value);
  }
  const from = values.get('--from');
  const to = values.get('--to');
  if (from === undefined || to === undefined) return `both --from and --to are needed (${USAGE})`;
  if (!isPostgresUrl(to)) return `--to must be a postgres:// URL, not ${JSON.stringify(redactDatabase(to))}`;
  if (from === ':memory:' || !existsSync(from) || !statSync(from).isFile()) return `--from: ${JSON.stringify(from)} is not a SQLite database file`;
  return { from, to };
}

/** Runs the subcommand; answers the exit code: 0 copied, 2 bad arguments or databases, 1 the copy failed. */
export async function runMigrateCommand(argv: readonly string[]): Promise<number> {
  const fail = (code: number, message: string): number => {
    process.stderr.write(`chat-server migrate: ${message}\n`);
    return code;
  };
  const parsed = readArguments(argv);
  if (typeof parsed === 'string') return fail(2, parsed);
  const { from, to } = parsed;
  let source;
  try {
    // Brings an older file to the current schema first, as a server starting on it would.
    source = openDatabase(from, undefined, { proveWritable: false });
  } catch (error) {
    return fail(2, (error as Error).message);
  }
  let target;
  try {
    target = await createClient(to);
    target.on('error', () => {});
    try {
      await target.connect();
    } catch (error) {
      throw new DatabaseOpenError(describeConnectFailure(to, error));
    }
    await checkServerVersion(target);
    await migratePostgres(target);
    const started = Date.now();
    const report = await copySqliteToPostgres(source, target);
    const counts = Object.entries(report.rows).map(([table, rows]) => `${rows} ${table}`).join(', ');
    process.stdout.write(`chat-server migrate: copied ${from} to ${redactDatabase(to)} in ${Date.now() - started} ms: ${counts}\n`);
    return 0;
  } catch (error) {
    if (error instanceof DatabaseOpenError) return fail(2, error.message);
    return fail(1, `the copy failed, nothing was written: ${String((error as Error).message).split('\n', 1)[0]}`);
  } finally {
    source.close();
    await target?.end().catch(() => {});
  }
}
