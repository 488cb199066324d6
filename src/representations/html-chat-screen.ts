// The chat screen (docs/html.md, "The chat screen"): the conversation, opening at its newest message with the composer
// at the bottom of the viewport, beside the sidebar of the reader's chats; and /chats, the sidebar with an empty state.
import { escapeHtml } from './escape.ts';
import { renderForm } from './html-forms.ts';
import { chatNameOf } from './html-mentions.ts';
import { renderClock, renderMessageItems } from './html-message-list.ts';
import { anchor, pathOf, renderUser, safeHref } from './html-parts.ts';
import { renderSidebar } from './html-sidebar.ts';
import type { CollectionRepresentation, Link, PageContext, Resource } from './representation.ts';

/** How much of a replied-to message the quote above the composer shows. */
const QUOTE_LENGTH = 80;

function pageLink(links: readonly Link[] | undefined, rel: string, text: string): string {
  const href = safeHref(links?.find((link) => link.rel === rel)?.href);
  return href === undefined ? '' : `<p class="paging"><a rel="${rel}" href="${escapeHtml(href)}">${text}</a></p>`;
}

/** The id a chat screen parameter names in this page's own query (checked by the page context to be an id). */
function screenParameter(page: PageContext, name: 'reply' | 'edit'): string | undefined {
  const query = page.self.split('?', 2)[1];
  return query === undefined ? undefined : new URLSearchParams(query).get(name) ?? undefined;
}

/**
 * "alice is typing…" (docs/html.md): empty when the page is made; the page's script fills it from typing events, with
 * the members' logins it carries here, and tells the server as the reader types (POST to data-typing). Polite: a
 * screen reader says it when it is done speaking.
 */
function renderTyping(page: PageContext, chatId: string): string {
  const members = Array.isArray(page.chat?.['members']) ? (page.chat['members'] as unknown[]).map(String) : [];
  const logins = Object.fromEntries(members.filter((id) => page.users[id] !== undefined).map((id) => [id, page.users[id]!.login]));
  return `<p class="typing" aria-live="polite" data-typing="${escapeHtml(pathOf(page, 'typing', { chatId }))}" data-logins="${escapeHtml(JSON.stringify(logins))}"></p>`;
}

/** The line above the conversation: back to the chats (phones), the chat's settings and members, the unread count. */
function renderChatNav(rep: CollectionRepresentation, page: PageContext, chatId: string): string {
  const chat = page.chat ?? {};
  const unreadCount = Number(chat['unreadCount'] ?? 0);
  const newest = rep.data.at(-1);
  const markRead = unreadCount > 0 && newest !== undefined && rep.live !== undefined ? ` ${renderForm({
    action: pathOf(page, 'read', { chatId }), method: 'PUT', button: 'Mark all as read', id: 'read-all',
    fields: [{ name: 'lastReadId', type: 'hidden', value: String(newest['id']) }], back: page.self, inline: true,
  }, page)}` : '';
  const members = Array.isArray(chat['members']) ? chat['members'].length : 0;
  return `<div class="chat-nav">${anchor(pathOf(page, 'chats'), 'All chats', ' class="back"')}${anchor(pathOf(page, 'chat', { chatId }), 'About this chat')} · `
    + `${anchor(pathOf(page, 'members', { chatId }), `Members (${members})`)} · <span>${unreadCount} unread</span>${markRead}</div>`;
}

/** The message a reply being written answers, quoted above the composer, with a way back to a plain message. */
function renderReplying(page: PageContext, shown: ReadonlyMap<string, Resource>, replyTo: string, chatId: string): string {
  const answered = shown.get(replyTo) ?? page.replied[replyTo];
  if (answered === undefined) return '';
  const text = [...String(answered['text'] ?? '')];
  const quoted = text.length > QUOTE_LENGTH ? `${text.slice(0, QUOTE_LENGTH).join('')}…` : text.join('');
  return `<div class="replying"><p class="quote">Replying to ${renderUser(page, answered['authorId'])} (${renderClock(page, answered['createdAt'])}): `
    + `<a href="#m-${escapeHtml(replyTo)}" dir="auto">${escapeHtml(quoted)}</a></p>${anchor(pathOf(page, 'messages', { chatId }), 'Cancel reply')}</div>`;
}

/** The composer: multipart, so files go with the text (docs/protocol.md §15.2); a reply carries its replyTo. */
function renderComposer(page: PageContext, shown: ReadonlyMap<string, Resource>, chatId: string): string {
  const replyTo = screenParameter(page, 'reply');
  const replying = replyTo === undefined ? '' : renderReplying(page, shown, replyTo, chatId);
  const composer = renderForm({
    action: pathOf(page, 'messages', { chatId }), method: 'POST', button: 'Send', id: 'compose', multipart: true,
    fields: [
      ...(replying === '' ? [] : [{ name: 'replyTo', type: 'hidden' as const, value: replyTo }]),
      { name: 'text', label: 'Message', type: 'textarea', attributes: `maxlength="4000" rows="2" placeholder="Write a message"${replying === '' ? '' : ' autofocus'}` },
      { name: 'file', label: 'Files', type: 'file', attributes: 'multiple' },
    ],
  }, page);
  return `<section class="composer" aria-labelledby="compose-heading"><h2 id="compose-heading" class="sr-only">Write</h2>${replying}${composer}</section>`;
}

/** The edit form of `?edit=<id>`, shown in place of its message's text (the reader's own messages only). */
function renderEditForm(page: PageContext, message: Resource, chatId: string): string {
  const messageId = String(message['id']);
  const form = renderForm({
    action: pathOf(page, 'message', { chatId, messageId }), method: 'PATCH', button: 'Save', id: 'edit',
    back: `${pathOf(page, 'messages', { chatId })}#m-${messageId}`,
    fields: [{ name: 'text', label: 'Edit the message', type: 'textarea', value: String(message['text'] ?? ''), attributes: 'required maxlength="4000" rows="3" autofocus' }],
  }, page);
  return `<div class="editing">${form}${anchor(`${pathOf(page, 'messages', { chatId })}#m-${messageId}`, 'Cancel')}</div>`;
}

/**
 * GET /chats/{id}/messages as the chat screen: the conversation (older-messages link, the list, live on the newest
 * page, the typing line, the composer) and the sidebar. `raw` is the page's fields as the API has them.
 */
export function renderMessagesPage(rep: CollectionRepresentation, page: PageContext, liveAttributes: string, raw = ''): { heading: string; main: string } {
  const chatId = String(page.chat?.['id'] ?? '');
  const shown = new Map(rep.data.map((message) => [String(message['id']), message]));
  const hasPrev = rep.links?.some((link) => link.rel === 'prev') ?? false;
  const items = renderMessageItems(page, rep.data, shown, hasPrev ? undefined : '');
  const editing = screenParameter(page, 'edit');
  const edited = editing === undefined ? undefined : shown.get(editing);
  const mine = edited !== undefined && edited['authorId'] === page.me?.id;
  if (mine) {
    const at = items.findIndex((item) => item.startsWith(`<li id="m-${escapeHtml(editing!)}"`));
    if (at >= 0) items[at] = items[at]!.replace(/ class="message /, ' class="message editing-now ').replace(/<details class="menu">/, `${renderEditForm(page, edited, chatId)}<details class="menu">`);
  }
  const none = items.length === 0 ? '<p class="none">No messages yet: write the first one below.</p>' : '';
  const history = `<div class="history">${raw}${pageLink(rep.links, 'prev', 'Older messages')}${none}`
    + `<ol class="messages"${liveAttributes}>\n${items.join('\n')}\n</ol>${pageLink(rep.links, 'next', 'Newer messages')}</div>`;
  const conversation = `<div class="conversation">${renderChatNav(rep, page, chatId)}`
    + `<div class="scroller" tabindex="0" role="region" aria-label="Messages">${history}</div>`
    + `${renderTyping(page, chatId)}${renderComposer(page, shown, chatId)}</div>`;
  return { heading: chatNameOf(page, page.chat, 'Messages'), main: `${conversation}${renderSidebar(page, chatId)}` };
}

/** GET /chats as the chat screen without a chat: the sidebar (on a phone, the whole screen) and a form for a new chat. */
export function renderChatList(page: PageContext): { heading: string; main: string } {
  const create = renderForm({
    action: pathOf(page, 'chats'), method: 'POST', button: 'Create chat', id: 'new-chat',
    fields: [{ name: 'title', label: 'Title', type: 'text', attributes: 'required maxlength="200"' }],
  }, page);
  const empty = '<p class="none choose">Choose a chat, or start one.</p>';
  const main = `<div class="conversation empty">${empty}<section aria-labelledby="new-chat-heading"><h2 id="new-chat-heading">New chat</h2>${create}</section></div>`;
  return { heading: 'Your chats', main: `${main}${renderSidebar(page)}` };
}
