// The {emoji} of a reaction's path (docs/protocol.md §10.2): percent-decoded UTF-8, 1 to 32 code points, nothing invisible that could spoof it.
import { invalidField } from '../../http/http-error.ts';
import { rejectUnknownFields, type Body } from '../../parsers/body-fields.ts';

export const EMOJI_RULE = { min: 1, max: 32 };

// Whitespace and control characters (C0, C1, DEL) are refused, as are the bidirectional controls, which would
// reorder what is shown around the reaction. Other format characters stay: U+200D joins emoji sequences
// (👩‍💻), tag characters spell the flags of regions.
const FORBIDDEN = /[\p{White_Space}\p{Cc}\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;

/** The decoded path parameter (the router answers 400 naming `emoji` for bad percent-encoding); 400 naming `emoji` if it breaks a rule. */
export function validateEmoji(emoji: string): string {
  const length = [...emoji].length;
  if (length < EMOJI_RULE.min || length > EMOJI_RULE.max) {
    throw invalidField('emoji', `must be ${EMOJI_RULE.min} to ${EMOJI_RULE.max} characters (Unicode code points), not ${length}`);
  }
  if (FORBIDDEN.test(emoji)) throw invalidField('emoji', 'must not contain whitespace, control or bidirectional control characters');
  return emoji;
}

/** The body of POST …/reactions: {"emoji": "…"}, the emoji under the same rules as in the path; 400 naming `emoji`. */
export function validateEmojiBody(body: Body): string {
  rejectUnknownFields(body, ['emoji']);
  const emoji = body['emoji'];
  if (typeof emoji !== 'string') throw invalidField('emoji', 'is required: a string of 1 to 32 characters');
  return validateEmoji(emoji);
}
