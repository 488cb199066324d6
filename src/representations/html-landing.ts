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
export function renderSignUpForm(signUp: Resource, basePath: string, inviteCode?: string): string {
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
  const other = errors.filter((error) => error.field !== 'login' && error.field !== 'password');
  const otherHtml = other.map((error) => `<p class="error" role="alert">${escapeHtml(`${error.field}: ${error.message}`)}</p>\n`).join('');
  const refused = typeof signUp['status'] === 'number'
    ? `<p class="error">Not signed up: ${escapeHtml(`${signUp['status']} ${String(signUp['title'] ?? '')}`.trim())}</p>\n`
    : '';
  return (
    refused +
    otherHtml +
    `<form method="post" action="${escapeHtml(`${basePath}${PATHS.users}`)}" enctype="application/x-www-form-urlencoded">\n` +
    (inviteCode === undefined ? '' : `<input type="hidden" name="inviteCode" value="${escapeHtml(inviteCode)}">\n`) +
    '<p><label for="signup-login">Login (3 to 32 letters, digits, ".", "_" or "-")</label>' +
    `<input id="signup-login" name="login" type="text" autocomplete="username" autocapitalize="none" spellcheck="false"` +
    ` minlength="3" maxlength="32" required${login}${loginError.attributes}>${loginError.html}</p>\n` +
    '<p><label for="signup-password">Password (at least 8 characters)</label>' +
    `<input id="signup-password" name="password" type="password" autocomplete="new-password" minlength="8" required${passwordError.attributes}>` +
    `${passwordError.html}</p>\n` +
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
      `<section aria-labelledby="signup-heading">\n<h2 id="signup-heading">Sign up</h2>\n${renderSignUpForm(signUp, basePath)}\n</section>`;
  const items = links
    .filter((link) => link.href.startsWith('/') && !link.href.startsWith('//'))
    .map((link) => `<li><a rel="${escapeHtml(link.rel)}" href="${escapeHtml(link.href)}">${escapeHtml(link.title ?? link.rel)}</a> <code>${escapeHtml(link.href)}</code></li>`);
  return `${intro}\n${account}\n<section aria-labelledby="api-heading">\n<h2 id="api-heading">The API</h2>\n<ul>${items.join('')}</ul>\n</section>`;
}
