// Stage 6, authentication: the caller a route needs (401 without one), may use, or does not read at all.
import { authenticate } from '../resources/session/authenticate.ts';
import type { Route } from '../resources/context.ts';
import type { Exchange } from './exchange.ts';

/** A public route reads no caller, and has nothing to wait for. */
export function authenticateCaller(ex: Exchange, route: Route): Promise<void> | undefined {
  return route.auth === 'public' ? undefined : findCaller(ex, route.auth === 'optional' ? 'optional' : 'required');
}

async function findCaller(ex: Exchange, mode: 'optional' | 'required'): Promise<void> {
  ex.caller = await authenticate(ex.req, ex.services, mode, ex.kept);
  ex.labels.userId = ex.caller?.userId;
  // Presence (docs/protocol.md §14.6): a request of a signed-in user is activity, noted in memory, written in batches.
  if (ex.caller) ex.services.presence.noteActivity(ex.caller.userId);
}
