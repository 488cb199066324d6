// Voluntary Application Server Identification (RFC 8292): the server's P-256 key, and the Authorization header a
// push service checks, `vapid t=<JWT signed ES256>, k=<public key>`.
import { createPrivateKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';

export interface VapidKeyPair {
  /** base64url of the uncompressed point (65 bytes): the browser's applicationServerKey. */
  publicKey: string;
  /** base64url of the private scalar d (32 bytes). */
  privateKey: string;
}

/** RFC 8292 §2: a JWT that expires no more than 24 h after the request; 12 h leaves room for clock skew. */
export const VAPID_LIFETIME_SECONDS = 12 * 3600;
/** A token is made again after an hour, long before its exp. */
const REUSE_SECONDS = 3600;

export function generateVapidKeyPair(): VapidKeyPair {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = privateKey.export({ format: 'jwk' });
  const point = Buffer.concat([Buffer.from([0x04]), Buffer.from(jwk.x!, 'base64url'), Buffer.from(jwk.y!, 'base64url')]);
  return { publicKey: point.toString('base64url'), privateKey: jwk.d! };
}

function toKeyObject(pair: VapidKeyPair): KeyObject {
  const point = Buffer.from(pair.publicKey, 'base64url');
  return createPrivateKey({
    format: 'jwk',
    key: { kty: 'EC', crv: 'P-256', d: pair.privateKey, x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33, 65).toString('base64url') },
  });
}

/** Signs VAPID tokens with one key, made into a KeyObject once. */
export class VapidSigner {
  readonly publicKey: string;
  private readonly key: KeyObject;

  constructor(pair: VapidKeyPair) {
    this.publicKey = pair.publicKey;
    this.key = toKeyObject(pair);
  }

  /** Tokens by audience and subject, reused for an hour (RFC 8292 §2: a token may serve many requests until exp). */
  private readonly tokens = new Map<string, { madeAt: number; header: string }>();

  /** RFC 8292 §2, §3: aud is the push resource's origin, exp within 24 h, sub the operator's contact. */
  authorization(endpoint: string, subject: string, nowSeconds: number): string {
    const key = `${new URL(endpoint).origin} ${subject}`;
    const kept = this.tokens.get(key);
    if (kept && nowSeconds - kept.madeAt < REUSE_SECONDS && nowSeconds >= kept.madeAt) return kept.header;
    if (this.tokens.size > 100) this.tokens.clear();
    const header = this.sign(endpoint, subject, nowSeconds);
    this.tokens.set(key, { madeAt: nowSeconds, header });
    return header;
  }

  private sign(endpoint: string, subject: string, nowSeconds: number): string {
    const header = Buffer.from(JSON.stringify({ typ: 'JWT', alg: 'ES256' })).toString('base64url');
    const claims = Buffer.from(JSON.stringify({ aud: new URL(endpoint).origin, exp: nowSeconds + VAPID_LIFETIME_SECONDS, sub: subject })).toString('base64url');
    const input = `${header}.${claims}`;
    // RFC 7518 §3.4: ES256's signature is R || S, 64 bytes, not DER.
    const signature = sign('sha256', Buffer.from(input), { key: this.key, dsaEncoding: 'ieee-p1363' }).toString('base64url');
    return `vapid t=${input}.${signature}, k=${this.publicKey}`;
  }
}
