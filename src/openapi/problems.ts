// Which problem answers (RFC 9457) an operation can give, by rule from what the route is, and how each
// is described once in components.responses.
import { ERROR_CATALOGUE } from '../http/error-catalogue.ts';
import type { Route } from '../resources/context.ts';
import { responseHeaders, withHeaders } from './headers.ts';
import type { HeaderName } from './route-doc.ts';
import { arrayOf, integer, object, ref, text, type JsonSchema } from './schema.ts';
import { PROBLEM_FIELD } from '../representations/schemas.ts';

export const PROBLEM = object({
  type: text(undefined, { description: 'A URI naming the kind of problem' }),
  title: text(),
  status: integer({ minimum: 400, maximum: 599 }),
  detail: text(undefined, { description: 'What went wrong with this request, for a person' }),
  code: { type: 'string', enum: Object.keys(ERROR_CATALOGUE), description: 'A stable code a program can test' },
  instance: text(),
  errors: { ...arrayOf(ref('ProblemField', PROBLEM_FIELD)), description: 'The fields at fault, for validation problems' },
}, { optional: ['instance', 'errors'], description: 'An RFC 9457 problem; validation problems name their fields.' });

interface ProblemKind {
  description: string;
  headers?: readonly HeaderName[];
}

const KINDS: Record<number, ProblemKind> = {
  400: { description: 'The request is malformed or a field breaks a rule (errors names it)' },
  401: { description: 'No valid session: missing, unknown, expired or revoked token', headers: ['WWW-Authenticate'] },
  403: { description: 'Not allowed to the caller (not the owner or author; a cookie write without our Origin; an access token\'s scope; a bot asking for a page)' },
  404: { description: 'No such resource, or one the caller may not see' },
  405: { description: 'The path does not support this method', headers: ['Allow'] },
  406: { description: 'None of JSON, XML or HTML is acceptable to the client' },
  409: { description: 'Conflicts with the current state (a login already taken)' },
  410: { description: 'Gone: the resume point is older than the event log' },
  412: { description: 'If-Match or If-None-Match does not hold; nothing changed' },
  413: { description: 'The body is larger than the server accepts' },
  415: { description: 'The body\'s media type (or the image format) is not accepted' },
  416: { description: 'No range of the Range field lies within the bytes (Content-Range: bytes */length)' },
  429: { description: 'Too many requests; nothing was done. Retry after the given seconds', headers: ['Retry-After'] },
  503: { description: 'Busy, or the database is unreachable, read-only or full: try again after the given seconds', headers: ['Retry-After'] },
};

export const PROBLEM_STATUSES = Object.keys(KINDS).map(Number);

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The problems an operation can answer. Every request can be malformed (400); a route that needs a
 * session can answer 401, and 403 to a write (owner-only changes, the cookie Origin check); a path with
 * ids can name nothing (404); any route that reads a caller can answer 403 to a read too (a bot asking for an HTML page,
 * an access token whose scopes or kind do not reach it: docs/protocol.md §16); a negotiated answer can find no acceptable type (406); PUT, PATCH and
 * DELETE honour If-Match (412); a body can be too large or of the wrong type (413, 415); a write can be
 * rate-limited (429, docs/protocol.md §11.1); any request can find the database unreachable (503 with Retry-After, on
 * PostgreSQL), read-only or full (docs/operations.md). A route adds what its own rules give (409, ...).
 */
export function problemStatuses(route: Route): number[] {
  const statuses = new Set<number>([400]);
  const write = WRITES.has(route.method);
  if (route.auth !== 'public') statuses.add(401);
  if (route.auth !== 'public') statuses.add(403);
  if (route.pattern.includes(':')) statuses.add(404);
  if (!route.raw) statuses.add(406);
  if (route.method === 'PUT' || route.method === 'PATCH' || route.method === 'DELETE') statuses.add(412);
  if (route.requestBody) {
    statuses.add(413);
    statuses.add(415);
  }
  if (write) statuses.add(429);
  statuses.add(503);
  for (const status of route.problems ?? []) statuses.add(status);
  return [...statuses].sort((a, b) => a - b);
}

/** components.responses: one entry per problem status used, in JSON, XML and HTML (docs/protocol.md §7.5). */
export function problemResponses(used: ReadonlySet<number>): Record<string, JsonSchema> {
  const kinds = Object.entries(KINDS).filter(([status]) => used.has(Number(status)));
  return Object.fromEntries(kinds.map(([status, kind]) => [`Problem${status}`, {
    description: kind.description,
    // A 429 of a write also says what is left of the limit (docs/protocol.md §11.1).
    ...withHeaders(responseHeaders(kind.headers, status === '429' ? ['RateLimit', 'RateLimit-Policy'] : [])),
    content: {
      'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } },
      'application/problem+xml': { schema: { type: 'string' } },
      'text/html': { schema: { type: 'string' } },
    },
  }]));
}
