// The request pipeline: the stages every request goes through, in order, to the reply its handler (or an error) gives.
// docs/architecture.md walks a GET and a POST through them.
import type { Reply, Route } from '../resources/context.ts';
import type { RouteTable } from '../router/route-table.ts';
import { answerOptions } from './answer-options.ts';
import { authenticateCaller } from './authenticate-caller.ts';
import { checkFraming } from './check-framing.ts';
import { decodeForm } from './decode-form.ts';
import type { Exchange } from './exchange.ts';
import { findRoute, routeForm } from './find-route.ts';
import { locateTarget } from './locate-target.ts';
import { negotiateRepresentation } from './negotiate-representation.ts';
import { runHandler } from './run-handler.ts';
import { takeWriteQuota } from './take-write-quota.ts';

/**
 * Each stage fills in `ex` (pipeline/exchange.ts) or throws the error the client gets (pipeline/problem-reply.ts).
 * A stage with nothing to wait for returns no promise, and is not awaited: each await is a turn of the event loop,
 * and a GET of /health waits for none (docs/performance.md).
 */
export async function answerRequest(ex: Exchange, routes: RouteTable<Route>): Promise<Reply> {
  checkFraming(ex.req); // 1. framing
  const target = locateTarget(ex.req.url ?? '/', ex.services.config.basePath); // 2. the base path
  ex.path = target.path;
  ex.rawQuery = target.rawQuery;
  const form = decodeForm(ex); // 3. form decoding: a form post names its method
  if (form) await form;
  const found = findRoute(routes, ex.method, ex.path, target.fullPath, ex.labels); // 4. routing
  ex.params = found.params;
  ex.route = found.route;
  routeForm(ex, found.route.pattern, target.fullPath); // ... and a form post's rule, with its JSON body
  if (ex.method === 'OPTIONS') return answerOptions(routes, ex.path, found.allowed);
  const chosen = negotiateRepresentation(ex.req, found.route); // 5. negotiation, once
  ex.mediaType = chosen.mediaType;
  ex.negotiated = chosen.negotiated;
  ex.represented = true;
  const caller = authenticateCaller(ex, found.route); // 6. authentication
  if (caller) await caller;
  const quota = takeWriteQuota(ex, found.route); // 7. limits
  if (quota) await quota;
  return runHandler(ex, found.route, routes); // 8. the handler; 9. render and send: pipeline/handle-request.ts -> http/send.ts
}
