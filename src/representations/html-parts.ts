// Pieces every HTML page shares: the path of a page, a user by login and avatar, a time, a same-origin link.
import { PATHS, type PathName } from '../paths.ts';
import { buildPath } from '../router/compile-pattern.ts';
import { escapeHtml } from './escape.ts';
import { renderAvatarImage } from './html-avatar.ts';
import type { PageContext, PageUser } from './representation.ts';

/** The path of a page under the base path, from its route pattern (src/paths.ts; buildPath encodes each parameter). */
export function pathOf(page: PageContext, name: PathName, params: Record<string, string> = {}): string {
  return `${page.basePath}${buildPath(PATHS[name], params)}`;
}

export function anchor(href: string, text: string, attributes = ''): string {
  return `<a href="${escapeHtml(href)}"${attributes}>${escapeHtml(text)}</a>`;
}

// One formatter per locale a reader asked for (Intl formatters are costly to build).
const FORMATTERS = new Map<string, Intl.DateTimeFormat>();
const MAX_FORMATTERS = 64;

function formatterOf(locale: string): Intl.DateTimeFormat {
  let formatter = FORMATTERS.get(locale);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
    if (FORMATTERS.size < MAX_FORMATTERS) FORMATTERS.set(locale, formatter);
  }
  return formatter;
}

/**
 * A timestamp (docs/protocol.md §1.3) in a <time> element: in the reader's language (Accept-Language) at UTC, else as
 * "2026-11-21 09:30 UTC"; the page's script then shows it in the reader's own time zone too.
 */
export function renderTime(page: PageContext, iso: unknown): string {
  if (typeof iso !== 'string') return '';
  const parts = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(iso);
  const date = new Date(iso);
  const shown = parts === null ? iso
    : page.locale !== undefined && !Number.isNaN(date.getTime()) ? `${formatterOf(page.locale).format(date)} UTC` : `${parts[1]} ${parts[2]} UTC`;
  return `<time datetime="${escapeHtml(iso)}">${escapeHtml(shown)}</time>`;
}

/** A user's avatar at `size` pixels, cropped to its zone, or nothing; decorative beside the login. */
export function renderUserAvatar(user: PageUser | undefined, size: number, label = ''): string {
  const avatar = user?.avatar;
  if (avatar === undefined || typeof avatar['avatar'] !== 'string') return '';
  return renderAvatarImage(avatar['avatar'], avatar, size, label);
}

/** A user as a link to their page: the login (bidi-isolated), with the avatar before it when asked; an unknown id stays the id. */
export function renderUser(page: PageContext, userId: unknown, avatarSize = 0): string {
  if (typeof userId !== 'string') return '';
  return renderPerson(page, page.users[userId] ?? { id: userId, login: userId }, avatarSize);
}

/** renderUser for a user the page holds outside page.users (the members page's candidates): shown by login, never by id (docs/html.md). */
export function renderPerson(page: PageContext, user: PageUser, avatarSize = 0): string {
  if (user.erased === true) return `<span class="user erased">${escapeHtml(user.login)}</span>`;
  const avatar = avatarSize > 0 ? renderUserAvatar(user, avatarSize) : '';
  const deactivated = user.deactivated === true ? ' <span class="deactivated">(deactivated)</span>' : '';
  return `<a class="user" href="${escapeHtml(pathOf(page, 'user', { userId: user.id }))}">${avatar}${renderPresence(user)}<bdi>${escapeHtml(user.login)}</bdi></a>${deactivated}`;
}

/**
 * The presence dot (docs/html.md): its colour, and the word for whoever does not see it (role="img" with a label, so a
 * screen reader reads "online, alice"). data-presence-of lets the page's script move it when presence.changed arrives.
 */
export function renderPresence(user: PageUser): string {
  if (user.presence === undefined) return '';
  const presence = escapeHtml(user.presence);
  return `<span class="presence" role="img" aria-label="${presence}" title="${presence}" data-presence="${presence}" data-presence-of="${escapeHtml(user.id)}"></span>`;
}

/** Logins of several users, comma-separated, as plain text (a title attribute, a summary). */
export function loginsOf(page: PageContext, ids: unknown): string {
  if (!Array.isArray(ids)) return '';
  return ids.map((id) => page.users[String(id)]?.login ?? String(id)).join(', ');
}

/**
 * Only same-origin paths become links: a leading '/' but not '//' or '/\' (both name another
 * host to a browser), and no whitespace or control characters, which the WHATWG URL parser
 * strips (so '/\t/evil.example' would turn into '//evil.example'). javascript:, data: and
 * absolute URLs never pass.
 */
export function safeHref(href: string | undefined): string | undefined {
  if (href === undefined || !/^\/(?![/\\])/.test(href) || /[\u0000-\u0020\u007f]/.test(href)) return undefined;
  return href;
}
