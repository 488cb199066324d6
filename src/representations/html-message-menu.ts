// One compact actions menu per message of the chat screen (docs/html.md, "The chat screen"): a <details> whose
// Reply, React, Edit, Delete and Mark unread from here are links and plain forms that return to the chat at the message.
import { nameOfEmoji } from './emoji-names.ts';
import { escapeHtml } from './escape.ts';
import { renderForm } from './html-forms.ts';
import { chatIdOf, messagePath, REACTION_PALETTE, returnPath } from './html-messages.ts';
import { pathOf } from './html-parts.ts';
import type { PageContext, Resource } from './representation.ts';

/** This page with one chat screen parameter set (`reply` or `edit`), at the message. */
function screenLink(page: PageContext, name: 'reply' | 'edit', messageId: string): string {
  const [path, query = ''] = page.self.split('?', 2);
  const params = new URLSearchParams(query);
  params.delete('reply');
  params.delete('edit');
  params.set(name, messageId);
  return `${path}?${params.toString()}#m-${messageId}`;
}

/** React: the common eight as buttons of one form, and any emoji typed into a field (POST …/reactions, field `emoji`). */
function renderReactForms(page: PageContext, message: Resource, back: string): string {
  const messageId = String(message['id']);
  const action = pathOf(page, 'reactions', { chatId: chatIdOf(page, message), messageId });
  const buttons = REACTION_PALETTE.map((emoji) => `<button type="submit" name="emoji" value="${escapeHtml(emoji)}" aria-label="${escapeHtml(`React with ${nameOfEmoji(emoji)}`)}">${escapeHtml(emoji)}</button>`).join('');
  const palette = `<form method="post" action="${escapeHtml(action)}" class="palette" aria-label="React"><input type="hidden" name="_back" value="${escapeHtml(back)}">${buttons}</form>`;
  const any = renderForm({
    action, method: 'POST', button: 'React', id: `react-any-${messageId}`, back, inline: true,
    fields: [{ name: 'emoji', label: 'Any emoji', type: 'text', attributes: 'required maxlength="32" size="4" autocomplete="off"' }],
  }, page);
  return `${palette}${any}`;
}

/**
 * The menu of one message. `before` is the message before it (Mark unread from here moves the marker there; '' for
 * the chat's first message: no marker; undefined when not known, and the form is left out).
 */
export function renderMessageMenu(page: PageContext, message: Resource, before: string | undefined): string {
  const messageId = String(message['id']);
  const chatId = chatIdOf(page, message);
  const back = returnPath(page, messageId);
  const isAuthor = page.me !== undefined && message['authorId'] === page.me.id;
  const mayDelete = isAuthor || (page.me !== undefined && page.chat?.['ownerId'] === page.me.id) || page.me?.admin === true;
  const login = page.users[String(message['authorId'])]?.login ?? '';
  const items = [
    `<a href="${escapeHtml(screenLink(page, 'reply', messageId))}">Reply</a>`,
    renderReactForms(page, message, back),
    isAuthor ? `<a href="${escapeHtml(screenLink(page, 'edit', messageId))}">Edit</a>` : '',
    mayDelete ? renderForm({ action: messagePath(page, message), method: 'DELETE', button: 'Delete', id: `delete-${messageId}`, inline: true }, page) : '',
    before === undefined ? '' : renderForm({
      action: pathOf(page, 'read', { chatId }), method: 'PUT', button: 'Mark unread from here', id: `unread-${messageId}`,
      fields: [{ name: 'lastReadId', type: 'hidden', value: before }], back, inline: true,
    }, page),
  ].filter((item) => item !== '');
  const summary = `<summary title="Actions" aria-label="${escapeHtml(`Actions for the message of ${login}`)}"><span aria-hidden="true">⋯</span></summary>`;
  return `<details class="menu">${summary}<div class="menu-items">${items.join('')}</div></details>`;
}
