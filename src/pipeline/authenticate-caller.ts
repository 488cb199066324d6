// Stage 6, authentication: the caller a route needs (401 without one), may use, or does not read at all.
import { authenticate } from '../resources/session/authenticate.ts';
import type { Route } from '../resources/context.ts';
import type { Exchange } from './exchange.ts';

export async function authenticateCaller(ex: Exchange, route: Route): Promise<void> {
  if (route.auth === 'public') return;
  ex.caller = await authenticate(ex.req, ex.services, route.auth === 'optional' ? 'optional' : 'required', ex.kept);
  ex.labels.userId = ex.caller?.userId;
}
