// A resource as the API has it, in HTML: its fields and values, ids that link to other resources, times, and its links.
import { PATHS } from '../paths.ts';
import { buildPath } from '../router/compile-pattern.ts';
import { escapeHtml } from './escape.ts';
import { renderAvatarImage } from './html-avatar.ts';
import { anchor, safeHref } from './html-parts.ts';
import type { Link, Resource } from './representation.ts';

// Deeper values are cut off, which also ends any reference cycle.
const MAX_DEPTH = 8;
// Maps, not object literals: a rel or field named "toString" must not find Object.prototype.
const LINK_LABELS = new Map([['next', 'Next page'], ['prev', 'Previous page'], ['collection', 'Back to the list']]);
// Previous before next, as a reader expects them on a line; other links keep their order after these.
const LINK_ORDER = new Map([['prev', 0], ['next', 1]]);
// Fields that hold the id of another resource link to its page (ids in an array: each entry): the page's
// route pattern and the parameter the id fills.
const REFERENCE_PATTERNS = new Map<string, readonly [pattern: string, param: string]>([
  ['userId', [PATHS.user, 'userId']],
  ['ownerId', [PATHS.user, 'userId']],
  ['authorId', [PATHS.user, 'userId']],
  ['createdBy', [PATHS.user, 'userId']],
  ['members', [PATHS.user, 'userId']],
  ['chatId', [PATHS.chat, 'chatId']],
  ['replyTo', [PATHS.topMessage, 'messageId']],
]);
// What names a resource better than its id: in a heading, and as a second link to it in a list.
export const DISPLAY_FIELDS = ['title', 'login'];
// The timestamps of docs/protocol.md §1.3, shown as "2026-11-21 09:30:00 UTC"; the exact value stays in datetime.
const ISO_TIME = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(?:\.\d+)?Z$/;

export function renderFields(type: string, data: object, depth: number, basePath: string): string {
  const rows = Object.entries(data).map(
    ([key, value]) => `<dt>${escapeHtml(key)}</dt><dd>${renderField(type, key, value, depth + 1, basePath, data as Resource)}</dd>`,
  );
  return rows.length === 0 ? '<p class="none">No fields.</p>' : `<dl>\n${rows.join('\n')}\n</dl>`;
}

/** Every field as the API has it (ids, exact times), folded away under the page made for people: the resource itself. */
export function renderRaw(fields: string): string {
  return fields === '' ? '' : `<details class="fields"><summary>All fields, as the API has them</summary>${fields}</details>`;
}

/** A field's value, with the few fields that are links, references or times marked up as such; `item` holds it. */
export function renderField(type: string, key: string, value: unknown, depth: number, basePath: string, item?: Resource): string {
  const reference = REFERENCE_PATTERNS.get(key);
  if (reference !== undefined && depth <= 1) {
    const [pattern, param] = reference;
    if (typeof value === 'string') return anchor(basePath + buildPath(pattern, { [param]: value }), value);
    if (Array.isArray(value) && value.length > 0 && value.every((entry) => typeof entry === 'string')) {
      const anchors = value.map((entry: string) => `<li>${anchor(basePath + buildPath(pattern, { [param]: entry }), entry)}</li>`);
      return `<ul>${anchors.join('')}</ul>`;
    }
  }
  if (typeof value !== 'string') return renderValue(value, depth, basePath);
  const href = key === 'href' || (type === 'avatar' && key === 'avatar') ? safeHref(value) : undefined;
  if (href !== undefined && key === 'avatar') {
    return `${renderAvatarImage(href, item ?? {})} ${anchor(href, value)}`;
  }
  if (href !== undefined) return anchor(href, value);
  if (key.endsWith('At')) {
    const parts = ISO_TIME.exec(value);
    // Date and clock each stay on one line; a narrow column may put them on two.
    const shown = parts === null ? escapeHtml(value) : `<span>${parts[1]}</span> <span>${parts[2]} UTC</span>`;
    return `<time datetime="${escapeHtml(value)}">${shown}</time>`;
  }
  // <bdi>: a user's string (a title with U+202E, say) keeps its direction to itself (Unicode UAX #9, HTML §4.5.23).
  return `<bdi>${escapeHtml(value)}</bdi>`;
}

export function renderValue(value: unknown, depth: number, basePath: string): string {
  if (value === null || value === undefined) return '<span class="none">none</span>';
  if (value instanceof Date) return escapeHtml(value.toISOString());
  if (typeof value !== 'object') return escapeHtml(String(value));
  if (depth > MAX_DEPTH) return '<span class="none">…</span>';
  if (!Array.isArray(value)) return renderFields('', value, depth, basePath);
  if (value.length === 0) return '<span class="none">empty</span>';
  return `<ul>${value.map((entry: unknown) => `<li>${renderValue(entry, depth + 1, basePath)}</li>`).join('')}</ul>`;
}

/** rep.links as a list; a link whose href is not a same-origin path is left out, not shown as text. */
export function renderLinks(links: readonly Link[] | undefined): string {
  const ordered = [...(links ?? [])].sort((a, b) => (LINK_ORDER.get(a.rel) ?? 2) - (LINK_ORDER.get(b.rel) ?? 2));
  const items = ordered.flatMap((link) => {
    const href = safeHref(link.href);
    if (href === undefined) return [];
    const label = LINK_LABELS.get(link.rel) ?? link.title ?? labelOf(link.rel);
    return [`<li><a rel="${escapeHtml(link.rel)}" href="${escapeHtml(href)}">${escapeHtml(label)}</a></li>`];
  });
  return items.length === 0 ? '' : `<ul class="related">${items.join('')}</ul>\n`;
}

/** The title of a chat or the login of a user, else the id, else nothing. */
export function displayNameOf(data: Resource): string {
  const name = [...DISPLAY_FIELDS, 'id'].map((field) => data[field]).find((value) => typeof value === 'string' && value !== '');
  return typeof name === 'string' ? name : '';
}

/** A type or rel as a label: "read-marker" -> "Read marker". */
export function labelOf(type: string): string {
  const words = type.replace(/[-_]+/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
