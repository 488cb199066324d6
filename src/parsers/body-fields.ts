// Checks the fields of a parsed JSON body: no unknown fields, and each known one of the right type and size.
import { fieldFailure } from './parse-failure.ts';

export type Body = Record<string, unknown>;

/** docs/protocol.md §1.5: an unknown field is a 400 that names it. */
export function rejectUnknownFields(body: Body, allowed: readonly string[], prefix = ''): void {
  for (const field of Object.keys(body)) {
    if (!allowed.includes(field)) throw fieldFailure(`${prefix}${field}`, 'is not a known field');
  }
}

export interface StringRule {
  min: number;
  max: number;
  pattern?: RegExp;
  patternMessage?: string;
}

/** Length counts characters (code points), not UTF-16 units or bytes. */
export function checkString(value: unknown, field: string, rule: StringRule): string {
  if (typeof value !== 'string') throw fieldFailure(field, 'must be a string');
  const length = [...value].length;
  if (length < rule.min || length > rule.max) {
    throw fieldFailure(field, rule.min === rule.max ? `must be ${rule.min} characters` : `must be ${rule.min} to ${rule.max} characters`);
  }
  if (rule.pattern && !rule.pattern.test(value)) throw fieldFailure(field, rule.patternMessage ?? 'has an invalid format');
  return value;
}

export function requireString(body: Body, field: string, rule: StringRule, prefix = ''): string {
  if (!(field in body)) throw fieldFailure(`${prefix}${field}`, 'is required');
  return checkString(body[field], `${prefix}${field}`, rule);
}

/** A finite JSON number (or, from multipart text parts, a decimal string). */
export function checkNumber(value: unknown, field: string): number {
  const number = typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isFinite(number)) throw fieldFailure(field, 'must be a number');
  return number;
}

/** The body of a chat, message or action request: {"data": {...}} (docs/protocol.md §1.4). */
export function unwrapEnvelope(body: Body): Body {
  if (!('data' in body) && Object.keys(body).length > 0) {
    // The resource's fields sent bare are the common first mistake: say so, and show the shape to send.
    const names = Object.keys(body);
    const fields = names.slice(0, 4).map((field) => `${JSON.stringify(field.slice(0, 64))}: …`).concat(names.length > 4 ? ['…'] : []).join(', ');
    throw fieldFailure('data', `is missing: this body must be wrapped in an envelope, {"data": {${fields}}}`);
  }
  rejectUnknownFields(body, ['data']);
  const data = body['data'];
  if (data === null || typeof data !== 'object' || Array.isArray(data)) throw fieldFailure('data', 'must be an object');
  return data as Body;
}
