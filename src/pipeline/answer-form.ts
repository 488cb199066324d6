// A form post's answer (docs/html.md, forms): a 303 to the page to show next, or the form's page again with the error.
import { httpErrorOf, type HttpError } from '../http/http-error.ts';
import type { Reply, Route } from '../resources/context.ts';
import type { FormRule } from '../resources/form-rules.ts';
import type { RouteTable } from '../router/route-table.ts';
import { withPage } from './decorate-page.ts';
import type { Exchange } from './exchange.ts';

/**
 * A form's success is a 303 to the page to show next (RFC 9110 §15.4.4); a broken rule, when the browser
 * asked for HTML, is the form's page again with the error beside its field and the status of the error.
 * Errors of the session itself (401), of limits (429) and of the server (5xx) stay error pages.
 */
export async function answerForm(ex: Exchange, rule: FormRule, routes: RouteTable<Route>, run: () => Promise<Reply> | Reply): Promise<Reply> {
  const back = ex.form?.back;
  let reply: Reply;
  try {
    reply = await run();
  } catch (error) {
    // A parser's failure (a field's rule) is an HttpError too, as the problem stage would answer it.
    const known = httpErrorOf(error);
    if (known === undefined || ex.mediaType !== 'text/html' || known.status >= 500 || known.status === 401 || known.status === 429) throw error;
    const shown = await formPageAgain(ex, rule.page(ex, back), routes, known);
    if (shown === undefined) throw error;
    return shown;
  }
  if (reply.status >= 300) return reply;
  if (rule.showReply) return withPage(ex, reply);
  const headers: Record<string, string | string[]> = { Location: rule.next(ex, reply, back) };
  const cookie = reply.headers?.['Set-Cookie'];
  if (cookie !== undefined) headers['Set-Cookie'] = cookie;
  return { status: 303, headers };
}

/** The GET of the form's page, rendered with the form state; undefined when that page cannot be shown (then the error page). */
async function formPageAgain(ex: Exchange, back: string, routes: RouteTable<Route>, error: HttpError): Promise<Reply | undefined> {
  const { basePath } = ex.services.config;
  // A `_back` at a place on its page (the chat screen's `#m-<id>`): the page is what comes before the fragment.
  const page = back.split('#', 1)[0]!;
  const queryAt = page.indexOf('?');
  const pagePath = (queryAt === -1 ? page : page.slice(0, queryAt)).slice(basePath.length) || '/';
  let found: ReturnType<typeof routes.match>;
  try {
    found = routes.match('GET', pagePath);
  } catch {
    // `_back` named a path that is not valid percent-encoding (ERR_BAD_PATH): no page to show again.
    return undefined;
  }
  if (found.kind !== 'found') return undefined;
  const pageEx = ex.forPage(pagePath, queryAt === -1 ? '' : page.slice(queryAt + 1), found.params);
  let reply: Reply;
  try {
    reply = await withPage(pageEx, await found.route.handler.handler(pageEx));
  } catch {
    return undefined;
  }
  const rep = reply.representation;
  if (rep === undefined || rep.kind === 'problem' || rep.page === undefined) return undefined;
  const values: Record<string, string> = {};
  for (const [name, list] of ex.form?.fields ?? []) if (list.length === 1) values[name] = list[0]!;
  rep.page.form = {
    action: `${basePath}${ex.path}`, method: ex.method, values, errors: error.errors ?? [], status: error.status, title: error.title, detail: error.detail,
  };
  return { status: error.status, headers: { ...error.headers }, representation: rep };
}
