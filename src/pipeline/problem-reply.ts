// Any error, as the problem reply the client gets; a 5xx says only its status text (the stack goes to the log).
import { formatErrorLine, type LogFormat } from '../http/access-log.ts';
import { descriptorExhaustionError, isDescriptorExhaustion } from '../http/descriptors.ts';
import { HttpError, httpErrorOf } from '../http/http-error.ts';
import { toProblem } from '../http/problem.ts';
import type { Reply } from '../resources/context.ts';
import { refusedWritesError } from '../resources/refused-writes-error.ts';
import { StoreConstraintError, StoreUnavailableError, StoreWriteRefusedError } from '../storage/store.ts';

/** Retry-After of a 503 while the database cannot be reached: about what a PostgreSQL restart takes. */
const DATABASE_RETRY_SECONDS = 2;

function logLine(logFormat: LogFormat, requestId: string, message: unknown): void {
  process.stderr.write(formatErrorLine(logFormat, Date.now(), requestId, message));
}

/** What the storage layer's errors mean to a client: not bugs, but a 503 to retry or a 404. */
function storageErrorAsHttp(error: unknown, requestId: string, logFormat: LogFormat): unknown {
  if (error instanceof StoreUnavailableError) {
    // The database (PostgreSQL) is restarting or cut off. One line in the log, 503 with a time to retry.
    logLine(logFormat, requestId, `database unavailable: ${String((error.cause as Error | undefined)?.message ?? error.message).split('\n', 1)[0]}`);
    return new HttpError('ERR_DATABASE_UNAVAILABLE', 'The database cannot be reached right now; nothing was changed, try again shortly', { headers: { 'Retry-After': String(DATABASE_RETRY_SECONDS) } });
  }
  if (error instanceof StoreWriteRefusedError) {
    // An operator must free space or fix permissions (docs/operations.md). One line, 503.
    logLine(logFormat, requestId, `database ${error.reason}: ${error.message.split('\n', 1)[0]}`);
    return refusedWritesError(error.reason);
  }
  if (isDescriptorExhaustion(error)) {
    // Out of file descriptors (docs/operations.md, File descriptors): a state to wait out. One line, 503.
    logLine(logFormat, requestId, `out of file descriptors: ${(error as Error).message.split('\n', 1)[0]}`);
    return descriptorExhaustionError();
  }
  if (error instanceof StoreConstraintError && error.constraint === 'foreign-key') {
    // A handler checks what a write refers to before its transaction; on PostgreSQL another request may delete
    // it in between (a chat, a message). What the request named is gone, as a retry would say (404).
    return new HttpError('ERR_NOT_FOUND', 'What this request refers to was deleted while it ran');
  }
  return error;
}

/** A client that went away is one log line, not a stack: nothing is wrong with the server. */
export function problemReply(error: unknown, requestId: string, clientGone: boolean, logFormat: LogFormat): Reply {
  const meant = storageErrorAsHttp(error, requestId, logFormat);
  const expected = httpErrorOf(meant);
  const known = expected ?? new HttpError('ERR_INTERNAL', 'The server could not complete the request');
  if (expected === undefined) logLine(logFormat, requestId, clientGone ? 'client closed the connection before the answer' : meant);
  return { status: known.status, headers: { ...known.headers }, representation: { kind: 'problem', data: toProblem(known) } };
}
