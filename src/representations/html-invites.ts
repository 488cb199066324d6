// Invites as pages: the join page an invite link opens, and a new invite with its link, shown once.
import { escapeHtml } from './escape.ts';
import { renderForm } from './html-forms.ts';
import { renderSignUpForm } from './html-landing.ts';
import { anchor, pathOf, renderTime, renderUser } from './html-parts.ts';
import type { CollectionRepresentation, PageContext, Resource, SingleRepresentation } from './representation.ts';

/** GET /join/{code}: the sign-up form with the code in it, or why the code cannot be used. */
export function renderJoinPage(rep: SingleRepresentation, page: PageContext): { heading: string; main: string } {
  const data = rep.data;
  const refused = data['refused'] as Resource | null;
  const login = anchor(pathOf(page, 'session'), 'log in');
  if (refused !== null && refused !== undefined) {
    return {
      heading: 'This invite cannot be used',
      main: `<p class="error" role="alert">${escapeHtml(`${String(refused['status'])} ${String(refused['title'])}: ${String(refused['detail'])}`)}</p>\n` +
        `<p>Ask whoever sent you the link for a new one. If you have an account already, ${login}.</p>`,
    };
  }
  const role = data['role'] === 'admin' ? 'an administrator' : 'a member';
  const expires = typeof data['expiresAt'] === 'string' ? ` The link works until ${renderTime(page, data['expiresAt'])}.` : '';
  const signedIn = page.me !== undefined ? `<p>You are signed in as ${renderUser(page, page.me.id)}: log out first to make another account.</p>\n` : '';
  return {
    heading: 'Join the chat',
    main: `<p>You are invited to join as ${role}: choose a login and a password.${expires} If you have an account already, ${login}.</p>\n` +
      `${signedIn}${renderSignUpForm((data['signUp'] ?? {}) as Resource, page.basePath, { code: String(data['code']) })}`,
  };
}

/**
 * One invite; right after POST /invites (a form's answer, docs/html.md), with its link, which the server cannot show
 * again: it keeps only the code's hash.
 */
export function renderInvitePage(rep: SingleRepresentation, page: PageContext): { heading: string; main: string } {
  const invite = rep.data;
  const url = typeof invite['url'] === 'string' ? invite['url'] : undefined;
  const uses = `${Number(invite['uses'])} of ${invite['maxUses'] === null ? 'any number' : Number(invite['maxUses'])}`;
  const facts = `<dl><dt>Role</dt><dd>${escapeHtml(String(invite['role']))}</dd><dt>Made by</dt><dd>${renderUser(page, invite['createdBy'])}</dd>` +
    `<dt>Sign-ups</dt><dd>${escapeHtml(uses)}</dd>` +
    `<dt>Expires</dt><dd>${invite['expiresAt'] === null ? 'never' : renderTime(page, invite['expiresAt'])}</dd>` +
    `<dt>Revoked</dt><dd>${invite['revokedAt'] === null ? 'no' : renderTime(page, invite['revokedAt'])}</dd></dl>`;
  const shown = url === undefined ? '' : '<p role="status">The invite is made. Send this link to the person you invite: it is shown only now, ' +
    'the server keeps no copy of it.</p>\n' +
    `<p class="field"><label for="invite-url">Invite link</label><input id="invite-url" type="text" readonly value="${escapeHtml(url)}"></p>\n` +
    `<p>${anchor(url, 'Open the join page')}</p>\n`;
  const back = page.admin === true ? `<p>${anchor(pathOf(page, 'admin'), 'Back to the administration page')}</p>` : `<p>${anchor(pathOf(page, 'invites'), 'Your invites')}</p>`;
  return { heading: url === undefined ? 'Invite' : 'New invite', main: `${shown}${facts}${back}` };
}

/** GET /invites: make one (anyone who may invite), and the list with a button to revoke each that holds. */
export function renderInviteList(rep: CollectionRepresentation, page: PageContext): { heading: string; main: string } {
  const self = pathOf(page, 'invites');
  const create = page.mayInvite !== true ? '<p>Only administrators invite people on this server.</p>' : renderForm({
    action: self, method: 'POST', button: 'Create invite', id: 'invite', back: self,
    fields: [
      { name: 'maxUses', label: 'Sign-ups it allows', type: 'number', value: '1', attributes: 'min="1" max="10000" step="1" inputmode="numeric"' },
      { name: 'expiresAt', label: 'Expires at, UTC (empty: in 7 days)', type: 'datetime-local' },
    ],
  }, page);
  const items = rep.data.map((invite) => {
    const inviteId = String(invite['id']);
    const uses = `${Number(invite['uses'])} of ${invite['maxUses'] === null ? 'any number' : Number(invite['maxUses'])} sign-ups`;
    const expires = invite['expiresAt'] === null ? 'never expires' : `expires ${renderTime(page, invite['expiresAt'])}`;
    const revoke = invite['revokedAt'] !== null ? ` revoked ${renderTime(page, invite['revokedAt'])}` : ` ${renderForm({
      action: pathOf(page, 'invite', { inviteId }), method: 'DELETE', button: 'Revoke', id: `revoke-${inviteId}`, back: self, inline: true,
      buttonAttributes: `aria-label="Revoke the invite made ${escapeHtml(String(invite['createdAt']))}"`,
    }, page)}`;
    return `<li>${anchor(pathOf(page, 'invite', { inviteId }), `Made ${String(invite['createdAt'])}`)} by ${renderUser(page, invite['createdBy'])}, ` +
      `${escapeHtml(String(invite['role']))}, ${escapeHtml(uses)}, ${expires}.${revoke}</li>`;
  });
  const list = items.length === 0 ? '<p class="none">No invites yet.</p>' : `<ul class="results">${items.join('\n')}</ul>`;
  return { heading: 'Invites', main: `<section aria-labelledby="new-invite-heading"><h2 id="new-invite-heading">Invite someone</h2>${create}</section>\n${list}` };
}
