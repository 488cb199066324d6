// Server-assigned ids: 26-character ULIDs (Crockford base32) that sort in creation order.
import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

let lastTime = -1;
let lastRandom: number[] = [];

function encodeTime(time: number): string {
  let out = '';
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[time % 32]! + out;
    time = Math.floor(time / 32);
  }
  return out;
}

/** Within one millisecond the random part is incremented, so ids stay strictly increasing. */
export function newId(now: number = Date.now()): string {
  if (now <= lastTime) {
    let i = lastRandom.length - 1;
    while (i >= 0 && lastRandom[i] === 31) lastRandom[i--] = 0;
    if (i >= 0) lastRandom[i]! += 1;
    // Every random digit rolled over: borrow the next millisecond, so ids still only increase.
    else lastTime += 1;
    now = lastTime;
  } else {
    lastTime = now;
    lastRandom = [...randomBytes(16)].map((byte) => byte % 32);
  }
  return encodeTime(now) + lastRandom.map((digit) => ALPHABET[digit]).join('');
}

export function isValidId(value: unknown): value is string {
  return typeof value === 'string' && ID_PATTERN.test(value);
}
