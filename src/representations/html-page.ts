// The frame of every HTML page: its security policy, the site navigation, one <main> with one <h1>, and the one script.
import { PATHS } from '../paths.ts';
import { escapeHtml } from './escape.ts';
import { renderForm, unshownFormError } from './html-forms.ts';
import { anchor, pathOf, renderUser } from './html-parts.ts';
import { STYLESHEET, STYLESHEET_HASH } from './html-style.ts';
import { LIVE_SCRIPT, LIVE_SCRIPT_HASH } from './live-script.ts';
import { THEME_COLOUR } from './app-icon.ts';
import { APP_NAME } from './web-manifest.ts';
import type { PageContext, Resource } from './representation.ts';

export interface HtmlOptions {
  /** The --base-path prefix ('' or '/api'), for the navigation and the login form. */
  basePath: string;
  /** The status of the answer; a 401 page links to the login form. */
  status: number;
  /** The page of one collection item, to link its id; undefined leaves the id as text. */
  itemHref?: (item: Resource) => string | undefined;
}

/**
 * CSP Level 3: nothing may load or run except the inline stylesheet and the one live-update script (both
 * by hash, §8.3), same-origin images (avatars) and the same-origin event stream the script reads.
 */
export const HTML_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  `style-src 'sha256-${STYLESHEET_HASH}'`,
  `script-src 'sha256-${LIVE_SCRIPT_HASH}'`,
  "connect-src 'self'",
  // The service worker of Web Push (/sw.js, docs/html.md): registered by the script above, from this origin only.
  "worker-src 'self'",
  "img-src 'self' data: blob:",
  // The web app manifest (/manifest.webmanifest, docs/html.md): the pages install as an app.
  "manifest-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

/**
 * Where the page script finds the reader's event stream and Web Push's routes (docs/html.md): its text never
 * changes, so the paths come from the page.
 */
function scriptAttributes(basePath: string, page: PageContext): string {
  const paths = { base: '', events: PATHS.events, pushKey: PATHS.pushKey, pushSubscriptions: PATHS.pushSubscriptions, pushVisibility: PATHS.pushVisibility, serviceWorker: PATHS.serviceWorker };
  // The reader's id names the Web Lock and BroadcastChannel their tabs share the one stream by (client/event-stream.ts).
  const reader = page.me === undefined ? '' : ` data-reader="${escapeHtml(page.me.id)}"`;
  return Object.entries(paths).map(([name, path]) => ` data-${name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}="${escapeHtml(`${basePath}${path}`)}"`).join('') + reader;
}

/** The icons and the manifest (docs/html.md, Icon and manifest), under the mount point. */
function renderHeadLinks(basePath: string): string {
  return `<meta name="theme-color" content="${THEME_COLOUR}">\n` +
    `<link rel="icon" href="${escapeHtml(`${basePath}${PATHS.favicon}`)}" sizes="16x16 32x32 48x48">\n` +
    `<link rel="icon" href="${escapeHtml(`${basePath}${PATHS.iconSvg}`)}" type="image/svg+xml">\n` +
    `<link rel="apple-touch-icon" href="${escapeHtml(`${basePath}${PATHS.icon192}`)}">\n` +
    `<link rel="manifest" href="${escapeHtml(`${basePath}${PATHS.manifest}`)}">\n`;
}

/** "<page> · <server name>"; the page named like the server (the landing page) is just the name. */
function titleOf(heading: string): string {
  return heading === APP_NAME ? APP_NAME : `${heading} · ${APP_NAME}`;
}

const NAVIGATION = [
  [PATHS.chats, 'Chats'],
  [PATHS.users, 'Users'],
  [PATHS.session, 'Session'],
] as const;

/**
 * The frame of every page: a skip link, the site navigation (with the reader's login, search and log out
 * when signed in), one <main> with one <h1>, and the one script (by hash): local times, live updates.
 */
export function renderPage(heading: string, main: string, basePath: string, page?: PageContext): string {
  const links = page?.me !== undefined ? NAVIGATION.filter(([path]) => path !== PATHS.session) : NAVIGATION;
  const nav = links.map(([path, label]) => anchor(`${basePath}${path}`, label));
  // The search page has its own box, with the words searched for: one search box on a page.
  const searchPage = page !== undefined && page.self.split('?')[0] === `${page.basePath}${PATHS.search}`;
  if (page?.me !== undefined) {
    if (!searchPage) nav.push(`<form method="get" action="${escapeHtml(`${basePath}${PATHS.search}`)}" role="search"><label for="nav-q">Search</label>` +
      '<input id="nav-q" name="q" type="search" required><button type="submit">Go</button></form>');
    if (page.admin === true) nav.push(anchor(`${basePath}${PATHS.admin}`, 'Admin'));
    nav.push(`<span>Signed in as ${renderUser(page, page.me.id, 24)}</span>`);
    nav.push(renderForm({ action: pathOf(page, 'session'), method: 'DELETE', button: 'Log out', id: 'logout', inline: true }, page));
  }
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(titleOf(heading))}</title>
${renderHeadLinks(basePath)}<style>${STYLESHEET}</style>
</head>
<body${page === undefined ? '' : scriptAttributes(basePath, page)}>
<a class="skip" href="#main">Skip to the content</a>
<header><nav aria-label="Site">${nav.join('\n')}</nav></header>
<main id="main" tabindex="-1">
<h1 dir="auto">${escapeHtml(heading)}</h1>
${unshownFormError(page)}${main}
</main>
${page === undefined ? '' : `<script>${LIVE_SCRIPT}</script>\n`}</body>
</html>
`;
}
