// Open file descriptors as a planned budget (docs/operations.md, File descriptors): the process's limit read at start,
// --max-streams sized under it, and connections past what fits answered 503 with Retry-After instead of an EMFILE.
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { HttpError } from './http-error.ts';
import { sendSocketProblem } from './send.ts';

/** Descriptors never given to client connections: the database's files, stdio, the event loop's own, outbound requests. */
export const KEPT_DESCRIPTORS = 64;
/** The share of client connections event streams may take; the rest stay for requests (and the 503s themselves). */
const STREAM_SHARE = 0.9;
const RETRY_SECONDS = 5;

/**
 * The soft limit on open files of this process (`ulimit -n`), from /proc/self/limits; undefined where that file
 * does not exist (not Linux) or says unlimited: then nothing is sized and only --max-streams holds.
 */
export function readFileLimit(read: () => string = () => readFileSync('/proc/self/limits', 'utf8')): number | undefined {
  let text: string;
  try {
    text = read();
  } catch {
    return undefined;
  }
  const soft = /^Max open files\s+(\S+)/m.exec(text)?.[1];
  return soft !== undefined && /^\d+$/.test(soft) ? Number(soft) : undefined;
}

export interface DescriptorPlan {
  fileLimit: number | undefined;
  /** Client connections held at once; the next is answered 503 and closed. */
  maxConnections: number;
  maxStreams: number;
  /** Set when a configured --max-streams does not fit: one line for stderr. */
  warning?: string;
}

/**
 * Client connections: the limit less the kept descriptors (and a PostgreSQL pool's); streams: nine tenths of those.
 * A configured --max-streams above that is lowered to it, with a warning; with no limit known it stands as configured.
 */
export function planDescriptors(fileLimit: number | undefined, configuredStreams: number | null, poolSize: number): DescriptorPlan {
  if (fileLimit === undefined) return { fileLimit, maxConnections: Infinity, maxStreams: configuredStreams ?? Infinity };
  const maxConnections = Math.max(1, fileLimit - KEPT_DESCRIPTORS - poolSize);
  const fits = Math.max(1, Math.floor(maxConnections * STREAM_SHARE));
  if (configuredStreams === null || configuredStreams <= fits) return { fileLimit, maxConnections, maxStreams: configuredStreams ?? fits };
  return {
    fileLimit, maxConnections, maxStreams: fits,
    warning: `--max-streams ${configuredStreams} does not fit the file limit of ${fileLimit} descriptors (ulimit -n): `
      + `holding at most ${fits} streams; raise the limit (systemd LimitNOFILE, docs/operations.md) to hold more`,
  };
}

/**
 * Holds the server's client connections; one past `maxConnections` gets a 503 with Retry-After and is closed, so
 * the process never reaches its file limit on accept. An accept that fails anyway (EMFILE: descriptors taken
 * elsewhere) drops that one connection (libuv's reserve descriptor) and is logged, never the end of the process.
 * `wasRefused` answers whether a socket was refused: its request, parsed after the 503 went out, must not be served.
 * `destroyAll` cuts every connection, event streams included: they leave node:http (http/leave-http.ts), so the
 * server's own closeAllConnections no longer sees them.
 */
export interface GuardedConnections {
  wasRefused(socket: Socket): boolean;
  destroyAll(): void;
}

export function guardConnections(server: Server, maxConnections: number, log: (line: string) => void): GuardedConnections {
  const refused = new WeakSet<Socket>();
  const open = new Set<Socket>();
  let lastLogged = 0;
  const note = (line: string): void => {
    // At most one line a second: a flood of refusals is one condition, not thousands of log lines.
    if (Date.now() - lastLogged < 1000) return;
    lastLogged = Date.now();
    log(line);
  };
  server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => { open.delete(socket); });
    if (open.size <= maxConnections) return;
    note(`connections: ${open.size - 1} open, the most the file limit allows; answering 503`);
    refused.add(socket);
    sendSocketProblem(socket, new HttpError('ERR_SERVER_BUSY', 'The server holds as many connections as its file limit allows; try again later', {
      headers: { 'Retry-After': String(RETRY_SECONDS) },
    }));
  });
  // Once listening (a failure to listen is the caller's to report): an error of the listening server is logged, not thrown.
  server.once('listening', () => server.on('error', (error: NodeJS.ErrnoException) => {
    if (isDescriptorExhaustion(error)) note(`accept: ${error.code}: out of file descriptors; a connection was dropped`);
    else log(`server: ${error.stack ?? String(error)}`);
  }));
  return {
    wasRefused: (socket) => refused.has(socket),
    destroyAll: () => { for (const socket of open) socket.destroy(); },
  };
}

/** EMFILE (this process) or ENFILE (the whole system): out of descriptors, a state to wait out, not a bug. */
export function isDescriptorExhaustion(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'EMFILE' || code === 'ENFILE';
}

/** What a request that ran out of descriptors answers: 503 with Retry-After, never a 500. */
export function descriptorExhaustionError(): HttpError {
  return new HttpError('ERR_SERVER_BUSY', 'The server is out of file descriptors for the moment; try again later', { headers: { 'Retry-After': String(RETRY_SECONDS) } });
}
