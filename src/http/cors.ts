// CORS (Fetch standard, §3.2): the Access-Control-* answers for the configured browser origins, and none for others.

/** What a script from an allowed origin may read besides the CORS-safelisted response headers. */
const EXPOSED_HEADERS = ['Location', 'ETag', 'Link', 'Retry-After', 'RateLimit', 'RateLimit-Policy', 'X-Request-Id'].join(', ');
/** The request headers this API reads; a preflight asking for others still gets this list, and the browser decides. */
const ALLOWED_HEADERS = ['Accept', 'Authorization', 'Content-Type', 'If-Match', 'If-None-Match', 'Last-Event-ID'].join(', ');
/** How long a browser may reuse a preflight answer, seconds (Chromium caps it at 7200). */
export const PREFLIGHT_MAX_AGE = 600;

export interface CorsRequest {
  origin: string | undefined;
  method: string;
  /** Access-Control-Request-Method: present only on a preflight. */
  requestMethod: string | undefined;
}

export function isAllowedOrigin(origins: readonly string[], origin: string | undefined): origin is string {
  return origin !== undefined && origins.includes(origin);
}

/**
 * The CORS headers every answer to this request carries, set before routing so that answers written by a
 * handler itself (an event stream) have them too. With any origin configured every answer varies by Origin,
 * so a shared cache never gives one origin's answer to another; an origin not listed gets nothing more.
 */
export function corsHeaders(origins: readonly string[], request: CorsRequest): Record<string, string> {
  if (origins.length === 0) return {};
  const headers: Record<string, string> = { Vary: 'Origin' };
  if (!isAllowedOrigin(origins, request.origin)) return headers;
  headers['Access-Control-Allow-Origin'] = request.origin;
  // Credentials: the session cookie may be sent, so the origin is named, never "*".
  headers['Access-Control-Allow-Credentials'] = 'true';
  if (isPreflight(request)) {
    headers['Access-Control-Allow-Headers'] = ALLOWED_HEADERS;
    headers['Access-Control-Max-Age'] = String(PREFLIGHT_MAX_AGE);
  } else {
    headers['Access-Control-Expose-Headers'] = EXPOSED_HEADERS;
  }
  return headers;
}

/** An OPTIONS request with Access-Control-Request-Method is a browser's preflight. */
export function isPreflight(request: CorsRequest): boolean {
  return request.method === 'OPTIONS' && request.requestMethod !== undefined;
}

/**
 * A preflight from an allowed origin is answered by the same OPTIONS route as any other: its Allow header,
 * which comes from the route table, becomes Access-Control-Allow-Methods, so the two never disagree.
 */
export function preflightMethods(origins: readonly string[], request: CorsRequest, allow: string | string[] | undefined): Record<string, string> {
  if (!isPreflight(request) || !isAllowedOrigin(origins, request.origin) || typeof allow !== 'string') return {};
  return { 'Access-Control-Allow-Methods': allow };
}
