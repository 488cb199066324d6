// A chat as a person reads it: the newest messages with their authors, replies, reactions and edits, and the forms to write.
import { escapeHtml } from './escape.ts';
import { describeReaction } from './emoji-names.ts';
import { renderForm } from './html-forms.ts';
import { renderAttachments } from './html-attachments.ts';
import { anchor, loginsOf, pathOf, renderTime, renderUser, safeHref } from './html-parts.ts';
import { chatNameOf, renderTextBlock } from './html-mentions.ts';
import type { CollectionRepresentation, Link, PageContext, Resource, SingleRepresentation } from './representation.ts';

/** The reactions offered as buttons (a form cannot put a typed emoji into the path); any other arrives through the API. */
export const REACTION_PALETTE = ['👍', '❤️', '😂', '🎉', '😮', '😢', '👀', '🙏'];
/** How much of a replied-to message the reply quotes. */
const QUOTE_LENGTH = 80;

function chatIdOf(page: PageContext, message: Resource): string {
  return String(message['chatId'] ?? page.chat?.['id'] ?? '');
}

function messagePath(page: PageContext, message: Resource): string {
  return pathOf(page, 'message', { chatId: chatIdOf(page, message), messageId: String(message['id']) });
}

/** A reaction button adds the reader's reaction, or takes it back when it is theirs (aria-pressed says which). */
function reactionButton(page: PageContext, message: Resource, emoji: string, count: number, userIds: unknown): string {
  const mine = Array.isArray(userIds) && page.me !== undefined && userIds.includes(page.me.id);
  const who = loginsOf(page, userIds);
  return renderForm({
    action: pathOf(page, 'reaction', { chatId: chatIdOf(page, message), messageId: String(message['id']), emoji }),
    method: mine ? 'DELETE' : 'PUT',
    button: count > 0 ? `${emoji} ${count}` : emoji,
    id: `react-${String(message['id'])}`,
    back: page.self,
    inline: true,
    // The label names the emoji in words (emoji-names.ts); who reacted is the title, shown on hover.
    buttonAttributes: `aria-pressed="${mine}"${who ? ` title="${escapeHtml(who)}"` : ''} aria-label="${escapeHtml(describeReaction(emoji, count, mine))}"`,
  }, page);
}

function renderReactions(page: PageContext, message: Resource): string {
  const reactions = Array.isArray(message['reactions']) ? (message['reactions'] as Resource[]) : [];
  if (reactions.length === 0) return '';
  const items = reactions.map((reaction) => `<li>${reactionButton(page, message, String(reaction['emoji']), Number(reaction['count']), reaction['userIds'])}</li>`);
  return `<ul class="reactions" aria-label="Reactions">${items.join('')}</ul>`;
}

/** "In reply to alice: the first words…", linked to the message answered (or just its id when it is gone or unknown). */
function renderQuote(page: PageContext, message: Resource, shown: ReadonlyMap<string, Resource>): string {
  const target = message['replyTo'];
  if (typeof target !== 'string') return '';
  const answered = shown.get(target) ?? page.replied[target];
  const href = pathOf(page, 'message', { chatId: chatIdOf(page, message), messageId: target });
  if (answered === undefined) return `<p class="quote">In reply to ${anchor(href, 'an earlier message')}</p>`;
  const text = [...String(answered['text'])];
  const quoted = text.length > QUOTE_LENGTH ? `${text.slice(0, QUOTE_LENGTH).join('')}…` : text.join('');
  return `<p class="quote">In reply to ${renderUser(page, answered['authorId'])}: <a href="${escapeHtml(href)}" dir="auto">${escapeHtml(quoted)}</a></p>`;
}

/** One message: avatar, author, time (the link to its page), "(edited)", the text as typed, what it answers, its files, reactions. */
export function renderMessage(page: PageContext, message: Resource, shown: ReadonlyMap<string, Resource>, unread: boolean): string {
  const href = messagePath(page, message);
  const edited = typeof message['editedAt'] === 'string'
    ? ` <a class="edited" rel="revisions" href="${escapeHtml(`${href}/revisions`)}" title="${escapeHtml(String(message['editedAt']))}">(edited)</a>`
    : '';
  const badge = unread ? ' <span class="badge">new</span>' : '';
  const byline = `<p class="byline"><strong>${renderUser(page, message['authorId'], 32)}</strong> <a href="${escapeHtml(href)}">${renderTime(page, message['createdAt'])}</a>${edited}${badge}</p>`;
  // A message of files alone has no text to show.
  const paragraph = message['text'] === '' || message['text'] === undefined ? '' : renderTextBlock(page, message);
  return `${byline}${renderQuote(page, message, shown)}${paragraph}${renderAttachments(message)}${renderReactions(page, message)}`;
}

/** Messages after the reader's marker that others wrote: the ones unreadCount counts (docs/protocol.md §10.1). */
function isUnread(page: PageContext, message: Resource): boolean {
  const lastReadId = page.chat?.['lastReadId'];
  if (message['authorId'] === page.me?.id) return false;
  return typeof lastReadId !== 'string' || String(message['id']) > lastReadId;
}

function pageLink(links: readonly Link[] | undefined, rel: string, text: string): string {
  const href = safeHref(links?.find((link) => link.rel === rel)?.href);
  return href === undefined ? '' : `<p class="paging"><a rel="${rel}" href="${escapeHtml(href)}">${text}</a></p>`;
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

/** GET /chats/{id}/messages: older-messages link, the list (live on the newest page), newer link, then the composer. */
export function renderMessagesPage(rep: CollectionRepresentation, page: PageContext, liveAttributes: string): { heading: string; main: string } {
  const chat = page.chat ?? {};
  const chatId = String(chat['id'] ?? '');
  const shown = new Map(rep.data.map((message) => [String(message['id']), message]));
  const items = rep.data.map((message, index) => {
    const previous = rep.data[index - 1];
    const hasPrev = rep.links?.some((link) => link.rel === 'prev') ?? false;
    // Marking unread from a message moves the marker to the one before it; before the chat's first message: no marker.
    const before = previous !== undefined ? String(previous['id']) : hasPrev ? undefined : '';
    const markUnread = before === undefined ? '' : renderForm({
      action: pathOf(page, 'read', { chatId }), method: 'PUT', button: 'Mark unread from here', id: `unread-${String(message['id'])}`,
      fields: [{ name: 'lastReadId', type: 'hidden', value: before }], back: page.self, inline: true,
    }, page);
    // A <div>, not a <p>: a <form> inside a <p> would close the paragraph (HTML §13.2.6.4.7).
    const actions = `<div class="actions"><a href="${escapeHtml(messagePath(page, message))}">Reply, react or edit</a> ${markUnread}</div>`;
    const unread = isUnread(page, message);
    return `<li id="message-${escapeHtml(String(message['id']))}"${unread ? ' class="unread"' : ''}>${renderMessage(page, message, shown, unread)}${actions}</li>`;
  });
  const unreadCount = Number(chat['unreadCount'] ?? 0);
  const newest = rep.data.at(-1);
  const markRead = unreadCount > 0 && newest !== undefined && rep.live !== undefined ? ` ${renderForm({
    action: pathOf(page, 'read', { chatId }), method: 'PUT', button: 'Mark all as read', id: 'read-all',
    fields: [{ name: 'lastReadId', type: 'hidden', value: String(newest['id']) }], back: page.self, inline: true,
  }, page)}` : '';
  const members = Array.isArray(chat['members']) ? chat['members'].length : 0;
  const summary = `<div class="chat-nav">${anchor(pathOf(page, 'chat', { chatId }), 'About this chat')} · ` +
    `${anchor(pathOf(page, 'members', { chatId }), `Members (${members})`)} · <span>${unreadCount} unread</span>${markRead}</div>`;
  const list = items.length === 0 ? '<p class="none">No messages yet.</p>' : '';
  // Multipart, so files go with the text (docs/protocol.md §15.2); the text may stay empty when files are chosen.
  const composer = renderForm({
    action: pathOf(page, 'messages', { chatId }), method: 'POST', button: 'Send', id: 'compose', multipart: true,
    fields: [
      { name: 'text', label: 'Message', type: 'textarea', attributes: 'maxlength="4000" rows="3"' },
      { name: 'file', label: 'Files (images show in the chat)', type: 'file', attributes: 'multiple' },
    ],
  }, page);
  const main = `${summary}${pageLink(rep.links, 'prev', 'Older messages')}${list}` +
    `<ol class="messages"${liveAttributes}>\n${items.join('\n')}\n</ol>${renderTyping(page, chatId)}${pageLink(rep.links, 'next', 'Newer messages')}` +
    `<section aria-labelledby="compose-heading"><h2 id="compose-heading">Write</h2>${composer}</section>`;
  return { heading: chatNameOf(page, chat, 'Messages'), main };
}

/** GET /chats/{id}/messages/{id}: the message, then reply, react, edit and delete as the reader may. */
export function renderMessagePage(rep: SingleRepresentation, page: PageContext): { heading: string; main: string } {
  const message = rep.data;
  const chatId = chatIdOf(page, message);
  const messageId = String(message['id']);
  const self = messagePath(page, message);
  const isAuthor = page.me !== undefined && message['authorId'] === page.me.id;
  const isOwner = page.me !== undefined && page.chat?.['ownerId'] === page.me.id;
  const sections: string[] = [`<article class="message">${renderMessage(page, message, new Map(), false)}</article>`];
  sections.push(`<p>${anchor(pathOf(page, 'messages', { chatId }), `Back to ${chatNameOf(page, page.chat, 'the chat')}`)}</p>`);
  sections.push(`<section aria-labelledby="reply-heading"><h2 id="reply-heading">Reply</h2>${renderForm({
    action: pathOf(page, 'messages', { chatId }), method: 'POST', button: 'Send reply', id: 'reply',
    fields: [{ name: 'replyTo', type: 'hidden', value: messageId }, { name: 'text', label: 'Your reply', type: 'textarea', attributes: 'required maxlength="4000" rows="3"' }],
    back: self,
  }, page)}</section>`);
  const reactions = new Map((Array.isArray(message['reactions']) ? (message['reactions'] as Resource[]) : []).map((reaction) => [String(reaction['emoji']), reaction]));
  const palette = REACTION_PALETTE.map((emoji) => `<li>${reactionButton(page, message, emoji, Number(reactions.get(emoji)?.['count'] ?? 0), reactions.get(emoji)?.['userIds'])}</li>`);
  sections.push(`<section aria-labelledby="react-heading"><h2 id="react-heading">React</h2><ul class="reactions palette">${palette.join('')}</ul></section>`);
  if (isAuthor) {
    sections.push(`<section aria-labelledby="edit-heading"><h2 id="edit-heading">Edit</h2>${renderForm({
      action: self, method: 'PATCH', button: 'Save', id: 'edit', back: self,
      fields: [{ name: 'text', label: 'Text', type: 'textarea', value: String(message['text'] ?? ''), attributes: 'required maxlength="4000" rows="4"' }],
    }, page)}</section>`);
  }
  // An admin moderates any message (docs/protocol.md §4.7).
  if (isAuthor || isOwner || page.me?.admin === true) {
    sections.push(`<section aria-labelledby="delete-heading"><h2 id="delete-heading">Delete</h2>${renderForm({
      action: self, method: 'DELETE', button: 'Delete this message', id: 'delete', inline: true,
    }, page)}</section>`);
  }
  const author = page.users[String(message['authorId'])]?.login ?? String(message['authorId']);
  return { heading: `Message from ${author}`, main: sections.join('\n') };
}
