// HTML answers: a page's context (logins, avatars, the chat around it), and a form post's 303 or its page again (CONTRACT §7).
import type { Reply, RequestContext, Route } from './resources/context.ts';
import type { FormSubmission } from './http/form-post.ts';
import { httpErrorOf, type HttpError } from './http/http-error.ts';
import type { FormRule } from './resources/form-rules.ts';
import { decoratePage } from './resources/page-context.ts';
import type { RouteTable } from './router/route-table.ts';

export interface PageAnswers {
  withPage(ctx: RequestContext, reply: Reply): Promise<Reply>;
  answerForm(ctx: RequestContext, form: FormSubmission, rule: FormRule, run: () => Promise<Reply> | Reply): Promise<Reply>;
}

export function createPageAnswers(routes: RouteTable<Route>, basePath: string): PageAnswers {
  /** An HTML answer gets its page context (logins, avatars, the chat around it); the others are left alone. */
  async function withPage(ctx: RequestContext, reply: Reply): Promise<Reply> {
    if (ctx.mediaType !== 'text/html' || !reply.representation || reply.representation.kind === 'problem') return reply;
    // A copy, never shared: a cached page (shared: true) answers every reader, and this context is one reader's.
    const rep = { ...reply.representation, shared: false };
    await decoratePage(ctx, rep);
    return { ...reply, representation: rep };
  }

  /**
   * A form's success is a 303 to the page to show next (RFC 9110 §15.4.4); a broken rule, when the browser
   * asked for HTML, is the form's page again with the error beside its field and the status of the error.
   * Errors of the session itself (401), of limits (429) and of the server (5xx) stay error pages.
   */
  async function answerForm(ctx: RequestContext, form: FormSubmission, rule: FormRule, run: () => Promise<Reply> | Reply): Promise<Reply> {
    let reply: Reply;
    try {
      reply = await run();
    } catch (error) {
      // A parser's failure (a field's rule) is an HttpError too, as app.ts would answer it.
      const known = httpErrorOf(error);
      if (known === undefined || ctx.mediaType !== 'text/html' || known.status >= 500 || known.status === 401 || known.status === 429) throw error;
      const shown = await formPageAgain(ctx, rule.page(ctx, form.back), form, known);
      if (shown === undefined) throw error;
      return shown;
    }
    if (reply.status >= 300) return reply;
    const headers: Record<string, string | string[]> = { Location: rule.next(ctx, reply, form.back) };
    const cookie = reply.headers?.['Set-Cookie'];
    if (cookie !== undefined) headers['Set-Cookie'] = cookie;
    return { status: 303, headers };
  }

  /** The GET of the form's page, rendered with the form state; undefined when that page cannot be shown (then the error page). */
  async function formPageAgain(ctx: RequestContext, page: string, form: FormSubmission, error: HttpError): Promise<Reply | undefined> {
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
    // The same request on another path: everything else (its getters included) comes from ctx through the prototype.
    const pageCtx: RequestContext = Object.assign(Object.create(ctx) as RequestContext, {
      method: 'GET', path: pagePath, rawQuery: queryAt === -1 ? '' : page.slice(queryAt + 1), params: found.params, form: undefined,
    });
    let reply: Reply;
    try {
      reply = await withPage(pageCtx, await found.route.handler.handler(pageCtx));
    } catch {
      return undefined;
    }
    const rep = reply.representation;
    if (rep === undefined || rep.kind === 'problem' || rep.page === undefined) return undefined;
    const values: Record<string, string> = {};
    for (const [name, list] of form.fields) if (list.length === 1) values[name] = list[0]!;
    rep.page.form = {
      action: `${basePath}${ctx.path}`, method: ctx.method, values, errors: error.errors ?? [], status: error.status, title: error.title, detail: error.detail,
    };
    return { status: error.status, headers: { ...error.headers }, representation: rep };
  }

  return { withPage, answerForm };
}
