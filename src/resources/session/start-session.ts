// A new session for a user whose password just checked out, or who just made their account from a page
// (docs/protocol.md §2.2, docs/html.md): its row, its secret token (kept only as a hash) and its cookie.
import type { RequestContext } from '../context.ts';
import { newId } from '../../storage/ids.ts';
import type { SessionRow } from '../../storage/store.ts';
import { hashToken, newToken, SESSION_COOKIE } from './tokens.ts';

/** What a session keeps of the client's User-Agent (docs/protocol.md §3.5): at most this many characters. */
const MAX_USER_AGENT = 256;

function readUserAgent(ctx: RequestContext): string | null {
  const header = ctx.req.headers['user-agent'];
  return header === undefined || header === '' ? null : [...header].slice(0, MAX_USER_AGENT).join('');
}

/** The session cookie's Set-Cookie value; an empty token with max age 0 clears it. */
export function sessionCookie(ctx: RequestContext, token: string, maxAgeSeconds: number): string {
  const secure = ctx.services.config.secureCookies ? '; Secure' : '';
  return `${SESSION_COOKIE}=${token}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${maxAgeSeconds}${secure}`;
}

/** The row of a session that starts now (not yet stored) and its token, which only the client keeps. */
export function newSession(ctx: RequestContext, userId: string): { session: SessionRow; token: string } {
  const { clock, config } = ctx.services;
  const now = clock.now();
  const token = newToken();
  const maxExpiresAt = now + config.sessionMaxAge * 1000;
  const session: SessionRow = {
    id: newId(now),
    tokenHash: hashToken(token),
    userId,
    createdAt: now,
    expiresAt: Math.min(now + config.sessionTtl * 1000, maxExpiresAt),
    maxExpiresAt,
    lastUsedAt: now,
    userAgent: readUserAgent(ctx),
    address: ctx.clientAddress,
  };
  return { session, token };
}
