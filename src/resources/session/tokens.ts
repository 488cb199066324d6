// Session tokens: 32 bytes from the CSPRNG, handed out once; only their SHA-256 is stored.
import { randomBytes } from 'node:crypto';
import { sha256Bytes } from '../../http/sha256.ts';

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashToken(token: string): Buffer {
  return sha256Bytes(token);
}

export const SESSION_COOKIE = 'session';

/** The value of one cookie in a Cookie header (RFC 6265 §5.4), or undefined. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const pair of header.split(';')) {
    const at = pair.indexOf('=');
    if (at !== -1 && pair.slice(0, at).trim() === name) return pair.slice(at + 1).trim();
  }
  return undefined;
}
