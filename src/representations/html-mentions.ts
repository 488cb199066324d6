// Direct chats and mentions in HTML (docs/html.md): a chat's name (its title, or the other person's login), and a
// message's text with its mentions highlighted, the reader's own strongly.
import { findMentionSpans, MENTION_ALL } from '../parsers/mentions.ts';
import { escapeHtml } from './escape.ts';
import { renderMarkdown } from './markdown.ts';
import type { PageContext, Resource } from './representation.ts';

/** The other person of a direct chat (the reader themself in a chat with oneself), or undefined for a group. */
export function otherPersonOf(page: PageContext, chat: Resource): string | undefined {
  if (chat['kind'] !== 'direct') return undefined;
  const members = Array.isArray(chat['members']) ? chat['members'].map(String) : [];
  return members.find((id) => id !== page.me?.id) ?? page.me?.id ?? members[0];
}

/** What a chat is called on a page: its title, or for a direct chat the other person's login ("you" alone: your own). */
export function chatNameOf(page: PageContext, chat: Resource | undefined, fallback = 'Chat'): string {
  if (chat === undefined) return fallback;
  if (typeof chat['title'] === 'string') return chat['title'];
  const other = otherPersonOf(page, chat);
  if (other === undefined) return fallback;
  const login = page.users[other]?.login ?? other;
  return other === page.me?.id ? `${login} (you)` : login;
}

/**
 * A message's text as a person reads it (docs/html.md, Message text): the safe Markdown subset (markdown.ts), each
 * `@login` of a mentioned member (and `@all`) in <mark class="mention">, a mention of the reader (or `@all`, which
 * names them too) as <mark class="mention mine"><strong>. Only the message's own `mentions` count: an `@word` that
 * named nobody when it was posted stays plain text, and so does one in code or in a link. One paragraph comes as
 * `<p class="text">`, anything more as `<div class="text">` of blocks; dir="auto" lets a message in Arabic or
 * Hebrew run right to left without reordering the page around it.
 */
export function renderTextBlock(page: PageContext, message: Resource): string {
  const text = String(message['text'] ?? '');
  const mentioned = Array.isArray(message['mentions']) ? message['mentions'].map(String) : [];
  const loginsOf = new Map(mentioned.map((id) => [page.users[id]?.login ?? '', id]));
  const mine = page.me !== undefined && mentioned.includes(page.me.id);
  const renderPlain = (plain: string): string => {
    let html = '';
    let at = 0;
    for (const span of findMentionSpans(plain, new Set(loginsOf.keys()))) {
      const word = escapeHtml(plain.slice(span.start, span.start + span.length));
      const forMe = mine && (span.login === MENTION_ALL || loginsOf.get(span.login) === page.me?.id);
      html += escapeHtml(plain.slice(at, span.start)) + (forMe ? `<mark class="mention mine"><strong>${word}</strong></mark>` : `<mark class="mention">${word}</mark>`);
      at = span.start + span.length;
    }
    return html + escapeHtml(plain.slice(at));
  };
  const rendered = renderMarkdown(text, mentioned.length === 0 ? escapeHtml : renderPlain);
  return rendered.inline ? `<p class="text" dir="auto">${rendered.html}</p>` : `<div class="text" dir="auto">${rendered.html}</div>`;
}
