// Stage 8, the handler: its reply as a page (HTML gets its page context), or a form post's answer (303, or the page again).
import type { Reply, Route } from '../resources/context.ts';
import type { RouteTable } from '../router/route-table.ts';
import { answerForm } from './answer-form.ts';
import { withPage } from './decorate-page.ts';
import type { Exchange } from './exchange.ts';

/** A handler that answers at once (a kept reply, /health) is not awaited: each await is a turn of the event loop. */
export function runHandler(ex: Exchange, route: Route, routes: RouteTable<Route>): Promise<Reply> | Reply {
  if (ex.formRule !== undefined) return answerForm(ex, ex.formRule, routes, () => route.handler(ex));
  const reply = route.handler(ex);
  return reply instanceof Promise ? reply.then((answered) => withPage(ex, answered)) : withPage(ex, reply);
}
