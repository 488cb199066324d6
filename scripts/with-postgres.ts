// Runs a command with a throwaway PostgreSQL beside it (make test): starts the server, migrates a template
// database, exports TEST_DATABASE_URL and TEST_DATABASE_TEMPLATE, runs the command, then removes the server.
// Usage: node --import tsx scripts/with-postgres.ts <command> [args...]
import { spawn } from 'node:child_process';
import { startThrowawayPostgres } from '../test/postgres/throwaway-postgres.ts';
import { prepareTemplate, TEST_DATABASE_TEMPLATE } from '../test/postgres/test-database.ts';

const [command, ...args] = process.argv.slice(2);
if (command === undefined) {
  process.stderr.write('usage: with-postgres.ts <command> [args...]\n');
  process.exit(2);
}

const server = await startThrowawayPostgres();
let code = 1;
try {
  await prepareTemplate(server.url);
  process.stdout.write(`with-postgres: PostgreSQL on 127.0.0.1:${server.port}, template ${TEST_DATABASE_TEMPLATE} migrated\n`);
  const child = spawn(command, args, {
    stdio: 'inherit',
    env: { ...process.env, TEST_DATABASE_URL: server.url, TEST_DATABASE_TEMPLATE },
  });
  code = await new Promise<number>((resolve) => child.on('exit', (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0))));
} finally {
  server.stop();
}
process.exit(code);
