// Decodes the JSON avatar form: plain base64 or a base64 data: URL, validated strictly.
import { fieldFailure } from './parse-failure.ts';

// RFC 2397: data:[<mediatype>][;base64],<data>. The media type is ignored: the image is
// recognised by its bytes. Only the base64 form is accepted; percent-encoded binary is not.
const DATA_URL = /^data:[^,]*;base64,/i;
// RFC 4648 §4 and §5: one alphabet per value, never a mix; padding optional.
const STANDARD = /^[A-Za-z0-9+/]*={0,2}$/;
const URL_SAFE = /^[A-Za-z0-9_-]*={0,2}$/;
// Line breaks and spaces are allowed and dropped, as MIME (RFC 2045 §6.8) wraps base64 at 76.
const WHITESPACE = /[\t\n\r ]+/g;

/**
 * The bytes of `value`. Throws a 400 naming `field` (an avatar's `avatar`, an attachment's `data.content`) when it is empty or not canonical base64:
 * a character outside the alphabet, a length no encoding produces, misplaced padding, or
 * non-zero unused bits (RFC 4648 §3.5), since Buffer.from(value, 'base64') ignores them all.
 */
export function decodeImageData(value: string, field = 'avatar'): Buffer {
  const text = value.replace(DATA_URL, '').replace(WHITESPACE, '');
  if (text === '') throw fieldFailure(field, 'is empty');
  if (!STANDARD.test(text) && !URL_SAFE.test(text)) throw fieldFailure(field, 'is not valid base64');
  const unpadded = text.replace(/=+$/, '');
  const isPaddingRight = unpadded.length === text.length || text.length % 4 === 0;
  const bytes = Buffer.from(unpadded, 'base64');
  // Re-encoding catches what the alphabet test cannot: lengths of 4n+1 and stray bits.
  const canonical = bytes.toString(text.includes('-') || text.includes('_') ? 'base64url' : 'base64').replace(/=+$/, '');
  if (!isPaddingRight || canonical !== unpadded) throw fieldFailure(field, 'is not valid base64');
  return bytes;
}
