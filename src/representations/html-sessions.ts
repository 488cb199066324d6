// A user's own account pages: their sessions (end one, end all others), and the account section of their page.
import { escapeHtml } from './escape.ts';
import { renderForm } from './html-forms.ts';
import { anchor, pathOf, renderTime, renderUser } from './html-parts.ts';
import type { CollectionRepresentation, PageContext } from './representation.ts';

/** GET /users/{id}/sessions: each session (where from, since when, last used); End for one, and End all other sessions. */
export function renderSessionsPage(rep: CollectionRepresentation, page: PageContext, userId: string): { heading: string; main: string } {
  const mine = page.me?.id === userId;
  const self = pathOf(page, 'userSessions', { userId });
  const items = rep.data.map((session) => {
    const sessionId = String(session['id']);
    const current = session['current'] === true;
    const agent = typeof session['userAgent'] === 'string' ? session['userAgent'] : 'an unknown client';
    const address = typeof session['address'] === 'string' ? ` from <bdi>${escapeHtml(session['address'])}</bdi>` : '';
    const facts = `<span class="none">signed in ${renderTime(page, session['createdAt'])} · last used ${renderTime(page, session['lastUsedAt'])} · ends ${renderTime(page, session['expiresAt'])}</span>`;
    const badge = current ? ' <span class="badge">this session</span>' : '';
    const end = renderForm({
      action: pathOf(page, 'userSession', { userId, sessionId }), method: 'DELETE', button: current ? 'Log out' : 'End', id: `end-${sessionId}`, back: self, inline: true,
      label: current ? 'Log out of this session' : `End the session of ${agent}`,
    }, page);
    return `<li><bdi dir="auto">${escapeHtml(agent)}</bdi>${address}${badge}<br>${facts} ${end}</li>`;
  });
  const list = items.length === 0 ? '<p class="none">No sessions.</p>' : `<ul class="sessions">${items.join('\n')}</ul>`;
  const others = renderForm({
    action: self, method: 'DELETE', button: mine ? 'End all other sessions' : 'End all sessions', id: 'end-others', back: self,
  }, page);
  const heading = mine ? 'Your sessions' : 'Sessions';
  return { heading, main: `<p>${renderUser(page, userId, 24)}</p>${list}<section aria-labelledby="end-others-heading"><h2 id="end-others-heading">${mine ? 'Everywhere else' : 'All of them'}</h2>${others}</section>` };
}

/** On your own page: your sessions, your data, and deleting your account (asks for your password; works without scripts). */
export function renderAccountSection(page: PageContext, userId: string): string {
  const remove = renderForm({
    action: pathOf(page, 'user', { userId }), method: 'DELETE', button: 'Delete my account', id: 'delete-account',
    fields: [
      { name: 'password', label: 'Your password', type: 'password', attributes: 'required autocomplete="current-password"' },
      { name: 'keepMessages', label: 'Keep my messages (shown as by "deleted user")', type: 'checkbox', value: 'true' },
      { name: '_confirm', label: 'Yes, delete my account for good', type: 'checkbox', value: 'yes', attributes: 'required' },
    ],
  }, page);
  return `<section aria-labelledby="your-data-heading"><h2 id="your-data-heading">Your sessions and data</h2>`
    + `<p>${anchor(pathOf(page, 'userSessions', { userId }), 'Your sessions')} · ${anchor(pathOf(page, 'userExport', { userId }), 'Download my data')} (shown here; as JSON, it downloads as a file)</p></section>`
    + `<section aria-labelledby="delete-account-heading"><h2 id="delete-account-heading">Delete my account</h2>`
    + '<p>Your login, avatars, sessions, reactions and read markers are removed, and your messages too unless you keep them. '
    + 'A chat you own goes to its longest-standing member, or is deleted when you are its only member.</p>'
    + `${remove}</section>`;
}
