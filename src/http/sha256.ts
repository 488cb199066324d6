// SHA-256 of a short text in one call: crypto.hash (Node 20.12+) is about 4x cheaper than a createHash object for
// the token and ETag hashes every request makes (issue #22); older Node (engines allow 20.10) uses createHash.
import * as crypto from 'node:crypto';

type OneShot = (algorithm: string, data: string, outputEncoding: 'base64url' | 'buffer') => string | Buffer;
const oneShot = (crypto as unknown as { hash?: OneShot }).hash;

export function sha256Base64url(text: string): string {
  return oneShot ? oneShot('sha256', text, 'base64url') as string : crypto.createHash('sha256').update(text).digest('base64url');
}

export function sha256Bytes(text: string): Buffer {
  return oneShot ? oneShot('sha256', text, 'buffer') as Buffer : crypto.createHash('sha256').update(text).digest();
}
