// The administration page (docs/html.md, Administration): people with their role and state, invites, the audit log.
import { PATHS } from '../paths.ts';
import { escapeHtml } from './escape.ts';
import { renderForm } from './html-forms.ts';
import { anchor, pathOf, renderTime, renderUser } from './html-parts.ts';
import type { PageContext, Resource, SingleRepresentation } from './representation.ts';

function table(caption: string, head: readonly string[], rows: readonly string[]): string {
  const columns = head.map((name) => `<th scope="col">${escapeHtml(name)}</th>`).join('');
  return `<div class="table"><table><caption>${escapeHtml(caption)}</caption><thead><tr>${columns}</tr></thead><tbody>\n${rows.join('\n')}\n</tbody></table></div>`;
}

function listOf(data: Resource, name: string): Resource[] {
  return Array.isArray(data[name]) ? (data[name] as Resource[]) : [];
}

/** Promote or demote, deactivate or reactivate: each a PATCH of the user with one field, back to this page. */
function personActions(page: PageContext, person: Resource, self: string): string {
  const userId = String(person['id']);
  const login = escapeHtml(String(person['login']));
  const action = pathOf(page, 'user', { userId });
  const admin = person['role'] === 'admin';
  const active = person['active'] !== false;
  const role = renderForm({
    action, method: 'PATCH', button: admin ? 'Make member' : 'Make admin', id: `role-${userId}`, back: self, inline: true,
    fields: [{ name: 'role', type: 'hidden', value: admin ? 'member' : 'admin' }],
    buttonAttributes: `aria-label="${admin ? 'Make member' : 'Make admin'}: ${login}"`,
  }, page);
  const state = renderForm({
    action, method: 'PATCH', button: active ? 'Deactivate' : 'Reactivate', id: `active-${userId}`, back: self, inline: true,
    fields: [{ name: 'active', type: 'hidden', value: active ? 'false' : 'true' }],
    buttonAttributes: `aria-label="${active ? 'Deactivate' : 'Reactivate'}: ${login}"`,
  }, page);
  return `${role} ${state}`;
}

function renderPeople(page: PageContext, data: Resource, self: string): string {
  const rows = listOf(data, 'people').map((person) => `<tr><td>${renderUser(page, person['id'])}</td><td>${escapeHtml(String(person['role'] ?? 'member'))}</td>` +
    `<td>${person['active'] === false ? 'deactivated' : 'active'}</td><td>${person['lastSeenAt'] == null ? 'never' : renderTime(page, person['lastSeenAt'])}</td>` +
    `<td>${personActions(page, person, self)}</td></tr>`);
  const more = Number(data['peopleTotal']) > rows.length ? `<p>${anchor(pathOf(page, 'users'), `All ${Number(data['peopleTotal'])} people`)}</p>` : '';
  return `<section aria-labelledby="people-heading"><h2 id="people-heading">People</h2>${table('People, by login', ['Login', 'Role', 'State', 'Last seen', 'Change'], rows)}${more}</section>`;
}

function renderInvites(page: PageContext, data: Resource, self: string): string {
  const create = renderForm({
    action: pathOf(page, 'invites'), method: 'POST', button: 'Create invite', id: 'invite', back: self,
    fields: [
      { name: 'maxUses', label: 'Sign-ups it allows', type: 'number', value: '1', attributes: 'min="1" max="10000" step="1" inputmode="numeric"' },
      { name: 'expiresAt', label: 'Expires at, UTC (empty: in 7 days)', type: 'datetime-local' },
      { name: 'role', label: 'Invite as an administrator', type: 'checkbox', value: 'admin' },
    ],
  }, page);
  const rows = listOf(data, 'invites').map((invite) => {
    const inviteId = String(invite['id']);
    const revoke = invite['state'] !== 'open' ? '' : renderForm({
      action: pathOf(page, 'invite', { inviteId }), method: 'DELETE', button: 'Revoke', id: `revoke-${inviteId}`, back: self, inline: true,
      buttonAttributes: `aria-label="Revoke the invite made ${escapeHtml(String(invite['createdAt']))}"`,
    }, page);
    const uses = `${Number(invite['uses'])} of ${invite['maxUses'] === null ? 'any number' : Number(invite['maxUses'])}`;
    return `<tr><td>${renderTime(page, invite['createdAt'])}</td><td>${renderUser(page, invite['createdBy'])}</td><td>${escapeHtml(String(invite['role']))}</td>` +
      `<td>${escapeHtml(uses)}</td><td>${invite['expiresAt'] === null ? 'never' : renderTime(page, invite['expiresAt'])}</td>` +
      `<td>${escapeHtml(String(invite['state']))}</td><td>${revoke}</td></tr>`;
  });
  const list = rows.length === 0 ? '<p class="none">No invites yet.</p>' : table('Invites, newest first', ['Made', 'By', 'Role', 'Sign-ups', 'Expires', 'State', 'Revoke'], rows);
  const more = Number(data['invitesTotal']) > rows.length ? `<p>${anchor(pathOf(page, 'invites'), `All ${Number(data['invitesTotal'])} invites`)}</p>` : '';
  return `<section aria-labelledby="invites-heading"><h2 id="invites-heading">Invites</h2>` +
    '<p>An invite is a link that lets people sign up. Its link is shown once, right after it is made.</p>' +
    `${create}${list}${more}</section>`;
}

function renderAudit(page: PageContext, data: Resource): string {
  const rows = listOf(data, 'audit').map((entry) => `<tr><td>${renderTime(page, entry['at'])}</td><td>${renderUser(page, entry['actorId'])}</td>` +
    `<td><code>${escapeHtml(String(entry['action']))}</code></td><td>${escapeHtml(`${String(entry['targetType'])} ${String(entry['targetId'])}`)}</td>` +
    `<td>${entry['detail'] == null ? '' : `<code>${escapeHtml(JSON.stringify(entry['detail']))}</code>`}</td></tr>`);
  const list = rows.length === 0 ? '<p class="none">Nothing recorded yet.</p>' : table('The latest entries, newest first', ['When', 'Who', 'Action', 'Target', 'Detail'], rows);
  const links = (data['links'] ?? {}) as Resource;
  return `<section aria-labelledby="audit-heading"><h2 id="audit-heading">Audit log</h2>${list}` +
    `<p>${anchor(String(links['audit'] ?? `${page.basePath}${PATHS.index}`), 'The whole audit log')}</p></section>`;
}

export function renderAdminPage(rep: SingleRepresentation, page: PageContext): { heading: string; main: string } {
  const self = pathOf(page, 'admin');
  return { heading: 'Administration', main: `${renderPeople(page, rep.data, self)}\n${renderInvites(page, rep.data, self)}\n${renderAudit(page, rep.data)}` };
}
