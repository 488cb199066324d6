// Message encryption for Web Push (RFC 8291) in the aes128gcm content coding (RFC 8188), with node:crypto alone:
// an ephemeral P-256 ECDH with the browser's key, HKDF-SHA-256 twice, one AES-128-GCM record, padded.
import { createCipheriv, createECDH, hkdfSync, randomBytes } from 'node:crypto';

/** RFC 8188 §2: the record size written in the header; one record holds the whole payload. */
export const RECORD_SIZE = 4096;
/** Plaintext is padded to a multiple of this, so a payload's length tells little about its text. */
const PAD_TO = 64;
const TAG_BYTES = 16;

export interface PushKeys {
  /** The browser's P-256 public key, uncompressed (65 bytes): PushSubscription keys.p256dh. */
  p256dh: Buffer;
  /** The browser's 16-byte auth secret: PushSubscription keys.auth. */
  auth: Buffer;
}

/** Inputs tests may fix (RFC 8291 §5's worked example); random when absent. */
export interface EncryptionSeed {
  salt?: Buffer;
  /** The sender's ephemeral private key (32 bytes). */
  privateKey?: Buffer;
}

function hkdf(ikm: Buffer, salt: Buffer, info: Buffer, length: number): Buffer {
  return Buffer.from(hkdfSync('sha256', ikm, salt, info, length));
}

/** The aes128gcm body: header (salt, rs, idlen, the sender's public key) then the one encrypted record. */
export function encryptPushPayload(payload: Buffer, keys: PushKeys, seed: EncryptionSeed = {}): Buffer {
  if (keys.p256dh.length !== 65 || keys.p256dh[0] !== 0x04) throw new Error('web push: p256dh is not an uncompressed P-256 point');
  if (keys.auth.length !== 16) throw new Error('web push: auth is not 16 bytes');
  const ecdh = createECDH('prime256v1');
  if (seed.privateKey) ecdh.setPrivateKey(seed.privateKey);
  else ecdh.generateKeys();
  const senderPublic = ecdh.getPublicKey();
  const shared = ecdh.computeSecret(keys.p256dh);
  // RFC 8291 §3.4: IKM = HKDF(auth_secret, ecdh_secret, "WebPush: info" || 0x00 || ua_public || as_public, 32).
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), keys.p256dh, senderPublic]);
  const ikm = hkdf(shared, keys.auth, keyInfo, 32);
  const salt = seed.salt ?? randomBytes(16);
  // RFC 8188 §2.2, §2.3: the content-encryption key and the nonce (one record: sequence number 0).
  const key = hkdf(ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16);
  const nonce = hkdf(ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12);
  // RFC 8188 §2: the last record's delimiter 0x02, then zero padding.
  const padded = Math.ceil((payload.length + 1) / PAD_TO) * PAD_TO;
  if (padded + TAG_BYTES > RECORD_SIZE) throw new Error('web push: payload too large for one record');
  const plaintext = Buffer.alloc(padded);
  payload.copy(plaintext);
  plaintext[payload.length] = 0x02;
  const cipher = createCipheriv('aes-128-gcm', key, nonce);
  const record = Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
  const header = Buffer.alloc(16 + 4 + 1);
  salt.copy(header, 0);
  header.writeUInt32BE(RECORD_SIZE, 16);
  header[20] = senderPublic.length;
  return Buffer.concat([header, senderPublic, record]);
}
