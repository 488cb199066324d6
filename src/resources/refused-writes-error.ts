// The 503 a client gets while the database refuses writes (read-only, full): its own code, a detail, Retry-After.
import { HttpError } from '../http/http-error.ts';
import type { WriteRefusal } from '../storage/store.ts';

/** An operator must act (free space, fix permissions): a longer wait than a restarting database's 2 s. */
const REFUSED_WRITES_RETRY_SECONDS = 30;

const ANSWERS = {
  'read-only': { code: 'ERR_DATABASE_READ_ONLY', detail: 'The database does not accept writes right now (it is read-only); nothing was changed, try again later' },
  full: { code: 'ERR_DATABASE_FULL', detail: 'The database has no space left for writes; nothing was changed, try again later' },
} as const;

/** docs/operations.md, "When the database refuses writes". */
export function refusedWritesError(reason: WriteRefusal): HttpError {
  const { code, detail } = ANSWERS[reason];
  return new HttpError(code, detail, { headers: { 'Retry-After': String(REFUSED_WRITES_RETRY_SECONDS) } });
}
