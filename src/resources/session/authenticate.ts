// Finds the caller from a bearer token or the session cookie; 401 with WWW-Authenticate, 403 for cross-site writes.
import type { IncomingMessage } from 'node:http';
import type { AppServices, Caller, RequestKept } from '../context.ts';
import { isAllowedOrigin } from '../../http/cors.ts';
import { HttpError } from '../../http/http-error.ts';
import { hashToken, readCookie, SESSION_COOKIE } from './tokens.ts';
import { hashAccessToken, isAccessToken } from '../tokens/access-token.ts';

const REALM = 'realm="chat"';
const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** A session's expiry and last use (and its user's lastSeenAt) are written back at most once a minute, not on every read. */
const EXTEND_STEP_MS = 60_000;

function unauthenticated(detail: string, tokenSent: boolean): HttpError {
  // RFC 6750 §3: error="invalid_token" only when a token was presented.
  const challenge = tokenSent ? `Bearer ${REALM}, error="invalid_token", error_description="${detail}"` : `Bearer ${REALM}`;
  return new HttpError('ERR_UNAUTHENTICATED', detail, { headers: { 'WWW-Authenticate': challenge } });
}

function presentedToken(req: IncomingMessage): { token: string; via: Caller['via'] } | undefined {
  const header = req.headers.authorization;
  if (header !== undefined) {
    // RFC 9110 §11.1: the scheme name is case-insensitive.
    const match = /^bearer +([A-Za-z0-9._~+/-]+=*) *$/i.exec(header);
    if (!match) throw unauthenticated('The Authorization header is not a Bearer token', true);
    return { token: match[1]!, via: 'header' };
  }
  const cookie = readCookie(req.headers.cookie, SESSION_COOKIE);
  return cookie ? { token: cookie, via: 'cookie' } : undefined;
}

/**
 * The browser-enforced Origin (RFC 6454 §7) equals the server's public origin (--public-url): never
 * compared with the client-sent Host, which an attacker controls as easily as Origin.
 */
export function isOwnOrigin(req: IncomingMessage, services: AppServices): boolean {
  return req.headers.origin === services.publicOrigin();
}

/** `kept`: the request's kept reads (a GET finds a hot token's session there while nothing was written). */
export async function authenticate(req: IncomingMessage, services: AppServices, mode: 'required' | 'optional', kept: RequestKept): Promise<Caller | undefined> {
  const presented = presentedToken(req);
  if (!presented) {
    if (mode === 'optional') return undefined;
    throw unauthenticated('This request needs a session: log in with POST /session', false);
  }
  if (isAccessToken(presented.token)) {
    if (presented.via === 'cookie') throw unauthenticated('An access token goes in the Authorization header', true);
    return authenticateAccessToken(presented.token, services);
  }
  const { sessions } = services.storage;
  const now = services.clock.now();
  const tokenHash = hashToken(presented.token);
  const session = await kept.reads.findSessionByTokenHash(tokenHash, now);
  if (!session || session.expiresAt <= now || session.maxExpiresAt <= now) {
    if (session) await sessions.deleteSession(session.id);
    throw unauthenticated('The token is unknown, expired or revoked', true);
  }
  // A browser origin allowed by --cors-origins may write with the cookie too (docs/protocol.md §11.5 CORS).
  if (presented.via === 'cookie' && UNSAFE.has(req.method ?? '') && !isOwnOrigin(req, services)
    && !isAllowedOrigin(services.config.corsOrigins, req.headers.origin)) {
    throw new HttpError('ERR_CSRF', 'A cookie-authenticated change must come from this server\'s own origin (Origin header)');
  }
  // Use extends the idle lifetime, never past the absolute limit; the same write says when it was used (docs/protocol.md §3.5).
  const extended = Math.min(now + services.config.sessionTtl * 1000, session.maxExpiresAt);
  if (extended - session.expiresAt >= EXTEND_STEP_MS || now - session.lastUsedAt >= EXTEND_STEP_MS) {
    const expiresAt = Math.max(extended, session.expiresAt);
    await sessions.recordSessionUse(session.id, session.userId, expiresAt, now);
    kept.reads.sessionUsed(tokenHash, { ...session, expiresAt, lastUsedAt: now });
  }
  return { userId: session.userId, sessionId: session.id, via: presented.via };
}

/**
 * docs/protocol.md §16.1: a personal access token holds while it exists, has not expired, and its user is active.
 * lastUsedAt is written at most once a minute, like a session's expiry.
 */
async function authenticateAccessToken(token: string, services: AppServices): Promise<Caller> {
  const { integrations, users } = services.storage;
  const now = services.clock.now();
  const row = await integrations.findAccessTokenByHash(hashAccessToken(token));
  const user = row && (row.expiresAt === null || row.expiresAt > now) ? await users.findUserById(row.userId) : undefined;
  if (!row || !user) throw unauthenticated('The token is unknown, expired or revoked', true);
  if (user.deactivatedAt !== null) throw new HttpError('ERR_ACCOUNT_DEACTIVATED', 'The token\'s account is deactivated');
  if (row.lastUsedAt === null || now - row.lastUsedAt >= EXTEND_STEP_MS) await integrations.touchAccessToken(row.id, now);
  return { userId: row.userId, sessionId: row.id, via: 'header', token: { scopes: row.scopes }, bot: user.kind === 'bot' };
}
