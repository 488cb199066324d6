// The chat server as a benchmark child: startServer with the options the bench passes.
import { startServer, type StartOptions } from '../src/index.ts';

export async function start(options: StartOptions): Promise<{ url: string; close(): Promise<void> }> {
  return startServer({ host: '127.0.0.1', port: 0, quiet: true, ...options });
}
