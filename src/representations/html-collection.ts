// A collection as an HTML page: the page made for people when there is one, else a summary, a table and the links.
import { PATHS } from '../paths.ts';
import { compilePattern } from '../router/compile-pattern.ts';
import { escapeHtml } from './escape.ts';
import { nameOfEmoji } from './emoji-names.ts';
import { renderMembersPage } from './html-chats.ts';
import { renderChatList, renderMessagesPage } from './html-chat-screen.ts';
import { DISPLAY_FIELDS, labelOf, renderField, renderLinks, renderRaw, renderValue } from './html-fields.ts';
import { renderDeliveryList } from './html-deliveries.ts';
import { renderInviteList } from './html-invites.ts';
import { renderTokenList, renderWebhookList } from './html-integrations.ts';
import { renderPage, type HtmlOptions } from './html-page.ts';
import { anchor, safeHref } from './html-parts.ts';
import { renderAvatarsPage, renderSearchResults, renderUserList } from './html-users.ts';
import { renderSessionsPage } from './html-sessions.ts';
import type { CollectionRepresentation, Resource } from './representation.ts';

// The avatars page finds whose avatars it shows in its own path.
const AVATARS = compilePattern(PATHS.avatars);
const SESSIONS = compilePattern(PATHS.userSessions);

export function renderCollection(rep: CollectionRepresentation, options: HtmlOptions): string {
  const page = rep.page;
  if (page !== undefined) {
    const [selfPath, selfQuery] = page.self.slice(page.basePath.length).split('?', 2);
    const avatarsOf = AVATARS.regex.exec(selfPath!);
    const sessionsOf = SESSIONS.regex.exec(selfPath!);
    const query = new URLSearchParams(selfQuery ?? '').get('q') ?? '';
    // The chat screen keeps the fields as the API has them inside its conversation (docs/html.md).
    const screen = rep.type === 'message' && page.chat !== undefined;
    const shown = screen ? renderMessagesPage(rep, page, liveAttributes(rep.live), renderRaw(renderTable(rep, options)))
      : rep.type === 'chat' ? renderChatList(page)
        : rep.type === 'member' && page.chat ? renderMembersPage(rep, page)
          : rep.type === 'user' ? renderUserList(rep, page)
            : rep.type === 'avatar' && avatarsOf ? renderAvatarsPage(rep, page, decodeURIComponent(avatarsOf[1]!))
              : rep.type === 'user-session' && sessionsOf ? renderSessionsPage(rep, page, decodeURIComponent(sessionsOf[1]!))
                : rep.type === 'result' ? renderSearchResults(rep, page, query)
                  : rep.type === 'invite' ? renderInviteList(rep, page)
                    : rep.type === 'token' ? renderTokenList(rep, page)
                      : rep.type === 'webhook' ? renderWebhookList(rep, page)
                        : rep.type === 'delivery' ? renderDeliveryList(rep, page) : undefined;
    if (shown) {
      // Keyset pages of messages carry their own Older/Newer links; other lists get Previous/Next page.
      const paging = rep.type === 'message' ? '' : renderLinks(rep.links?.filter((link) => link.rel === 'prev' || link.rel === 'next'));
      return renderPage(shown.heading, `${shown.main}${paging}${screen ? '' : renderRaw(renderTable(rep, options))}`, options.basePath, page);
    }
  }
  const summary = summaryOf(rep);
  const items = rep.type === 'message' ? renderMessages(rep.data, options, rep.live) : renderTable(rep, options);
  const links = renderLinks(rep.links);
  return renderPage(`${labelOf(rep.type)} list`, summary + links + items + links, options.basePath, page);
}

/** The data-* attributes the page's script follows the event stream with (docs/protocol.md §9.9); none off the newest page. */
function liveAttributes(live: CollectionRepresentation['live']): string {
  if (live === undefined) return '';
  return ' data-live' + [['chat', live.chatId], ['events', live.events], ['messages', live.messages], ['users', live.users]]
    .map(([name, value]) => ` data-live-${name}="${escapeHtml(value!)}"`).join('');
}

function summaryOf(rep: CollectionRepresentation): string {
  if (!('total' in rep.meta)) {
    return `<p>${rep.data.length} events; the next ones follow event ${escapeHtml(rep.meta.lastEventId)}.</p>`;
  }
  const { total, offset } = rep.meta;
  return rep.data.length === 0
    ? `<p>No items on this page; ${total} in total.</p>`
    : `<p>Items ${offset + 1} to ${offset + rep.data.length} of ${total}.</p>`;
}

/**
 * One row per item, one column per field any item has, in order of first appearance, except that a
 * title or login every item has comes first. The item's link goes on that name and on its id (or
 * its first field when it has none, as a member's userId).
 */
function renderTable(rep: CollectionRepresentation, options: HtmlOptions): string {
  if (rep.data.length === 0) return '';
  const names = DISPLAY_FIELDS.filter((field) => rep.data.every((item) => typeof item[field] === 'string'));
  const columns = [...new Set([...names, ...rep.data.flatMap((item) => Object.keys(item))])];
  const linkedColumns = new Set([columns.includes('id') ? 'id' : columns[0], ...DISPLAY_FIELDS]);
  const head = columns.map((column) => `<th scope="col">${escapeHtml(column)}</th>`).join('');
  const rows = rep.data.map((item) => {
    const cells = columns.map((column) => {
      const value = item[column];
      const href = linkedColumns.has(column) ? safeHref(options.itemHref?.(item)) : undefined;
      const linked = href !== undefined && typeof value === 'string';
      return `<td>${linked ? `<bdi>${anchor(href, value)}</bdi>` : renderField(rep.type, column, value, 1, options.basePath, item)}</td>`;
    });
    return `<tr>${cells.join('')}</tr>`;
  });
  return `<div class="table"><table><thead><tr>${head}</tr></thead><tbody>\n${rows.join('\n')}\n</tbody></table></div>`;
}

/** A chat history reads better as a list than as a table: author, time (the link to the message), then the text as typed. */
function renderMessages(messages: readonly Resource[], options: HtmlOptions, live: CollectionRepresentation['live']): string {
  if (messages.length === 0 && live === undefined) return '';
  const items = messages.map((message) => {
    const { authorId, createdAt, replyTo, text } = message;
    const href = safeHref(options.itemHref?.(message));
    const time = renderField('message', 'createdAt', createdAt, 1, options.basePath);
    const byline = [
      `<strong>${renderField('message', 'authorId', authorId, 1, options.basePath)}</strong>`,
      href === undefined ? time : `<a href="${escapeHtml(href)}">${time}</a>`,
      typeof replyTo === 'string' ? `in reply to ${renderField('message', 'replyTo', replyTo, 1, options.basePath)}` : '',
    ];
    // dir="auto": a message in Arabic or Hebrew runs right to left without reordering the page around it.
    const textHtml = `<p class="text" dir="auto">${renderValue(text, 1, options.basePath)}</p>${renderReactions(message['reactions'], options.basePath)}`;
    // "(edited)" links to the message's revisions (docs/protocol.md §10.3).
    const editedAt = message['editedAt'];
    if (typeof editedAt === 'string') {
      const edited = `(edited ${renderField('message', 'editedAt', editedAt, 1, options.basePath)})`;
      byline.push(href === undefined ? edited : `<a rel="revisions" href="${escapeHtml(`${href}/revisions`)}">${edited}</a>`);
    }
    const id = typeof message['id'] === 'string' ? ` id="message-${escapeHtml(message['id'])}"` : '';
    return `<li${id}><p class="byline">${byline.filter((part) => part !== '').join(' · ')}</p>${textHtml}</li>`;
  });
  return `<ol class="messages"${liveAttributes(live)}>\n${items.join('\n')}\n</ol>`;
}

/** Under a message: each emoji, its count, and who reacted (links to the users), in the message's own order. */
function renderReactions(reactions: unknown, basePath: string): string {
  if (!Array.isArray(reactions) || reactions.length === 0) return '';
  const items = reactions.map((reaction: Resource) => {
    const users = renderField('message', 'members', reaction['userIds'], 1, basePath);
    const emoji = String(reaction['emoji']);
    return `<li><span class="emoji" role="img" aria-label="${escapeHtml(nameOfEmoji(emoji))}">${escapeHtml(emoji)}</span> ${escapeHtml(String(reaction['count']))} ${users}</li>`;
  });
  return `<ul class="reactions" aria-label="Reactions">${items.join('')}</ul>`;
}
