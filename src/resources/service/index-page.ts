// GET /: the index. For a client, a map of the API; for a browser, the landing page with log-in and sign-up forms.
import type { Reply, RequestContext } from '../context.ts';
import type { FieldError } from '../../http/http-error.ts';
import type { Link } from '../../representations/representation.ts';
import { serverVersion } from '../../version.ts';
import { PATHS } from '../../paths.ts';

// rel, path, title: the collections first, then the service documents. /events and /docs are linked
// from here as the contract's entry points for real-time delivery and the readable reference.
const INDEX_LINKS = [
  ['chats', PATHS.chats, 'Your chats'],
  ['users', PATHS.users, 'Users'],
  ['session', PATHS.session, 'Your session'],
  ['search', PATHS.search, 'Search (GET /search?q=words)'],
  ['events', PATHS.events, 'Events, in real time'],
  ['openapi', PATHS.openApi, 'OpenAPI 3.1 description'],
  ['docs', PATHS.docs, 'API reference'],
  ['health', PATHS.health, 'Health'],
] as const;

/** What the sign-up form shows again after a rule was broken: the login as typed and the errors by field. */
export interface SignUpState {
  login?: string;
  errors?: FieldError[];
  /** The status and title of the refusal, shown above the form as an error page would. */
  status?: number;
  title?: string;
}

/**
 * JSON and XML: `{"name", "version", "links": {rel: path}}`. HTML: the landing page, which also needs
 * to know whether the caller is logged in and what the sign-up form said (never part of the JSON).
 */
export function indexReply(ctx: RequestContext, status = 200, signUp: SignUpState = {}): Reply {
  const links: Link[] = INDEX_LINKS.map(([rel, path, title]) => ({ rel, href: ctx.href(path), title }));
  if (ctx.mediaType === 'text/html') {
    const data = { name: 'Chat API', version: serverVersion(), signedIn: ctx.caller !== undefined, signUp, registration: ctx.services.config.registration };
    return { status, representation: { kind: 'single', type: 'landing', enveloped: false, data, links } };
  }
  const data = { name: 'Chat API', version: serverVersion(), links: Object.fromEntries(links.map((link) => [link.rel, link.href])) };
  return { status, representation: { kind: 'single', type: 'index', enveloped: false, data, links } };
}

export function getIndex(ctx: RequestContext): Reply {
  return indexReply(ctx);
}
