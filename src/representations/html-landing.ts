// The landing page (GET / as HTML): what this server is, log in, sign up, and links to everything else.
import { PATHS } from '../paths.ts';
import { escapeHtml } from './escape.ts';
import type { Link, Resource } from './representation.ts';

interface FieldError {
  field: string;
  message: string;
}

/**
 * The sign-up form posts application/x-www-form-urlencoded to POST /users (docs/protocol.md §7.3, HTML forms);
 * a broken rule comes back as this form with the message beside its field. The join page's form carries the
 * invite's code as a hidden field (docs/html.md, Joining).
 */
export function renderSignUpForm(signUp: Resource, basePath: string, invite: { code?: string; ask?: boolean } = {}): string {
  const errors = Array.isArray(signUp['errors']) ? (signUp['errors'] as FieldError[]) : [];
  const login = typeof signUp['login'] === 'string' ? ` value="${escapeHtml(signUp['login'])}"` : '';
  const errorOf = (field: string): { attributes: string; html: string } => {
    const messages = errors.filter((error) => error.field === field).map((error) => error.message);
    if (messages.length === 0) return { attributes: '', html: '' };
    const id = `signup-${field}-error`;
    return {
      attributes: ` aria-invalid="true" aria-describedby="${id}"`,
      html: `<span class="error" id="${id}" role="alert">${escapeHtml(`${field} ${messages.join('; ')}`)}</span>`,
    };
  };
  const loginError = errorOf('login');
  const passwordError = errorOf('password');
  const codeError = errorOf('inviteCode');
  const shown = invite.ask === true ? ['login', 'password', 'inviteCode'] : ['login', 'password'];
  const other = errors.filter((error) => !shown.includes(error.field));
  const otherHtml = other.map((error) => `<p class="error" role="alert">${escapeHtml(`${error.field}: ${error.message}`)}</p>\n`).join('');
  const refused = typeof signUp['status'] === 'number'
    ? `<p class="error">Not signed up: ${escapeHtml(`${signUp['status']} ${String(signUp['title'] ?? '')}`.trim())}</p>\n`
    : '';
  return (
    refused +
    otherHtml +
    `<form method="post" action="${escapeHtml(`${basePath}${PATHS.users}`)}" enctype="application/x-www-form-urlencoded">\n` +
    (invite.code === undefined ? '' : `<input type="hidden" name="inviteCode" value="${escapeHtml(invite.code)}">\n`) +
    '<p><label for="signup-login">Login (3 to 32 letters, digits, ".", "_" or "-")</label>' +
    `<input id="signup-login" name="login" type="text" autocomplete="username" autocapitalize="none" spellcheck="false"` +
    ` minlength="3" maxlength="32" required${login}${loginError.attributes}>${loginError.html}</p>\n` +
    '<p><label for="signup-password">Password (at least 8 characters)</label>' +
    `<input id="signup-password" name="password" type="password" autocomplete="new-password" minlength="8" required${passwordError.attributes}>` +
    `${passwordError.html}</p>\n` +
    (invite.ask !== true ? '' : '<p><label for="signup-inviteCode">Invite code (the end of the invite link you were sent)</label>' +
      `<input id="signup-inviteCode" name="inviteCode" type="text" autocomplete="off" autocapitalize="none" spellcheck="false" maxlength="256"${codeError.attributes}>` +
      `${codeError.html}</p>\n`) +
    '<p><button type="submit">Sign up</button></p>\n</form>'
  );
}

/** The HTML login form posts application/x-www-form-urlencoded to POST /session (docs/protocol.md §2.2). */
export function renderLoginForm(data: Resource, action: string): string {
  const { error, login, notice } = data;
  const alert = typeof error === 'string' ? `<p class="error" role="alert">${escapeHtml(error)}</p>\n`
    : typeof notice === 'string' ? `<p class="notice" role="status">${escapeHtml(notice)}</p>\n` : '';
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

/**
 * What the sign-up mode (docs/protocol.md §13.2) means for whoever reads the landing page. The form stays in every
 * mode: the first account of a new server needs no invite, and makes it.
 */
function renderSignUpNote(registration: unknown): string {
  if (registration === 'invite') return '<p>Sign-up is by invitation: open the invite link you were sent, or paste its code below.</p>\n';
  if (registration === 'closed') return '<p>Sign-up is closed: an administrator creates accounts (only the first account of a new server is made here).</p>\n';
  return '';
}

/** `loginForm` is the HTML login form (renderLoginForm), to the caller's action. */
export function renderLanding(data: Resource, links: readonly Link[], basePath: string, loginForm: string): string {
  const version = typeof data['version'] === 'string' ? ` version ${escapeHtml(data['version'])}` : '';
  const intro = `<p>${escapeHtml(String(data['name'] ?? 'Chat API'))}${version}: a chat server with a resource-oriented HTTP API. ` +
    'Every page here is a resource: the same URL answers <code>application/json</code>, <code>application/xml</code> and <code>text/html</code>.</p>';
  const signedIn = data['signedIn'] === true;
  const signUp = (data['signUp'] ?? {}) as Resource;
  const account = signedIn
    ? `<p>You are logged in: open <a href="${escapeHtml(`${basePath}${PATHS.chats}`)}">your chats</a>.</p>\n` +
      `<form method="get" action="${escapeHtml(`${basePath}${PATHS.search}`)}" role="search"><p><label for="q">Search messages, chats and users</label>` +
      '<input id="q" name="q" type="search" required></p><p><button type="submit">Search</button></p></form>'
    : `<section aria-labelledby="login-heading">\n<h2 id="login-heading">Log in</h2>\n${loginForm}\n</section>\n` +
      `<section aria-labelledby="signup-heading">\n<h2 id="signup-heading">Sign up</h2>\n${renderSignUpNote(data['registration'])}` +
      `${renderSignUpForm(signUp, basePath, { ask: data['registration'] === 'invite' })}\n</section>`;
  const items = links
    .filter((link) => link.href.startsWith('/') && !link.href.startsWith('//'))
    .map((link) => `<li><a rel="${escapeHtml(link.rel)}" href="${escapeHtml(link.href)}">${escapeHtml(link.title ?? link.rel)}</a> <code>${escapeHtml(link.href)}</code></li>`);
  return `${intro}\n${account}\n<section aria-labelledby="api-heading">\n<h2 id="api-heading">The API</h2>\n<ul>${items.join('')}</ul>\n</section>`;
}
