// Stage 6, authentication: the caller a route needs (401 without one), may use, or does not read at all.
import { authenticate } from '../resources/session/authenticate.ts';
import type { Route } from '../resources/context.ts';
import type { Exchange } from './exchange.ts';
import { HttpError } from '../http/http-error.ts';

/** A public route reads no caller, and has nothing to wait for. */
export function authenticateCaller(ex: Exchange, route: Route): Promise<void> | undefined {
  return route.auth === 'public' ? undefined : findCaller(ex, route, route.auth === 'optional' ? 'optional' : 'required');
}

async function findCaller(ex: Exchange, route: Route, mode: 'optional' | 'required'): Promise<void> {
  ex.caller = await authenticate(ex.req, ex.services, mode, ex.kept);
  ex.labels.userId = ex.caller?.userId;
  if (ex.caller !== undefined) checkTokenRules(ex, route, ex.caller);
  // Presence (docs/protocol.md §14.6): a request of a signed-in user is activity, noted in memory, written in batches.
  if (ex.caller) ex.services.presence.noteActivity(ex.caller.userId);
}

const READS = new Set(['GET', 'HEAD']);

/**
 * docs/protocol.md §16.1, §16.2: a token with only `read` reads; no token manages tokens, sessions or invites; a bot
 * reads no HTML page.
 */
function checkTokenRules(ex: Exchange, route: Route, caller: NonNullable<Exchange['caller']>): void {
  if (caller.bot === true && ex.mediaType === 'text/html') throw new HttpError('ERR_FORBIDDEN', 'A bot uses the API, not the HTML pages');
  if (caller.token === undefined) return;
  if (route.tokens === 'refused') throw new HttpError('ERR_TOKEN_NOT_ALLOWED', 'Access tokens cannot manage tokens, sessions or invites: log in');
  if (caller.token.scopes === 'read' && !READS.has(ex.method)) throw new HttpError('ERR_TOKEN_SCOPE', 'This token has the read scope only: it may not write');
}
