// People as pages: the user list, one user (and your own account forms), avatars with upload, search results.
import { escapeHtml } from './escape.ts';
import { renderAvatarImage } from './html-avatar.ts';
import { renderForm } from './html-forms.ts';
import { renderAccountSection } from './html-sessions.ts';
import { renderPushSection } from './html-push.ts';
import { anchor, pathOf, renderTime, renderUser, renderUserAvatar } from './html-parts.ts';
import { chatNameOf } from './html-mentions.ts';
import type { CollectionRepresentation, PageContext, SingleRepresentation } from './representation.ts';
import { searchCountLimit } from '../storage/search-count.ts';

export function renderUserList(rep: CollectionRepresentation, page: PageContext): { heading: string; main: string } {
  const items = rep.data.map((user) => `<li>${renderUser(page, user['id'], 32)} <span class="none">joined ${renderTime(page, user['createdAt'])}</span></li>`);
  return { heading: 'Users', main: `<ul class="people">${items.join('\n')}</ul>` };
}

/** A user: avatar, login, since when; on your own page the forms to change login and password. */
export function renderUserPage(rep: SingleRepresentation, page: PageContext): { heading: string; main: string } {
  const user = rep.data;
  const userId = String(user['id']);
  const avatar = renderUserAvatar(page.users[userId], 96, `Avatar of ${String(user['login'])}`);
  const parts = [
    `${avatar}<dl><dt>Login</dt><dd><bdi>${escapeHtml(String(user['login']))}</bdi></dd><dt>Joined</dt><dd>${renderTime(page, user['createdAt'])}</dd></dl>`,
    `<p>${anchor(pathOf(page, 'avatars', { userId }), page.me?.id === userId ? 'Your avatars: upload, choose' : 'Avatars')}</p>`,
  ];
  // docs/protocol.md §14.1: opens (or creates) the direct chat with this person; on your own page, the chat with yourself.
  if (page.me !== undefined) {
    parts.push(renderForm({
      action: pathOf(page, 'chats'), method: 'POST', button: page.me.id === userId ? 'Message yourself' : 'Message', id: 'direct', inline: true,
      fields: [{ name: 'kind', type: 'hidden', value: 'direct' }, { name: 'members', type: 'hidden', value: userId }],
      buttonAttributes: `aria-label="${escapeHtml(page.me.id === userId ? 'Message yourself' : `Message ${String(user['login'])}`)}"`,
    }, page));
  }
  if (page.me?.id === userId) {
    parts.push(`<p>${anchor(pathOf(page, 'tokens', { userId }), 'Access tokens and bots')}</p>`);
    const self = pathOf(page, 'user', { userId });
    parts.push(`<section aria-labelledby="account-heading"><h2 id="account-heading">Change login or password</h2>${renderForm({
      action: self, method: 'PATCH', button: 'Save changes', id: 'account', back: self,
      fields: [
        { name: 'login', label: 'Login', type: 'text', value: String(user['login']), attributes: 'minlength="3" maxlength="32" autocomplete="username" autocapitalize="none" spellcheck="false"' },
        { name: 'currentPassword', label: 'Current password (to change the password)', type: 'password', attributes: 'autocomplete="current-password"' },
        { name: 'password', label: 'New password (at least 8 characters)', type: 'password', attributes: 'minlength="8" autocomplete="new-password"' },
      ],
    }, page)}</section>`);
    parts.push(renderPushSection(page, userId));
    parts.push(renderAccountSection(page, userId));
  }
  return { heading: String(user['login'] ?? 'User'), main: parts.join('\n') };
}

/** A user's avatars, cropped to their zones; the user themself chooses one, deletes one, or uploads a new one (multipart). */
export function renderAvatarsPage(rep: CollectionRepresentation, page: PageContext, userId: string): { heading: string; main: string } {
  const mine = page.me?.id === userId;
  const current = page.users[userId]?.avatar?.['id'];
  const self = pathOf(page, 'avatars', { userId });
  const items = rep.data.map((avatar) => {
    const avatarId = String(avatar['id']);
    const image = typeof avatar['avatar'] === 'string' ? renderAvatarImage(avatar['avatar'], avatar, 96) : '';
    const facts = `<span class="none">${Number(avatar['imageWidth'])}×${Number(avatar['imageHeight'])}, zone ${Number(avatar['width'])}×${Number(avatar['height'])} at ${Number(avatar['x'])},${Number(avatar['y'])} · ${renderTime(page, avatar['createdAt'])}</span>`;
    const buttons = !mine ? '' : ` ${avatarId === current ? '<span class="badge">current</span>' : renderForm({
      action: pathOf(page, 'user', { userId }), method: 'PATCH', button: 'Use this one', id: `use-${avatarId}`, back: self, inline: true,
      fields: [{ name: 'avatar', type: 'hidden', value: avatarId }],
    }, page)} ${renderForm({ action: pathOf(page, 'avatar', { userId, avatarId }), method: 'DELETE', button: 'Delete', id: `delete-${avatarId}`, inline: true }, page)}`;
    return `<li>${image} ${facts}${buttons}</li>`;
  });
  const parts = [items.length === 0 ? '<p class="none">No avatars yet.</p>' : `<ul class="avatars">${items.join('\n')}</ul>`];
  if (mine) {
    const number = (name: string, label: string) => ({ name, label, type: 'number' as const, attributes: `min="${name === 'width' || name === 'height' ? 1 : 0}" step="1" required inputmode="numeric"` });
    parts.push(`<section aria-labelledby="upload-heading"><h2 id="upload-heading">Upload an avatar</h2>` +
      '<p>A PNG, JPEG, GIF or WebP image, and the zone of it to show, in image pixels (with scripts on, the largest centred square is filled in).</p>' +
      renderForm({
        action: self, method: 'POST', button: 'Upload', id: 'upload', multipart: true,
        fields: [
          { name: 'avatar', label: 'Image', type: 'file', attributes: 'accept="image/png,image/jpeg,image/gif,image/webp" required' },
          number('x', 'Zone left (x)'), number('y', 'Zone top (y)'), number('width', 'Zone width'), number('height', 'Zone height'),
        ],
      }, page) + '<p>A new avatar is shown once you choose it with "Use this one".</p></section>');
  }
  const login = page.users[userId]?.login ?? userId;
  return { heading: mine ? 'Your avatars' : `Avatars of ${login}`, main: `<p>${renderUser(page, userId)}</p>${parts.join('\n')}` };
}

/** GET /search: the query again, then each hit by kind: a message (author, chat, text), a chat, a user. */
export function renderSearchResults(rep: CollectionRepresentation, page: PageContext, query: string): { heading: string; main: string } {
  const items = rep.data.map((hit) => {
    if (hit['type'] === 'message') {
      const href = pathOf(page, 'message', { chatId: String(hit['chatId']), messageId: String(hit['id']) });
      const chatId = String(hit['chatId']);
      const where = anchor(pathOf(page, 'messages', { chatId }), chatNameOf(page, page.chats?.[chatId], 'a chat'));
      return `<li>Message by ${renderUser(page, hit['authorId'])} in ${where} ${renderTime(page, hit['createdAt'])}: <a href="${escapeHtml(href)}" dir="auto">${escapeHtml(String(hit['text'] ?? ''))}</a></li>`;
    }
    if (hit['type'] === 'chat') return `<li>Chat ${anchor(pathOf(page, 'messages', { chatId: String(hit['id']) }), String(hit['title'] ?? ''))}</li>`;
    return `<li>User ${renderUser(page, hit['id'], 24)}</li>`;
  });
  const total = 'total' in rep.meta ? rep.meta.total : rep.data.length;
  // A total that reached the count's bound says "at least" (docs/protocol.md §5).
  const atLeast = 'total' in rep.meta && total === searchCountLimit(rep.meta) ? '+' : '';
  const form = `<form method="get" action="${escapeHtml(pathOf(page, 'search'))}" role="search"><p class="field"><label for="search-again">Search for</label>` +
    `<input id="search-again" name="q" type="search" required value="${escapeHtml(query)}"></p><p><button type="submit">Search</button></p></form>`;
  return { heading: `Search: ${query}`, main: `${form}<p>${total}${atLeast} found.</p><ul class="results">${items.join('\n')}</ul>` };
}
