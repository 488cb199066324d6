// The one error for a server that cannot start as configured: main.ts prints it as one line and exits 2.

/** A database or listen address that cannot be used; the message is one line a person can act on. */
export class StartupError extends Error {
  override name = 'StartupError';
}

// What a listen failure means for the --host and --port (or --metrics-port) the user gave.
const LISTEN_FAILURES = new Map([
  ['EADDRINUSE', 'the port is already in use (choose another, or 0 for any free one)'],
  ['EACCES', 'permission denied (ports below 1024 need privileges: choose another)'],
  ['EPERM', 'operation not permitted'],
  ['EADDRNOTAVAIL', 'the address is not one of this machine\'s (see --host)'],
  ['ENOTFOUND', 'the host name is not known (see --host)'],
  ['EAI_AGAIN', 'the host name cannot be resolved now (see --host)'],
]);

/** A StartupError for a listen failure the user can act on; any other error as it is. */
export function listenFailure(error: unknown, host: string, port: number, option = '--port'): unknown {
  const reason = LISTEN_FAILURES.get((error as NodeJS.ErrnoException).code ?? '');
  return reason === undefined ? error : new StartupError(`cannot listen on ${host} port ${port} (${option}): ${reason}`);
}
