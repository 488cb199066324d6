// The chat screen's message list (docs/html.md, "The chat screen"): messages grouped by author and minute, a day
// separator where the day changes, a "New messages" line at the reader's read marker, each message's actions menu.
import { escapeHtml } from './escape.ts';
import { renderMessageMenu } from './html-message-menu.ts';
import { renderMessage } from './html-messages.ts';
import type { PageContext, Resource } from './representation.ts';

/** The messages a page shows, with what each one's group and separators need to know. */
interface Placed {
  message: Resource;
  /** First of its author's run within one minute: shows avatar, login and time. */
  opensGroup: boolean;
  /** Its day (UTC) differs from the message before it on the page, or it is the first. */
  opensDay: boolean;
  /** The first message after the reader's marker that someone else wrote: the "New messages" line goes above it. */
  firstNew: boolean;
  unread: boolean;
}

// One formatter per locale and style (Intl formatters are costly to build).
const FORMATTERS = new Map<string, Intl.DateTimeFormat>();

function formatterOf(locale: string, style: 'day' | 'time'): Intl.DateTimeFormat {
  const key = `${style} ${locale}`;
  let formatter = FORMATTERS.get(key);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat(locale, style === 'day' ? { dateStyle: 'full', timeZone: 'UTC' } : { timeStyle: 'short', timeZone: 'UTC' });
    if (FORMATTERS.size < 128) FORMATTERS.set(key, formatter);
  }
  return formatter;
}

/** "09:30" (or the reader's own way, at UTC) in a <time> the page script shows in the reader's time zone. */
export function renderClock(page: PageContext, iso: unknown): string {
  if (typeof iso !== 'string' || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(iso)) return '';
  const shown = page.locale === undefined ? iso.slice(11, 16) : formatterOf(page.locale, 'time').format(new Date(iso));
  return `<time datetime="${escapeHtml(iso)}" data-format="time">${escapeHtml(shown)}</time>`;
}

function renderDay(page: PageContext, iso: string): string {
  const day = iso.slice(0, 10);
  const shown = formatterOf(page.locale ?? 'en-GB', 'day').format(new Date(`${day}T00:00:00Z`));
  return `<li class="day"><time datetime="${escapeHtml(day)}" data-format="day">${escapeHtml(shown)}</time></li>`;
}

/** Messages after the reader's marker that others wrote: the ones unreadCount counts (docs/protocol.md §10.1). */
function isUnread(page: PageContext, message: Resource): boolean {
  const lastReadId = page.chat?.['lastReadId'];
  if (message['authorId'] === page.me?.id) return false;
  return typeof lastReadId !== 'string' || String(message['id']) > lastReadId;
}

/** Where groups, days and the "New messages" line fall on this page. */
function placeMessages(page: PageContext, messages: readonly Resource[]): Placed[] {
  let seenNew = false;
  return messages.map((message, index) => {
    const previous = messages[index - 1];
    const created = String(message['createdAt'] ?? '');
    const before = String(previous?.['createdAt'] ?? '');
    const unread = isUnread(page, message);
    const firstNew = unread && !seenNew;
    if (unread) seenNew = true;
    const opensDay = previous === undefined || created.slice(0, 10) !== before.slice(0, 10);
    const opensGroup = opensDay || firstNew || previous['authorId'] !== message['authorId'] || created.slice(0, 16) !== before.slice(0, 16);
    return { message, opensGroup, opensDay, firstNew, unread };
  });
}

/**
 * The <li>s of the list: each message `id="m-<id>"` with `data-message-id` (the names the page script relies on),
 * preceded where needed by its day and the "New messages" line. `before` is the id of the message before the first
 * shown ('' when the page starts at the chat's first message, undefined when unknown): Mark unread from here needs it.
 */
export function renderMessageItems(page: PageContext, messages: readonly Resource[], shown: ReadonlyMap<string, Resource>, before: string | undefined): string[] {
  const items: string[] = [];
  for (const [index, placed] of placeMessages(page, messages).entries()) {
    const { message } = placed;
    const id = escapeHtml(String(message['id']));
    if (placed.opensDay) items.push(renderDay(page, String(message['createdAt'] ?? '')));
    if (placed.firstNew) items.push('<li class="new-line" id="new-messages"><span>New messages</span></li>');
    const previous = index === 0 ? before : String(messages[index - 1]!['id']);
    const classes = ['message', placed.opensGroup ? 'first' : 'more', ...(placed.unread ? ['unread'] : [])].join(' ');
    const body = renderMessage(page, message, shown, false, placed.opensGroup, renderClock);
    items.push(`<li id="m-${id}" data-message-id="${id}" class="${classes}">${body}${renderMessageMenu(page, message, previous)}</li>`);
  }
  return items;
}
