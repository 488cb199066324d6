// Runs a `chat-server` subcommand (backup, admin, migrate, ...) as a user would, from the source: its exit code and
// everything it printed. DB_PATH and DATABASE_URL of the test's own environment are not passed on.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));

export interface CommandExit {
  code: number | null;
  stdout: string;
  stderr: string;
}

export async function runCommand(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<CommandExit> {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, DB_PATH: undefined, DATABASE_URL: undefined, ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => { stdout += chunk; });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk; });
  const [code] = await once(child, 'exit') as [number | null];
  return { code, stdout, stderr };
}
