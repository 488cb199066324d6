// A message's files on a page (docs/html.md, docs/protocol.md §15): images inline at their size, other files as links.
import { escapeHtml } from './escape.ts';
import { safeHref } from './html-parts.ts';
import type { Resource } from './representation.ts';

const UNITS = ['bytes', 'KiB', 'MiB', 'GiB'];

/** 1023 bytes, 1.5 KiB, 25 MiB: one decimal under ten of a unit, none above. */
export function formatSize(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const shown = unit === 0 || value >= 10 ? Math.round(value).toString() : value.toFixed(1).replace(/\.0$/, '');
  return `${shown} ${UNITS[unit]}`;
}

/**
 * An image shows at its own width and height (so nothing moves while it loads), scaled down by the stylesheet to
 * fit, and links to itself; any other file is a download link with its name and size. `download` names the file
 * as uploaded, which the server's Content-Disposition says too.
 */
function renderAttachment(attachment: Resource): string {
  const href = safeHref(typeof attachment['href'] === 'string' ? attachment['href'] : undefined);
  if (href === undefined) return '';
  const name = String(attachment['name'] ?? '');
  const size = formatSize(Number(attachment['size'] ?? 0));
  const width = attachment['width'];
  const height = attachment['height'];
  if (typeof width === 'number' && typeof height === 'number') {
    const image = `<img src="${escapeHtml(href)}" width="${width}" height="${height}" alt="${escapeHtml(name)}" loading="lazy">`;
    return `<li class="image"><a href="${escapeHtml(href)}" title="${escapeHtml(`${name}, ${width}×${height}, ${size}`)}">${image}</a></li>`;
  }
  return `<li class="file"><a href="${escapeHtml(href)}" download="${escapeHtml(name)}" dir="auto">${escapeHtml(name)}</a> <span class="size">(${size})</span></li>`;
}

/** The list of a message's files, in their order; nothing for a message without. */
export function renderAttachments(message: Resource): string {
  const attachments = Array.isArray(message['attachments']) ? (message['attachments'] as Resource[]) : [];
  if (attachments.length === 0) return '';
  return `<ul class="attachments" aria-label="Files">${attachments.map(renderAttachment).join('')}</ul>`;
}
