// The chat screen's sidebar (docs/html.md, "The chat screen"): the reader's group chats and direct messages, each in
// last-activity order, with unread and mention badges and, for a direct chat, the other person's presence.
import { escapeHtml } from './escape.ts';
import { chatNameOf, otherPersonOf } from './html-mentions.ts';
import { pathOf, renderPresence, renderTime, renderUserAvatar } from './html-parts.ts';
import type { PageContext, Resource } from './representation.ts';

/** One chat: its name (a link to its newest messages), the badges, and when it was last active. */
function renderEntry(page: PageContext, chat: Resource, current: string | undefined): string {
  const chatId = String(chat['id']);
  const unread = Number(chat['unreadCount'] ?? 0);
  const mentions = Number(chat['mentionCount'] ?? 0);
  const other = otherPersonOf(page, chat);
  const person = other === undefined ? undefined : page.users[other];
  const face = person === undefined ? '' : `${renderUserAvatar(person, 24)}${renderPresence(person)}`;
  const badges = (unread > 0 ? ` <span class="badge">${unread} unread</span>` : '')
    + (mentions > 0 ? ` <span class="badge mention">${mentions} ${mentions === 1 ? 'mention' : 'mentions'}</span>` : '');
  const here = chatId === current ? ' aria-current="page"' : '';
  const link = `<a class="title" href="${escapeHtml(pathOf(page, 'messages', { chatId }))}"${here} dir="auto"><bdi>${escapeHtml(chatNameOf(page, chat))}</bdi></a>`;
  return `<li data-chat-id="${escapeHtml(chatId)}"${unread > 0 ? ' class="has-unread"' : ''}>${face}${link}${badges}<span class="activity">${renderTime(page, chat['lastActivityAt'])}</span></li>`;
}

function renderGroup(page: PageContext, chats: readonly Resource[], current: string | undefined, id: string, title: string): string {
  if (chats.length === 0) return '';
  return `<section aria-labelledby="${id}"><h2 id="${id}">${title}</h2><ul class="chats">${chats.map((chat) => renderEntry(page, chat, current)).join('')}</ul></section>`;
}

/**
 * The sidebar, `data-live-sidebar` naming the page the page script refetches it from (GET /chats), each entry
 * `data-chat-id`; `current` is the chat the screen shows. Empty when the page has no sidebar.
 */
export function renderSidebar(page: PageContext, current?: string): string {
  const chats = page.sidebar;
  if (chats === undefined) return '';
  const groups = chats.filter((chat) => chat['kind'] !== 'direct');
  const direct = chats.filter((chat) => chat['kind'] === 'direct');
  const none = chats.length === 0 ? '<p class="none">No chats yet.</p>' : '';
  return `<nav class="sidebar" aria-label="Your chats" data-live-sidebar="${escapeHtml(pathOf(page, 'chats'))}">${none}`
    + `${renderGroup(page, groups, current, 'sidebar-groups', 'Chats')}${renderGroup(page, direct, current, 'sidebar-direct', 'Direct messages')}`
    + `<p class="new-chat-link"><a href="${escapeHtml(`${pathOf(page, 'chats')}#new-chat-heading`)}">New chat</a></p></nav>`;
}
