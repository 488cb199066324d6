// The CPU work of a push (docs/push.md, "What runs where"): RFC 8291's encryption and VAPID's ES256 signature, as
// jobs a worker thread runs (crypto-worker.ts), or this thread when no worker can (crypto-pool.ts). Plain data in and
// out, so a job crosses postMessage unchanged.
import { createPrivateKey, sign, type KeyObject } from 'node:crypto';
import { encryptPushPayload } from './web-push-encryption.ts';

/** A P-256 private key as a JWK (RFC 7518 §6.2): plain strings, so it crosses postMessage. */
export type EcPrivateJwk = {
  kty: 'EC';
  crv: 'P-256';
  d: string;
  x: string;
  y: string;
};

/**
 * Strings, not Buffers: a small Buffer is a view of an 8 KiB pool, and postMessage copies the whole pool for each (in a
 * profile of a fan-out, handing 1,000 jobs over cost 384 ms of the event loop).
 */
export type CryptoJob =
  /** The aes128gcm body of a push: the payload's text, the subscription's keys in base64url. */
  | { type: 'encrypt'; payload: string; p256dh: string; auth: string }
  /** RFC 7518 §3.4: an ES256 signature (R || S, 64 bytes) of `input` with the P-256 key `jwk`. */
  | { type: 'sign'; input: string; jwk: EcPrivateJwk };

/** The few keys a process signs with (one VAPID key), made into KeyObjects once. */
const keys = new Map<string, KeyObject>();

function keyOf(jwk: EcPrivateJwk): KeyObject {
  const id = `${jwk.x} ${jwk.y}`;
  let key = keys.get(id);
  if (!key) {
    if (keys.size > 8) keys.clear();
    key = createPrivateKey({ format: 'jwk', key: jwk });
    keys.set(id, key);
  }
  return key;
}

/**
 * Runs one job; throws what the job's inputs deserve (a key of the wrong length). The answer owns its memory (no
 * pool), so a thread can hand it over without a copy.
 */
export function runCryptoJob(job: CryptoJob): Uint8Array {
  const value = job.type === 'encrypt'
    ? encryptPushPayload(Buffer.from(job.payload), { p256dh: Buffer.from(job.p256dh, 'base64url'), auth: Buffer.from(job.auth, 'base64url') })
    : sign('sha256', Buffer.from(job.input), { key: keyOf(job.jwk), dsaEncoding: 'ieee-p1363' });
  return new Uint8Array(value);
}
