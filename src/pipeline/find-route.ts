// Stage 4, routing: the route a method and path name, or the 404 or 405 (with Allow) that says why none does;
// for a form post (stage 3), the route's form rule too, or the 415 of a route that takes no form.
import { formBody, formNotAccepted } from '../http/form-post.ts';
import { HttpError } from '../http/http-error.ts';
import type { ExchangeLabels } from '../http/observe-exchange.ts';
import type { Route } from '../resources/context.ts';
import { formRuleOf } from '../resources/form-rules.ts';
import type { RouteTable } from '../router/route-table.ts';
import type { Exchange } from './exchange.ts';

export interface FoundRoute {
  route: Route;
  params: Record<string, string>;
  /** The methods the path answers, for OPTIONS' Allow. */
  allowed: string[];
}

/** `labels.route` gets the pattern once one matched the path, with any method: the metrics' and the log's label. */
export function findRoute(routes: RouteTable<Route>, method: string, path: string, fullPath: string, labels: ExchangeLabels): FoundRoute {
  const match = routes.match(method, path);
  if (match.kind === 'not-found') throw new HttpError('ERR_NOT_FOUND', `No resource at ${fullPath}`);
  if (match.kind === 'method-not-allowed') {
    labels.route = match.pattern;
    // RFC 9110 §15.5.6: a 405 carries Allow.
    throw new HttpError('ERR_METHOD_NOT_ALLOWED', `${method} is not allowed on ${fullPath}`, { headers: { Allow: match.allowed.join(', ') } });
  }
  labels.route = match.route.pattern;
  return { route: match.route.handler, params: match.params, allowed: match.allowed };
}

/** The route's form rule, or 415 when the route takes no form (or no file, for a multipart one). */
export function routeForm(ex: Exchange, pattern: string, fullPath: string): void {
  const { form } = ex;
  if (form === undefined) return;
  const rule = formRuleOf(ex.method, pattern);
  if (rule === undefined || (form.kind === 'multipart' && !rule.shape.files)) throw formNotAccepted(ex.method, fullPath);
  ex.formRule = rule;
  if (form.kind === 'urlencoded') form.body = formBody(form, rule.shape);
}
