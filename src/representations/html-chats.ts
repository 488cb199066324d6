// One chat's settings and its members: pages with their forms (the list of chats is the chat screen's sidebar, html-chat-screen.ts).
import { escapeHtml } from './escape.ts';
import { renderForm } from './html-forms.ts';
import { anchor, pathOf, renderPerson, renderTime, renderUser } from './html-parts.ts';
import { chatNameOf } from './html-mentions.ts';
import type { CollectionRepresentation, PageContext, Resource, SingleRepresentation } from './representation.ts';

/** Its owner and administrators manage a group chat's webhooks (docs/protocol.md §16.3). */
function renderWebhooksLink(page: PageContext, chat: Resource): string {
  const manages = page.me !== undefined && (chat['ownerId'] === page.me.id || page.admin === true) && chat['kind'] !== 'direct';
  return manages ? ` · ${anchor(pathOf(page, 'webhooks', { chatId: String(chat['id']) }), 'Webhooks')}` : '';
}

/** GET /chats/{id}: title, owner, members; the owner renames, clears or deletes it, a member leaves it. */

export function renderChatPage(rep: SingleRepresentation, page: PageContext): { heading: string; main: string } {
  const chat = rep.data;
  const chatId = String(chat['id']);
  const isOwner = page.me !== undefined && chat['ownerId'] === page.me.id;
  const members = (Array.isArray(chat['members']) ? chat['members'] : []).map((id) => `<li>${renderUser(page, id, 24)}</li>`);
  const parts = [
    `<p>${anchor(pathOf(page, 'messages', { chatId }), 'Messages')} · ${anchor(pathOf(page, 'members', { chatId }), 'Members')}${renderWebhooksLink(page, chat)} · ${Number(chat['unreadCount'] ?? 0)} unread</p>`,
    `<dl><dt>Owner</dt><dd>${renderUser(page, chat['ownerId'], 24)}</dd><dt>Created</dt><dd>${renderTime(page, chat['createdAt'])}</dd><dt>Updated</dt><dd>${renderTime(page, chat['updatedAt'])}</dd></dl>`,
    `<h2>Members</h2><ul class="people">${members.join('')}</ul>`,
  ];
  const self = pathOf(page, 'chat', { chatId });
  if (page.notificationLevel !== undefined) parts.push(renderNotificationControl(page, chatId, page.notificationLevel));
  const direct = chat['kind'] === 'direct';
  if (isOwner && !direct) {
    parts.push(`<section aria-labelledby="rename-heading"><h2 id="rename-heading">Rename</h2>${renderForm({
      action: self, method: 'PATCH', button: 'Rename', id: 'rename',
      fields: [{ name: 'title', label: 'Title', type: 'text', value: String(chat['title'] ?? ''), attributes: 'required maxlength="200"' }],
    }, page)}</section>`);
    // Nothing brings these back: the browser asks for the box to be ticked first (HTML's own validation, no script).
    const sure = (what: string) => [{ name: '_confirm', label: `Yes, ${what}`, type: 'checkbox' as const, value: 'yes', attributes: 'required' }];
    parts.push(`<section aria-labelledby="danger-heading"><h2 id="danger-heading">Delete</h2>${renderForm({
      action: pathOf(page, 'messages', { chatId }), method: 'DELETE', button: 'Delete all messages', id: 'clear', fields: sure('delete every message of this chat'),
    }, page)}${renderForm({ action: self, method: 'DELETE', button: 'Delete this chat', id: 'delete-chat', fields: sure('delete this chat and its messages') }, page)}</section>`);
  } else if (page.me !== undefined) {
    // Either person may leave a direct chat; it stays for the other (docs/protocol.md §14.1).
    parts.push(`<section aria-labelledby="leave-heading"><h2 id="leave-heading">Leave</h2>${renderForm({
      action: pathOf(page, 'member', { chatId, userId: page.me.id }), method: 'DELETE', button: 'Leave this chat', id: 'leave', inline: true,
    }, page)}</section>`);
  }
  return { heading: chatNameOf(page, chat), main: parts.join('\n') };
}

const LEVEL_LABELS: Record<string, string> = { all: 'Every message', mentions: 'Only mentions of me', none: 'Nothing (muted)' };

/**
 * docs/protocol.md §14.3: the reader's notification level, one small form per level (works without scripts); the level
 * in force is the pressed button.
 */
function renderNotificationControl(page: PageContext, chatId: string, level: string): string {
  const buttons = Object.entries(LEVEL_LABELS).map(([value, label]) => renderForm({
    action: pathOf(page, 'notifications', { chatId }), method: 'PUT', button: label, id: `level-${value}`, inline: true,
    fields: [{ name: 'level', type: 'hidden', value }], buttonAttributes: `aria-pressed="${value === level}"`,
  }, page));
  const form = `<p>Notify me of:</p><p class="levels">${buttons.join(' ')}</p>`;
  return `<section aria-labelledby="notifications-heading"><h2 id="notifications-heading">Notifications</h2>${form}</section>`;
}

/**
 * GET /chats/{id}/members: who is in, the owner marked, with Remove and Make owner (the owner's, docs/html.md) or Leave
 * (self); the owner adds users from a list.
 */
export function renderMembersPage(rep: CollectionRepresentation, page: PageContext): { heading: string; main: string } {
  const chat = page.chat ?? {};
  const chatId = String(chat['id'] ?? '');
  // A direct chat keeps its two people (docs/protocol.md §14.1): nobody adds, removes or hands over there.
  const isOwner = page.me !== undefined && chat['ownerId'] === page.me.id && chat['kind'] !== 'direct';
  const items = rep.data.map((member) => {
    const userId = String(member['userId']);
    const action = pathOf(page, 'member', { chatId, userId });
    let button = '';
    if (userId === chat['ownerId']) button = ' <span class="badge">owner</span>';
    else if (userId === page.me?.id) button = ` ${renderForm({ action, method: 'DELETE', button: 'Leave', id: `leave-${userId}`, inline: true }, page)}`;
    else if (isOwner) {
      const login = page.users[userId]?.login ?? userId;
      button = ` ${renderForm({ action, method: 'DELETE', button: 'Remove', id: `remove-${userId}`, inline: true, buttonAttributes: `aria-label="${escapeHtml(`Remove ${login}`)}"` }, page)}`
        // Hands the chat over (PATCH /chats/{id} {"ownerId"}), back to this list, where the new owner is marked.
        + ` ${renderForm({
          action: pathOf(page, 'chat', { chatId }), method: 'PATCH', button: 'Make owner', id: `owner-${userId}`, inline: true, back: pathOf(page, 'members', { chatId }),
          fields: [{ name: 'ownerId', type: 'hidden', value: userId }], buttonAttributes: `aria-label="${escapeHtml(`Make owner: ${login}`)}"`,
        }, page)}`;
    }
    return `<li>${renderUser(page, userId, 24)}${button}</li>`;
  });
  const parts = [`<p>${anchor(pathOf(page, 'messages', { chatId }), 'Back to the messages')}</p>`, `<ul class="people">${items.join('')}</ul>`];
  if (isOwner) {
    const candidates = (page.candidates ?? []).map((user) => `<li>${renderPerson(page, user, 24)} ${renderForm({
      action: pathOf(page, 'member', { chatId, userId: user.id }), method: 'PUT', button: 'Add', id: `add-${user.id}`, inline: true,
      buttonAttributes: `aria-label="${escapeHtml(`Add ${user.login}`)}"`,
    }, page)}</li>`);
    parts.push(`<section aria-labelledby="add-heading"><h2 id="add-heading">Add a member</h2>${candidates.length === 0
      ? '<p class="none">Everyone is a member already.</p>'
      : `<ul class="people">${candidates.join('')}</ul>`}</section>`);
  }
  return { heading: `Members of ${chatNameOf(page, chat, 'the chat')}`, main: parts.join('\n') };
}
