// Reaction labels (src/representations/emoji-names.ts): common emoji by name, skin tones after it, other emoji by
// code points, text that is no emoji as itself.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeReaction, nameOfEmoji } from '../../src/representations/emoji-names.ts';

test('names, skin tones, code points, plain text', () => {
  assert.equal(nameOfEmoji('👍'), 'thumbs up');
  assert.equal(nameOfEmoji('❤️'), 'red heart', 'variation selector 16 is the same emoji');
  assert.equal(nameOfEmoji('👍🏿'), 'thumbs up, dark skin tone');
  assert.equal(nameOfEmoji('🧑‍💻'), 'U+1F9D1 U+200D U+1F4BB');
  assert.equal(nameOfEmoji('🇫🇷'), 'U+1F1EB U+1F1F7');
  assert.equal(nameOfEmoji('+1'), '+1');
});

test('a reaction button says the name, the count when any, and whether the reader reacted', () => {
  assert.equal(describeReaction('👍', 2, true), 'thumbs up, 2, you reacted');
  assert.equal(describeReaction('🎉', 1, false), 'party popper, 1');
  assert.equal(describeReaction('🙏', 0, false), 'folded hands');
});
