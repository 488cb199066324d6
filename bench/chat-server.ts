// The chat server as a benchmark child: startServer with the options the bench passes.
import { startServer, type StartOptions } from '../src/index.ts';

export async function start(options: StartOptions): Promise<{ url: string; close(): Promise<void> }> {
  // Rate limits off and sign-up open: the benchmarks measure the server's work, not its refusals.
  return startServer({ host: '127.0.0.1', port: 0, quiet: true, writeRate: 0, registerRate: 0, loginRate: 0, registration: 'open', ...options });
}
