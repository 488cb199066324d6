// Invite codes: 24 bytes (192 bits) from the CSPRNG, shown once; only their SHA-256 is stored (docs/protocol.md §13.5).
import { randomBytes } from 'node:crypto';
import { sha256Bytes } from '../../http/sha256.ts';

/** More than the 128 bits the protocol asks for: the code is the whole secret of an invite. */
export const INVITE_CODE_BYTES = 24;

/** 32 characters of base64url: safe in a path segment and a form field as it is. */
export function newInviteCode(): string {
  return randomBytes(INVITE_CODE_BYTES).toString('base64url');
}

export function hashInviteCode(code: string): Buffer {
  return sha256Bytes(code);
}
