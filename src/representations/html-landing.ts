// The landing page (GET / as HTML) for people: what this is, log in, join; the sign-up and login forms.
import { PATHS } from '../paths.ts';
import { escapeHtml } from './escape.ts';
import type { Link, Resource } from './representation.ts';
import { APP_NAME } from './web-manifest.ts';

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

/** The sign-up door's heading and what the sign-up mode (docs/protocol.md §13.2) means for whoever reads it. */
function signUpDoor(registration: unknown): { heading: string; note: string } {
  if (registration === 'invite') {
    return { heading: 'Join with an invite', note: '<p>Open the invite link you were sent, or paste its code below with the login and password you want.</p>\n' };
  }
  // The form stays in every mode: the first account of a new server needs no invite, and makes it.
  if (registration === 'closed') {
    return { heading: 'New here?', note: '<p>Sign-up is closed: an administrator creates accounts (only the first account of a new server is made here).</p>\n' };
  }
  return { heading: 'New here? Sign up', note: '<p>Choose a login and a password: you are signed in at once.</p>\n' };
}

/**
 * GET / for people (docs/html.md, The landing page): what this is, then log in and join side by side; signed in, the
 * way to the chats. The developer material is one link away (the API reference, the OpenAPI description): JSON and
 * XML clients of `/` get the index, unchanged. `loginForm` is the HTML login form (renderLoginForm).
 */
export function renderLanding(data: Resource, links: readonly Link[], basePath: string, loginForm: string): string {
  const signUp = (data['signUp'] ?? {}) as Resource;
  const lede = `<p class="lede">${escapeHtml(APP_NAME)} is where your team talks: group chats and direct messages, replies, reactions and ` +
    'files, live in the browser, on a phone or a desktop.</p>\n';
  const door = signUpDoor(data['registration']);
  const account = data['signedIn'] === true
    ? `<p><a class="button-link" href="${escapeHtml(`${basePath}${PATHS.chats}`)}">Open your chats</a></p>\n`
    : '<div class="doors">\n' +
      `<section aria-labelledby="login-heading">\n<h2 id="login-heading">Log in</h2>\n${loginForm}\n</section>\n` +
      `<section aria-labelledby="signup-heading">\n<h2 id="signup-heading">${door.heading}</h2>\n${door.note}` +
      `${renderSignUpForm(signUp, basePath, { ask: data['registration'] === 'invite' })}\n</section>\n</div>\n`;
  const version = typeof data['version'] === 'string' ? ` This server runs version ${escapeHtml(data['version'])}.` : '';
  // Folded, as every page keeps the resource's own fields: the index's entry points, for whoever wants the API's view.
  const items = links
    .filter((link) => link.href.startsWith('/') && !link.href.startsWith('//'))
    .map((link) => `<li><a rel="${escapeHtml(link.rel)}" href="${escapeHtml(link.href)}">${escapeHtml(link.title ?? link.rel)}</a> <code>${escapeHtml(link.href)}</code></li>`);
  const developers = '<section aria-labelledby="developers-heading">\n<h2 id="developers-heading">For developers</h2>\n' +
    `<p>Every page here is also a resource of the ${escapeHtml(String(data['name'] ?? 'Chat API'))}, an HTTP API (JSON, XML and HTML at the same address): read the ` +
    `<a href="${escapeHtml(`${basePath}${PATHS.docs}`)}">API reference</a> or its ` +
    `<a href="${escapeHtml(`${basePath}${PATHS.openApi}`)}">OpenAPI description</a>.${version}</p>\n` +
    `<details><summary>The API's entry points</summary><ul>${items.join('')}</ul></details>\n</section>`;
  return `${lede}${account}${developers}`;
}
