// The secret of an incoming webhook's address (docs/protocol.md §16.3): 32 bytes from the CSPRNG, shown once in the
// URL; only its SHA-256 is stored (the access tokens' hash, tokens/access-token.ts).
import { randomBytes } from 'node:crypto';

export function newHookSecret(): string {
  return randomBytes(32).toString('base64url');
}
