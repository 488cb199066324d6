// A chat as a person reads it: the newest messages with their authors, replies, reactions and edits, and the forms to write.
import { escapeHtml } from './escape.ts';
import { describeReaction } from './emoji-names.ts';
import { renderForm } from './html-forms.ts';
import { renderAttachments } from './html-attachments.ts';
import { anchor, loginsOf, pathOf, renderTime, renderUser } from './html-parts.ts';
import { chatNameOf, renderTextBlock } from './html-mentions.ts';
import type { PageContext, Resource, SingleRepresentation } from './representation.ts';

/** The reactions offered as buttons (a form cannot put a typed emoji into the path); any other arrives through the API. */
export const REACTION_PALETTE = ['👍', '❤️', '😂', '🎉', '😮', '😢', '👀', '🙏'];
/** How much of a replied-to message the reply quotes. */
const QUOTE_LENGTH = 80;

export function chatIdOf(page: PageContext, message: Resource): string {
  return String(message['chatId'] ?? page.chat?.['id'] ?? '');
}

export function messagePath(page: PageContext, message: Resource): string {
  return pathOf(page, 'message', { chatId: chatIdOf(page, message), messageId: String(message['id']) });
}

/**
 * Where a form about a message returns to (`_back`): this page at that message (`#m-<id>`), without the chat screen's
 * `edit` parameter, so a saved edit closes its form.
 */
export function returnPath(page: PageContext, messageId: string): string {
  const [path, query = ''] = page.self.split('?', 2);
  const params = new URLSearchParams(query);
  params.delete('edit');
  const rest = params.toString();
  return `${path}${rest === '' ? '' : `?${rest}`}#m-${messageId}`;
}

/** A reaction button adds the reader's reaction, or takes it back when it is theirs (aria-pressed says which). */
export function reactionButton(page: PageContext, message: Resource, emoji: string, count: number, userIds: unknown): string {
  const mine = Array.isArray(userIds) && page.me !== undefined && userIds.includes(page.me.id);
  const who = loginsOf(page, userIds);
  return renderForm({
    action: pathOf(page, 'reaction', { chatId: chatIdOf(page, message), messageId: String(message['id']), emoji }),
    method: mine ? 'DELETE' : 'PUT',
    button: count > 0 ? `${emoji} ${count}` : emoji,
    id: `react-${String(message['id'])}`,
    back: returnPath(page, String(message['id'])),
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

/**
 * One message: avatar, author, time (the link to its page), "(edited)", the text as typed, what it answers, its files,
 * reactions. `clock` shows the time: the message page's full date, or the chat screen's time of day; a message that
 * continues its author's group (`opensGroup` false) names its author and time for screen readers only.
 */
export function renderMessage(page: PageContext, message: Resource, shown: ReadonlyMap<string, Resource>, unread: boolean, opensGroup = true, clock = renderTime): string {
  const href = messagePath(page, message);
  const edited = typeof message['editedAt'] === 'string'
    ? ` <a class="edited" rel="revisions" href="${escapeHtml(`${href}/revisions`)}" title="${escapeHtml(String(message['editedAt']))}">(edited)</a>`
    : '';
  const badge = unread ? ' <span class="badge">new</span>' : '';
  const author = opensGroup ? `<strong>${renderUser(page, message['authorId'], 32)}</strong>` : `<span class="sr-only">${escapeHtml(page.users[String(message['authorId'])]?.login ?? '')}</span>`;
  const byline = `<p class="byline">${author} <a class="when" href="${escapeHtml(href)}">${clock(page, message['createdAt'])}</a>${edited}${badge}</p>`;
  // dir="auto": a message in Arabic or Hebrew runs right to left without reordering the page around it.
  // A message of files alone has no text to show.
  const paragraph = message['text'] === '' || message['text'] === undefined ? '' : renderTextBlock(page, message);
  return `${byline}${renderQuote(page, message, shown)}${paragraph}${renderAttachments(message)}${renderReactions(page, message)}`;
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
