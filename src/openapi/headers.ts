// The response header fields the document describes, each once.
import type { HeaderName } from './route-doc.ts';
import type { JsonSchema } from './schema.ts';

const HEADERS: Record<HeaderName, { description: string; schema: JsonSchema }> = {
  ETag: { description: 'Strong validator of this representation (RFC 9110 §8.8.3): send it in If-None-Match or If-Match', schema: { type: 'string', pattern: '^"[^"]*"$' } },
  Location: { description: 'The path of the resource created (or of the page to go on to)', schema: { type: 'string', pattern: '^/' } },
  Link: { description: 'RFC 8288 links to the next and previous pages: <href>; rel="next", <href>; rel="prev"', schema: { type: 'string' } },
  'Retry-After': { description: 'Seconds to wait before trying again (RFC 9110 §10.2.3)', schema: { type: 'string', pattern: '^[0-9]+$' } },
  // IETF draft-ietf-httpapi-ratelimit-headers, as docs/protocol.md §11.1 spells them.
  RateLimit: { description: 'What is left of the limit: "writes";r=<remaining>;t=<seconds>', schema: { type: 'string', pattern: '^"[^"]+";r=[0-9]+;t=[0-9]+$' } },
  'RateLimit-Policy': { description: 'The limit itself: "writes";q=600;w=60', schema: { type: 'string', pattern: '^"[^"]+";q=[0-9]+;w=[0-9]+$' } },
  'WWW-Authenticate': { description: 'Bearer realm="chat", with error="invalid_token" when a token was sent (RFC 6750 §3)', schema: { type: 'string', pattern: '^Bearer ' } },
  'Set-Cookie': { description: 'session=<token>; HttpOnly; SameSite=Strict; Path=/ (cleared on logout)', schema: { type: 'string', pattern: '^session=[^;]*; HttpOnly; SameSite=Strict; Path=/' } },
  'Cache-Control': { description: 'How long caches may keep the answer', schema: { type: 'string' } },
  Allow: { description: 'The methods the path supports', schema: { type: 'string', pattern: '^[A-Z]+(, [A-Z]+)*$' } },
  'Content-Disposition': { description: 'attachment; filename="<login>-export.json": a download (RFC 6266), JSON only', schema: { type: 'string', pattern: '^attachment; filename="[A-Za-z0-9._-]+"$' } },
};

/** The `headers` of a response object: the required ones, then those that may appear. */
export function responseHeaders(required: readonly HeaderName[] = [], optional: readonly HeaderName[] = []): Record<string, JsonSchema> | undefined {
  const entries = [
    ...required.map((name) => [name, { ...HEADERS[name], required: true }] as const),
    ...optional.filter((name) => !required.includes(name)).map((name) => [name, { ...HEADERS[name] }] as const),
  ];
  return entries.length > 0 ? Object.fromEntries(entries) : undefined;
}

/** `{ headers }` when there are any, else nothing (a response object without the member). */
export function withHeaders(headers: Record<string, JsonSchema> | undefined): { headers?: Record<string, JsonSchema> } {
  return headers ? { headers } : {};
}
