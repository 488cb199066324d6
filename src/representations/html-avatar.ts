// An avatar in HTML: the image cropped to its zone, at a fixed size, with no style attribute (the CSP allows none).
import { escapeHtml } from './escape.ts';
import type { Resource } from './representation.ts';

/** CSS pixels of the longer side of the shown zone: small enough for a table cell, so it never overflows. */
export const AVATAR_DISPLAY_SIZE = 96;

function numberField(avatar: Resource, field: string): number | undefined {
  const value = avatar[field];
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/**
 * The server stores the zone; clients crop (docs/protocol.md §3.4). This page crops with an inline SVG whose
 * viewBox is the zone, over the whole image drawn at its own pixel size: nothing outside the zone
 * shows, and the box has the zone's aspect ratio with its longer side AVATAR_DISPLAY_SIZE pixels.
 * Attributes only, no CSS, so the strict CSP (style-src by hash) holds; img-src 'self' covers <image>.
 * An avatar without a usable zone shows the whole image in the same box.
 */
export function renderAvatarImage(href: string, avatar: Resource, size = AVATAR_DISPLAY_SIZE, label = 'Avatar'): string {
  // An empty label: the avatar sits beside its user's login, which already says whose it is (decorative).
  const name = label === '' ? 'aria-hidden="true"' : `role="img" aria-label="${escapeHtml(label)}"`;
  const imageWidth = numberField(avatar, 'imageWidth');
  const imageHeight = numberField(avatar, 'imageHeight');
  if (imageWidth === undefined || imageHeight === undefined || imageWidth <= 0 || imageHeight <= 0) {
    return `<img src="${escapeHtml(href)}" alt="${escapeHtml(label)}" width="${size}" height="${size}">`;
  }
  let zone = [numberField(avatar, 'x'), numberField(avatar, 'y'), numberField(avatar, 'width'), numberField(avatar, 'height')];
  if (zone.some((value) => value === undefined) || zone[2]! <= 0 || zone[3]! <= 0) zone = [0, 0, imageWidth, imageHeight];
  const [x, y, width, height] = zone as [number, number, number, number];
  const scale = size / Math.max(width, height);
  const boxWidth = Math.max(1, Math.round(width * scale));
  const boxHeight = Math.max(1, Math.round(height * scale));
  // slice: should rounding make the box's ratio differ a little from the zone's, the zone is cut, never exceeded.
  return `<svg class="avatar" ${name} width="${boxWidth}" height="${boxHeight}" viewBox="${x} ${y} ${width} ${height}"` +
    ` preserveAspectRatio="xMidYMid slice"><image href="${escapeHtml(href)}" x="0" y="0" width="${imageWidth}" height="${imageHeight}"` +
    ' preserveAspectRatio="none"/></svg>';
}
