// Voluntary Application Server Identification (RFC 8292): the server's P-256 key, and the Authorization header a
// push service checks, `vapid t=<JWT signed ES256>, k=<public key>`.
import { generateKeyPairSync } from 'node:crypto';
import type { EcPrivateJwk } from './crypto-jobs.ts';

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

function toJwk(pair: VapidKeyPair): EcPrivateJwk {
  const point = Buffer.from(pair.publicKey, 'base64url');
  return { kty: 'EC', crv: 'P-256', d: pair.privateKey, x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33, 65).toString('base64url') };
}

/** An ES256 signature (R || S) of input with the key: crypto-pool.ts's thread, or crypto-jobs.ts here. */
export type SignEs256 = (input: string, jwk: EcPrivateJwk) => Promise<Uint8Array>;

/** Signs VAPID tokens with one key. */
export class VapidSigner {
  readonly publicKey: string;
  private readonly jwk: EcPrivateJwk;
  private readonly signEs256: SignEs256;

  constructor(pair: VapidKeyPair, signEs256: SignEs256) {
    this.publicKey = pair.publicKey;
    this.jwk = toJwk(pair);
    this.signEs256 = signEs256;
  }

  /**
   * Tokens by audience and subject, reused for an hour (RFC 8292 §2: a token may serve many requests until exp); the
   * pushes of a fan-out that ask while one is being signed share it.
   */
  private readonly tokens = new Map<string, { madeAt: number; header: Promise<string> }>();

  /** RFC 8292 §2, §3: aud is the push resource's origin, exp within 24 h, sub the operator's contact. */
  authorization(endpoint: string, subject: string, nowSeconds: number): Promise<string> {
    const key = `${new URL(endpoint).origin} ${subject}`;
    const kept = this.tokens.get(key);
    if (kept && nowSeconds - kept.madeAt < REUSE_SECONDS && nowSeconds >= kept.madeAt) return kept.header;
    if (this.tokens.size > 100) this.tokens.clear();
    const header = this.sign(endpoint, subject, nowSeconds);
    this.tokens.set(key, { madeAt: nowSeconds, header });
    // A failed signature is not kept: the next push asks again.
    header.catch(() => this.tokens.get(key)?.header === header && this.tokens.delete(key));
    return header;
  }

  private async sign(endpoint: string, subject: string, nowSeconds: number): Promise<string> {
    const header = Buffer.from(JSON.stringify({ typ: 'JWT', alg: 'ES256' })).toString('base64url');
    const claims = Buffer.from(JSON.stringify({ aud: new URL(endpoint).origin, exp: nowSeconds + VAPID_LIFETIME_SECONDS, sub: subject })).toString('base64url');
    const input = `${header}.${claims}`;
    // RFC 7518 §3.4: ES256's signature is R || S, 64 bytes, not DER.
    const signature = Buffer.from(await this.signEs256(input, this.jwk)).toString('base64url');
    return `vapid t=${input}.${signature}, k=${this.publicKey}`;
  }
}
