// The kit's assertions: each failure says what was expected and what came, in one line; the report adds the exchange.
import type { IncomingHttpHeaders } from 'node:http';
import { isDeepStrictEqual, inspect } from 'node:util';

/** A rule the server broke. */
export class CheckFailure extends Error {}

/** A check that cannot run against this server (a missing admin token, a feature turned off), with why. */
export class CheckSkipped extends Error {}

interface Answer {
  label?: string;
  status: number;
  headers: IncomingHttpHeaders;
  json?: any;
}

function show(value: unknown): string {
  return inspect(value, { depth: 4, breakLength: Infinity, maxStringLength: 200 });
}

export function expectTrue(condition: unknown, what: string): asserts condition {
  if (!condition) throw new CheckFailure(what);
}

export function expectEqual(actual: unknown, expected: unknown, what: string): void {
  if (!isDeepStrictEqual(actual, expected)) throw new CheckFailure(`${what}: expected ${show(expected)}, got ${show(actual)}`);
}

export function expectMatch(actual: string | undefined, pattern: RegExp, what: string): void {
  if (actual === undefined || !pattern.test(actual)) throw new CheckFailure(`${what}: expected to match ${pattern}, got ${show(actual)}`);
}

export function expectStatus(reply: Answer, ...statuses: number[]): void {
  if (!statuses.includes(reply.status)) {
    const code = reply.json?.code === undefined ? '' : ` (${reply.json.code})`;
    throw new CheckFailure(`${reply.label === undefined ? '' : `${reply.label.slice(0, 120)}: `}expected status ${statuses.join(' or ')}, got ${reply.status}${code}`);
  }
}

/** A header's value, repeated fields joined by ", " (Set-Cookie by "\n"). */
export function readHeader(reply: { headers: IncomingHttpHeaders }, name: string): string | undefined {
  const value = reply.headers[name.toLowerCase()];
  if (value === undefined) return undefined;
  return Array.isArray(value) ? value.join(name.toLowerCase() === 'set-cookie' ? '\n' : ', ') : value;
}

export function expectHeader(reply: Answer, name: string, expected: string | RegExp): void {
  const value = readHeader(reply, name);
  if (typeof expected === 'string') expectEqual(value, expected, `header ${name}`);
  else expectMatch(value, expected, `header ${name}`);
}

export function expectNoHeader(reply: Answer, name: string): void {
  const value = readHeader(reply, name);
  if (value !== undefined) throw new CheckFailure(`expected no ${name} header, got ${show(value)}`);
}

/** Whether a list header (Vary, Allow) names `token`, in any case. */
export function hasListItem(reply: Answer, name: string, token: string): boolean {
  return (readHeader(reply, name) ?? '').split(',').some((item) => item.trim().toLowerCase() === token.toLowerCase());
}

/** docs/protocol.md §7.5: the status, a problem document, its code, and the field `errors[0]` names. */
export function expectProblem(reply: Answer, status: number, code?: string, field?: string): void {
  expectStatus(reply, status);
  expectMatch(readHeader(reply, 'content-type'), /^application\/problem\+json\b/, 'Content-Type of the problem');
  if (code !== undefined) expectEqual(reply.json?.code, code, 'problem code');
  if (field !== undefined) {
    const fields = Array.isArray(reply.json?.errors) ? reply.json.errors.map((error: { field?: unknown }) => error.field) : [];
    expectTrue(fields.includes(field), `the problem names the field ${show(field)}: its errors name ${show(fields)}`);
  }
}

/** The keys of an object, sorted, for exact shape assertions. */
export function listKeys(value: unknown): string[] {
  return value !== null && typeof value === 'object' ? Object.keys(value).sort() : [];
}

/** Every key in `needed` is present (the protocol may grow fields: §13 added `role` and `active`). */
export function expectKeys(value: unknown, needed: readonly string[], what: string): void {
  const keys = listKeys(value);
  const missing = needed.filter((key) => !keys.includes(key));
  if (missing.length > 0) throw new CheckFailure(`${what} lacks ${missing.join(', ')}: it has ${keys.join(', ')}`);
}

export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const ID = /^[A-Za-z0-9_-]{1,64}$/;
export const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;
