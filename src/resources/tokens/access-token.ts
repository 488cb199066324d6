// Personal access tokens (docs/protocol.md §16.1): `chat_pat_` and 32 bytes from the CSPRNG, shown once; only the
// SHA-256 is stored. The prefix tells a token from a session's at a glance (and to secret scanners).
import { randomBytes } from 'node:crypto';
import { sha256Bytes } from '../../http/sha256.ts';

export const ACCESS_TOKEN_PREFIX = 'chat_pat_';

export function newAccessToken(): string {
  return `${ACCESS_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
}

export function isAccessToken(token: string): boolean {
  return token.startsWith(ACCESS_TOKEN_PREFIX);
}

export function hashAccessToken(token: string): Buffer {
  return sha256Bytes(token);
}
