// Stage 7, limits: a signed-in user's write is counted before any work; over the quota nothing is written (429).
import type { Route } from '../resources/context.ts';
import type { Exchange } from './exchange.ts';

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Every answer of a counted write carries the RateLimit fields, a 429 or an error of the handler too. A request
 * that is not counted has nothing to wait for.
 */
export function takeWriteQuota(ex: Exchange, route: Route): Promise<void> | undefined {
  const { writeLimit } = ex.services;
  if (ex.caller === undefined || !UNSAFE_METHODS.has(ex.method) || route.writeLimited === false || !writeLimit.enabled) return undefined;
  return countWrite(ex, ex.caller.userId);
}

async function countWrite(ex: Exchange, userId: string): Promise<void> {
  Object.assign(ex.responseHeaders, (await ex.services.writeLimit.take(userId)).headers);
}
