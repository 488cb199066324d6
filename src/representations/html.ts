// Renders a Representation as a readable HTML page: no scripts, no external assets, every user string escaped.
import { PATHS } from '../paths.ts';
import { escapeHtml } from './escape.ts';
import { renderChatPage } from './html-chats.ts';
import { renderDeliveryPage } from './html-deliveries.ts';
import { renderCollection } from './html-collection.ts';
import { displayNameOf, labelOf, renderFields, renderLinks, renderRaw } from './html-fields.ts';
import { renderAdminPage } from './html-admin.ts';
import { renderForm } from './html-forms.ts';
import { renderInvitePage, renderJoinPage } from './html-invites.ts';
import { renderTokenPage, renderWebhookPage } from './html-integrations.ts';
import { renderLanding, renderLoginForm } from './html-landing.ts';
import { renderMessagePage } from './html-messages.ts';
import { renderPage, type HtmlOptions } from './html-page.ts';
import { anchor } from './html-parts.ts';
import { APP_NAME } from './web-manifest.ts';
import { renderUserPage } from './html-users.ts';
import type { Link, ProblemRepresentation, Representation, SingleRepresentation } from './representation.ts';

export { HTML_CONTENT_SECURITY_POLICY, type HtmlOptions } from './html-page.ts';

export function renderHtml(rep: Representation, options: HtmlOptions): string {
  switch (rep.kind) {
    case 'single':
      return renderSingle(rep, options);
    case 'collection':
      return renderCollection(rep, options);
    case 'problem':
      return renderProblem(rep, options);
  }
}

function renderSingle(rep: SingleRepresentation, options: HtmlOptions): string {
  const session = `${options.basePath}${PATHS.session}`;
  const page = rep.page;
  if (rep.type === 'login-form') return renderPage('Log in', renderLoginForm(rep.data, session), options.basePath, page);
  // A refused sign-up from the join page is answered by the sign-up itself, like the landing page's: without a page context.
  if (rep.type === 'join') {
    const shown = renderJoinPage(rep, page ?? { basePath: options.basePath, users: {}, replied: {}, self: `${options.basePath}${PATHS.users}` });
    return renderPage(shown.heading, shown.main, options.basePath, page);
  }
  if (rep.type === 'landing') {
    return renderPage(APP_NAME, renderLanding(rep.data, rep.links ?? [], options.basePath, renderLoginForm({}, session)), options.basePath, page);
  }
  if (page !== undefined) {
    const shown = rep.type === 'chat' ? renderChatPage(rep, page)
      : rep.type === 'message' ? renderMessagePage(rep, page)
        : rep.type === 'user' ? renderUserPage(rep, page)
          : rep.type === 'invite' ? renderInvitePage(rep, page)
            : rep.type === 'token' ? renderTokenPage(rep, page)
              : rep.type === 'webhook' ? renderWebhookPage(rep, page)
                : rep.type === 'delivery' ? renderDeliveryPage(rep, page) : undefined;
    // A page of its own, without the fields below: the administration page is about people, not one resource.
    const own = rep.type === 'admin' ? renderAdminPage(rep, page) : undefined;
    if (own) return renderPage(own.heading, own.main, options.basePath, page);
    if (shown) return renderPage(shown.heading, `${shown.main}${renderRelated(rep.links)}${renderRaw(renderFields(rep.type, rep.data, 0, options.basePath))}`, options.basePath, page);
  }
  const heading = rep.type === 'session' ? 'Your session' : `${labelOf(rep.type)} ${displayNameOf(rep.data)}`.trim();
  // DELETE /session through the form mechanism's _method field (docs/protocol.md §7.3, HTML forms).
  const logout = rep.type !== 'session' ? ''
    : page !== undefined ? renderForm({ action: session, method: 'DELETE', button: 'Log out', id: 'logout-session' }, page)
      : `<p>To log out, send <code>DELETE ${escapeHtml(session)}</code>.</p>`;
  const main = renderLinks(rep.links) + renderFields(rep.type, rep.data, 0, options.basePath) + logout;
  return renderPage(heading, main, options.basePath, page);
}

/** The related resources of a page made for people, below it, for whoever wants the API's view. */
function renderRelated(links: readonly Link[] | undefined): string {
  const list = renderLinks(links);
  return list === '' ? '' : `<section aria-labelledby="related-heading"><h2 id="related-heading">Related</h2>${list}</section>`;
}

function renderProblem(rep: ProblemRepresentation, options: HtmlOptions): string {
  const { status, title, detail, code, errors } = rep.data;
  const parts = [`<p>${escapeHtml(detail)}</p>`, `<p class="none">Error code <code>${escapeHtml(code)}</code></p>`];
  if (errors !== undefined && errors.length > 0) {
    const items = errors.map(
      ({ field, message }) => `<li><code>${escapeHtml(field)}</code>: ${escapeHtml(message)}</li>`,
    );
    parts.push(`<ul class="error">${items.join('')}</ul>`);
  }
  // RFC 9110 §15.5.2: a 401 means "log in first", so offer the form.
  if (options.status === 401 || status === 401) {
    parts.push(`<p>${anchor(`${options.basePath}${PATHS.session}`, 'Log in')}</p>`);
  }
  return renderPage(`${status} ${title}`, parts.join('\n'), options.basePath);
}
