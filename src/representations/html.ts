// Renders a Representation as a readable HTML page: no scripts, no external assets, every user string escaped.
import type {
  CollectionRepresentation,
  Link,
  PageContext,
  ProblemRepresentation,
  Representation,
  Resource,
  SingleRepresentation,
} from './representation.ts';
import { buildPath } from '../router/compile-pattern.ts';
import { escapeHtml } from './escape.ts';
import { renderAvatarImage } from './html-avatar.ts';
import { renderLanding } from './html-landing.ts';
import { LIVE_SCRIPT, LIVE_SCRIPT_HASH } from './live-script.ts';
import { STYLESHEET, STYLESHEET_HASH } from './html-style.ts';
import { renderChatList, renderChatPage, renderMembersPage } from './html-chats.ts';
import { renderForm, unshownFormError } from './html-forms.ts';
import { renderMessagePage, renderMessagesPage } from './html-messages.ts';
import { pathOf, renderUser } from './html-parts.ts';
import { renderAvatarsPage, renderSearchResults, renderUserList, renderUserPage } from './html-users.ts';

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
  "img-src 'self' data: blob:",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

const NAVIGATION = [
  ['/chats', 'Chats'],
  ['/users', 'Users'],
  ['/session', 'Session'],
] as const;
// Deeper values are cut off, which also ends any reference cycle.
const MAX_DEPTH = 8;
// Maps, not object literals: a rel or field named "toString" must not find Object.prototype.
const LINK_LABELS = new Map([['next', 'Next page'], ['prev', 'Previous page'], ['collection', 'Back to the list']]);
// Previous before next, as a reader expects them on a line; other links keep their order after these.
const LINK_ORDER = new Map([['prev', 0], ['next', 1]]);
// Fields that hold the id of another resource link to its page (ids in an array: each entry).
const REFERENCE_PATTERNS = new Map([
  ['userId', '/users/:id'],
  ['ownerId', '/users/:id'],
  ['authorId', '/users/:id'],
  ['members', '/users/:id'],
  ['chatId', '/chats/:id'],
  ['replyTo', '/messages/:id'],
]);
// What names a resource better than its id: in a heading, and as a second link to it in a list.
const DISPLAY_FIELDS = ['title', 'login'];
// The timestamps of CONTRACT §1, shown as "2026-11-21 09:30:00 UTC"; the exact value stays in datetime.
const ISO_TIME = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(?:\.\d+)?Z$/;

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
  const session = `${options.basePath}/session`;
  const page = rep.page;
  if (rep.type === 'login-form') return renderPage('Log in', renderLoginForm(rep.data, session), options.basePath, page);
  if (rep.type === 'landing') {
    return renderPage('Chat API', renderLanding(rep.data, rep.links ?? [], options.basePath, renderLoginForm({}, session)), options.basePath, page);
  }
  if (page !== undefined) {
    const shown = rep.type === 'chat' ? renderChatPage(rep, page)
      : rep.type === 'message' ? renderMessagePage(rep, page)
        : rep.type === 'user' ? renderUserPage(rep, page) : undefined;
    if (shown) return renderPage(shown.heading, `${shown.main}${renderRelated(rep.links)}${renderRaw(renderFields(rep.type, rep.data, 0, options.basePath))}`, options.basePath, page);
  }
  const heading = rep.type === 'session' ? 'Your session' : `${labelOf(rep.type)} ${displayNameOf(rep.data)}`.trim();
  // DELETE /session through the form mechanism's _method field (CONTRACT §7, HTML forms).
  const logout = rep.type !== 'session' ? ''
    : page !== undefined ? renderForm({ action: session, method: 'DELETE', button: 'Log out', id: 'logout-session' }, page)
      : `<p>To log out, send <code>DELETE ${escapeHtml(session)}</code>.</p>`;
  const main = renderLinks(rep.links) + renderFields(rep.type, rep.data, 0, options.basePath) + logout;
  return renderPage(heading, main, options.basePath, page);
}

/** Every field as the API has it (ids, exact times), folded away under the page made for people: the resource itself. */
function renderRaw(fields: string): string {
  return fields === '' ? '' : `<details class="fields"><summary>All fields, as the API has them</summary>${fields}</details>`;
}

/** The related resources of a page made for people, below it, for whoever wants the API's view. */
function renderRelated(links: readonly Link[] | undefined): string {
  const list = renderLinks(links);
  return list === '' ? '' : `<section aria-labelledby="related-heading"><h2 id="related-heading">Related</h2>${list}</section>`;
}

function renderCollection(rep: CollectionRepresentation, options: HtmlOptions): string {
  const page = rep.page;
  if (page !== undefined) {
    const avatarsOf = /\/users\/([^/?]+)\/avatar(?:\?|$)/.exec(page.self.slice(page.basePath.length));
    const query = new URLSearchParams(page.self.split('?')[1] ?? '').get('q') ?? '';
    const shown = rep.type === 'message' && page.chat ? renderMessagesPage(rep, page, liveAttributes(rep.live))
      : rep.type === 'chat' ? renderChatList(rep, page)
        : rep.type === 'member' && page.chat ? renderMembersPage(rep, page)
          : rep.type === 'user' ? renderUserList(rep, page)
            : rep.type === 'avatar' && avatarsOf ? renderAvatarsPage(rep, page, decodeURIComponent(avatarsOf[1]!))
              : rep.type === 'result' ? renderSearchResults(rep, page, query) : undefined;
    if (shown) {
      // Keyset pages of messages carry their own Older/Newer links; other lists get Previous/Next page.
      const paging = rep.type === 'message' ? '' : renderLinks(rep.links?.filter((link) => link.rel === 'prev' || link.rel === 'next'));
      return renderPage(shown.heading, `${shown.main}${paging}${renderRaw(renderTable(rep, options))}`, options.basePath, page);
    }
  }
  const summary = summaryOf(rep);
  const items = rep.type === 'message' ? renderMessages(rep.data, options, rep.live) : renderTable(rep, options);
  const links = renderLinks(rep.links);
  return renderPage(`${labelOf(rep.type)} list`, summary + links + items + links, options.basePath, page);
}

/** The data-* attributes the page's script follows the event stream with (CONTRACT §9); none off the newest page. */
function liveAttributes(live: CollectionRepresentation['live']): string {
  if (live === undefined) return '';
  return [['chat', live.chatId], ['events', live.events], ['messages', live.messages], ['users', live.users]]
    .map(([name, value]) => ` data-live-${name}="${escapeHtml(value!)}"`).join('');
}

function summaryOf(rep: CollectionRepresentation): string {
  if (!('total' in rep.meta)) {
    return `<p>${rep.data.length} events; the next ones follow event ${escapeHtml(rep.meta.lastEventId)}.</p>`;
  }
  const { total, offset } = rep.meta;
  return rep.data.length === 0
    ? `<p>No items on this page; ${total} in total.</p>`
    : `<p>Items ${offset + 1} to ${offset + rep.data.length} of ${total}.</p>`;
}

/**
 * One row per item, one column per field any item has, in order of first appearance, except that a
 * title or login every item has comes first. The item's link goes on that name and on its id (or
 * its first field when it has none, as a member's userId).
 */
function renderTable(rep: CollectionRepresentation, options: HtmlOptions): string {
  if (rep.data.length === 0) return '';
  const names = DISPLAY_FIELDS.filter((field) => rep.data.every((item) => typeof item[field] === 'string'));
  const columns = [...new Set([...names, ...rep.data.flatMap((item) => Object.keys(item))])];
  const linkedColumns = new Set([columns.includes('id') ? 'id' : columns[0], ...DISPLAY_FIELDS]);
  const head = columns.map((column) => `<th scope="col">${escapeHtml(column)}</th>`).join('');
  const rows = rep.data.map((item) => {
    const cells = columns.map((column) => {
      const value = item[column];
      const href = linkedColumns.has(column) ? safeHref(options.itemHref?.(item)) : undefined;
      const linked = href !== undefined && typeof value === 'string';
      return `<td>${linked ? `<bdi>${renderAnchor(href, value)}</bdi>` : renderField(rep.type, column, value, 1, options.basePath, item)}</td>`;
    });
    return `<tr>${cells.join('')}</tr>`;
  });
  return `<div class="table"><table><thead><tr>${head}</tr></thead><tbody>\n${rows.join('\n')}\n</tbody></table></div>`;
}

/** A chat history reads better as a list than as a table: author, time (the link to the message), then the text as typed. */
function renderMessages(messages: readonly Resource[], options: HtmlOptions, live: CollectionRepresentation['live']): string {
  if (messages.length === 0 && live === undefined) return '';
  const items = messages.map((message) => {
    const { authorId, createdAt, replyTo, text } = message;
    const href = safeHref(options.itemHref?.(message));
    const time = renderField('message', 'createdAt', createdAt, 1, options.basePath);
    const byline = [
      `<strong>${renderField('message', 'authorId', authorId, 1, options.basePath)}</strong>`,
      href === undefined ? time : `<a href="${escapeHtml(href)}">${time}</a>`,
      typeof replyTo === 'string' ? `in reply to ${renderField('message', 'replyTo', replyTo, 1, options.basePath)}` : '',
    ];
    // dir="auto": a message in Arabic or Hebrew runs right to left without reordering the page around it.
    const textHtml = `<p class="text" dir="auto">${renderValue(text, 1, options.basePath)}</p>${renderReactions(message['reactions'], options.basePath)}`;
    // "(edited)" links to the message's revisions (CONTRACT §10).
    const editedAt = message['editedAt'];
    if (typeof editedAt === 'string') {
      const edited = `(edited ${renderField('message', 'editedAt', editedAt, 1, options.basePath)})`;
      byline.push(href === undefined ? edited : `<a rel="revisions" href="${escapeHtml(`${href}/revisions`)}">${edited}</a>`);
    }
    const id = typeof message['id'] === 'string' ? ` id="message-${escapeHtml(message['id'])}"` : '';
    return `<li${id}><p class="byline">${byline.filter((part) => part !== '').join(' · ')}</p>${textHtml}</li>`;
  });
  return `<ol class="messages"${liveAttributes(live)}>\n${items.join('\n')}\n</ol>`;
}

/** Under a message: each emoji, its count, and who reacted (links to the users), in the message's own order. */
function renderReactions(reactions: unknown, basePath: string): string {
  if (!Array.isArray(reactions) || reactions.length === 0) return '';
  const items = reactions.map((reaction: Resource) => {
    const users = renderField('message', 'members', reaction['userIds'], 1, basePath);
    return `<li><span class="emoji">${escapeHtml(String(reaction['emoji']))}</span> ${escapeHtml(String(reaction['count']))} ${users}</li>`;
  });
  return `<ul class="reactions" aria-label="Reactions">${items.join('')}</ul>`;
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
    parts.push(`<p>${renderAnchor(`${options.basePath}/session`, 'Log in')}</p>`);
  }
  return renderPage(`${status} ${title}`, parts.join('\n'), options.basePath);
}

/** The HTML login form posts application/x-www-form-urlencoded to POST /session (CONTRACT §2). */
function renderLoginForm(data: Resource, action: string): string {
  const { error, login } = data;
  const alert = typeof error === 'string' ? `<p class="error" role="alert">${escapeHtml(error)}</p>\n` : '';
  const value = typeof login === 'string' ? ` value="${escapeHtml(login)}"` : '';
  return (
    alert +
    `<form method="post" action="${escapeHtml(action)}" enctype="application/x-www-form-urlencoded">\n` +
    `<p><label for="login">Login</label><input id="login" name="login" type="text" autocomplete="username"` +
    ` autocapitalize="none" spellcheck="false" required${value}></p>\n` +
    '<p><label for="password">Password</label><input id="password" name="password" type="password"' +
    ' autocomplete="current-password" required></p>\n' +
    '<p><button type="submit">Log in</button></p>\n</form>'
  );
}

function renderFields(type: string, data: object, depth: number, basePath: string): string {
  const rows = Object.entries(data).map(
    ([key, value]) => `<dt>${escapeHtml(key)}</dt><dd>${renderField(type, key, value, depth + 1, basePath, data as Resource)}</dd>`,
  );
  return rows.length === 0 ? '<p class="none">No fields.</p>' : `<dl>\n${rows.join('\n')}\n</dl>`;
}

/** A field's value, with the few fields that are links, references or times marked up as such; `item` holds it. */
function renderField(type: string, key: string, value: unknown, depth: number, basePath: string, item?: Resource): string {
  const reference = REFERENCE_PATTERNS.get(key);
  if (reference !== undefined && depth <= 1) {
    if (typeof value === 'string') return renderAnchor(basePath + buildPath(reference, { id: value }), value);
    if (Array.isArray(value) && value.length > 0 && value.every((entry) => typeof entry === 'string')) {
      const anchors = value.map((entry: string) => `<li>${renderAnchor(basePath + buildPath(reference, { id: entry }), entry)}</li>`);
      return `<ul>${anchors.join('')}</ul>`;
    }
  }
  if (typeof value !== 'string') return renderValue(value, depth, basePath);
  const href = key === 'href' || (type === 'avatar' && key === 'avatar') ? safeHref(value) : undefined;
  if (href !== undefined && key === 'avatar') {
    return `${renderAvatarImage(href, item ?? {})} ${renderAnchor(href, value)}`;
  }
  if (href !== undefined) return renderAnchor(href, value);
  if (key.endsWith('At')) {
    const parts = ISO_TIME.exec(value);
    // Date and clock each stay on one line; a narrow column may put them on two.
    const shown = parts === null ? escapeHtml(value) : `<span>${parts[1]}</span> <span>${parts[2]} UTC</span>`;
    return `<time datetime="${escapeHtml(value)}">${shown}</time>`;
  }
  // <bdi>: a user's string (a title with U+202E, say) keeps its direction to itself (Unicode UAX #9, HTML §4.5.23).
  return `<bdi>${escapeHtml(value)}</bdi>`;
}

function renderValue(value: unknown, depth: number, basePath: string): string {
  if (value === null || value === undefined) return '<span class="none">none</span>';
  if (value instanceof Date) return escapeHtml(value.toISOString());
  if (typeof value !== 'object') return escapeHtml(String(value));
  if (depth > MAX_DEPTH) return '<span class="none">…</span>';
  if (!Array.isArray(value)) return renderFields('', value, depth, basePath);
  if (value.length === 0) return '<span class="none">empty</span>';
  return `<ul>${value.map((entry: unknown) => `<li>${renderValue(entry, depth + 1, basePath)}</li>`).join('')}</ul>`;
}

/** rep.links as a list; a link whose href is not a same-origin path is left out, not shown as text. */
function renderLinks(links: readonly Link[] | undefined): string {
  const ordered = [...(links ?? [])].sort((a, b) => (LINK_ORDER.get(a.rel) ?? 2) - (LINK_ORDER.get(b.rel) ?? 2));
  const items = ordered.flatMap((link) => {
    const href = safeHref(link.href);
    if (href === undefined) return [];
    const label = LINK_LABELS.get(link.rel) ?? link.title ?? labelOf(link.rel);
    return [`<li><a rel="${escapeHtml(link.rel)}" href="${escapeHtml(href)}">${escapeHtml(label)}</a></li>`];
  });
  return items.length === 0 ? '' : `<ul class="related">${items.join('')}</ul>\n`;
}

function renderAnchor(href: string, text: string): string {
  return `<a href="${escapeHtml(href)}">${escapeHtml(text)}</a>`;
}

/**
 * Only same-origin paths become links: a leading '/' but not '//' or '/\' (both name another
 * host to a browser), and no whitespace or control characters, which the WHATWG URL parser
 * strips (so '/\t/evil.example' would turn into '//evil.example'). javascript:, data: and
 * absolute URLs never pass.
 */
function safeHref(href: string | undefined): string | undefined {
  if (href === undefined || !/^\/(?![/\\])/.test(href) || /[\u0000-\u0020\u007f]/.test(href)) return undefined;
  return href;
}

/** The title of a chat or the login of a user, else the id, else nothing. */
function displayNameOf(data: Resource): string {
  const name = [...DISPLAY_FIELDS, 'id'].map((field) => data[field]).find((value) => typeof value === 'string' && value !== '');
  return typeof name === 'string' ? name : '';
}

function labelOf(type: string): string {
  const words = type.replace(/[-_]+/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * The frame of every page: a skip link, the site navigation (with the reader's login, search and log out
 * when signed in), one <main> with one <h1>, and the one script (by hash): local times, live updates.
 */
function renderPage(heading: string, main: string, basePath: string, page?: PageContext): string {
  const links = page?.me !== undefined ? NAVIGATION.filter(([path]) => path !== '/session') : NAVIGATION;
  const nav = links.map(([path, label]) => renderAnchor(`${basePath}${path}`, label));
  if (page?.me !== undefined) {
    nav.push(`<form method="get" action="${escapeHtml(`${basePath}/search`)}" role="search"><label for="nav-q">Search</label>` +
      '<input id="nav-q" name="q" type="search" required><button type="submit">Go</button></form>');
    nav.push(`<span>Signed in as ${renderUser(page, page.me.id, 24)}</span>`);
    nav.push(renderForm({ action: pathOf(page, 'session'), method: 'DELETE', button: 'Log out', id: 'logout', inline: true }, page));
  }
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(heading)} · Chat API</title>
<style>${STYLESHEET}</style>
</head>
<body>
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
