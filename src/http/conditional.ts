// Entity tags and conditional requests (RFC 9110 §8.8.3 and §13).
import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { HttpError } from './http-error.ts';
import { sha256Base64url } from './sha256.ts';

/** A strong ETag of a resource's state; the variant (xml, html) is appended so each representation has its own. */
export function etagOf(state: unknown, variant = ''): string {
  return etagOfJson(JSON.stringify(state), variant);
}

/** etagOf for a state already written as JSON text (the same text JSON.stringify(state) gives, so the same tag). */
export function etagOfJson(stateJson: string, variant = ''): string {
  const hash = sha256Base64url(stateJson).slice(0, 27);
  return variant ? `"${hash}.${variant}"` : `"${hash}"`;
}

export function etagOfBytes(bytes: Buffer): string {
  return `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`;
}

/** The opaque part of a tag, without W/ and the representation variant, for comparing states. */
function stateOf(tag: string): { weak: boolean; opaque: string } {
  const weak = tag.startsWith('W/');
  const quoted = weak ? tag.slice(2) : tag;
  return { weak, opaque: quoted.replace(/^"|"$/g, '').replace(/\.[a-z]+$/, '') };
}

function parseTagList(header: string): string[] | '*' {
  if (header.trim() === '*') return '*';
  return header.match(/(?:W\/)?"[^"]*"/g) ?? [];
}

/**
 * RFC 9110 §13.1.2: If-None-Match on GET/HEAD uses weak comparison of the whole tag, variant included:
 * a cache holding the XML copy must not be told its copy is the HTML one. True when the copy is current.
 */
export function isNotModified(headers: IncomingHttpHeaders, currentEtag: string): boolean {
  const header = headers['if-none-match'];
  if (header === undefined) return false;
  const tags = parseTagList(header);
  if (tags === '*') return true;
  const current = currentEtag.replace(/^W\//, '');
  return tags.some((tag) => tag.replace(/^W\//, '') === current);
}

/**
 * RFC 9110 §13.1.1 and §13.1.2 for a state-changing request: If-Match with strong comparison,
 * If-None-Match with weak comparison. `currentEtag` is null when the resource does not exist.
 * Throws 412 so that nothing changes.
 */
export function checkPreconditions(headers: IncomingHttpHeaders, currentEtag: string | null): void {
  const ifMatch = headers['if-match'];
  if (ifMatch !== undefined) {
    const tags = parseTagList(ifMatch);
    const current = currentEtag === null ? null : stateOf(currentEtag).opaque;
    const holds = tags === '*'
      ? current !== null
      : current !== null && tags.some((tag) => !stateOf(tag).weak && stateOf(tag).opaque === current);
    if (!holds) throw new HttpError('ERR_PRECONDITION_FAILED', 'If-Match does not match the current state of the resource');
  }
  const ifNoneMatch = headers['if-none-match'];
  if (ifNoneMatch !== undefined && currentEtag !== null) {
    const tags = parseTagList(ifNoneMatch);
    const current = stateOf(currentEtag).opaque;
    if (tags === '*' || tags.some((tag) => stateOf(tag).opaque === current)) {
      throw new HttpError('ERR_PRECONDITION_FAILED', 'If-None-Match matches the current state of the resource');
    }
  }
}
