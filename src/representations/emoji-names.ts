// Names of emoji for screen readers (docs/html.md, Text): a reaction button says "thumbs up, 2, you reacted", not a
// picture a reader may not have the font for. The common ones by their Unicode (CLDR) short names; any other by its
// code points. Pure.

const NAMES: Record<string, string> = {
  '👍': 'thumbs up', '👎': 'thumbs down', '❤': 'red heart', '😂': 'face with tears of joy', '🎉': 'party popper',
  '😮': 'face with open mouth', '😢': 'crying face', '👀': 'eyes', '🙏': 'folded hands', '🔥': 'fire', '✅': 'check mark button',
  '👏': 'clapping hands', '😀': 'grinning face', '😄': 'grinning face with smiling eyes', '😁': 'beaming face with smiling eyes',
  '😊': 'smiling face with smiling eyes', '🙂': 'slightly smiling face', '😉': 'winking face', '😍': 'smiling face with heart-eyes',
  '😅': 'grinning face with sweat', '🤣': 'rolling on the floor laughing', '😎': 'smiling face with sunglasses', '🤔': 'thinking face',
  '😭': 'loudly crying face', '😡': 'enraged face', '😱': 'face screaming in fear', '🥳': 'partying face', '🤯': 'exploding head',
  '🙌': 'raising hands', '👌': 'OK hand', '👋': 'waving hand', '💪': 'flexed biceps', '🤝': 'handshake', '✌': 'victory hand',
  '💯': 'hundred points', '🚀': 'rocket', '✨': 'sparkles', '⭐': 'star', '💡': 'light bulb', '⚠': 'warning', '❌': 'cross mark',
  '➕': 'plus', '✔': 'check mark', '☕': 'hot beverage', '🍕': 'pizza', '🐛': 'bug', '🎂': 'birthday cake', '💔': 'broken heart',
  '💙': 'blue heart', '💚': 'green heart', '🙈': 'see-no-evil monkey', '🤷': 'person shrugging', '🤦': 'person facepalming',
};

const SKIN_TONES: Record<string, string> = {
  '\u{1F3FB}': 'light skin tone', '\u{1F3FC}': 'medium-light skin tone', '\u{1F3FD}': 'medium skin tone',
  '\u{1F3FE}': 'medium-dark skin tone', '\u{1F3FF}': 'dark skin tone',
};

const PICTURE = /\p{Extended_Pictographic}|\p{Regional_Indicator}|\u20E3/u;

/** "thumbs up"; with a skin tone "thumbs up, dark skin tone"; another emoji: its code points, "U+1F9D1 U+200D U+1F4BB"; text that is no emoji: itself. */
export function nameOfEmoji(emoji: string): string {
  // Variation selector 16 asks for the colourful form (❤️): the same emoji.
  const bare = emoji.replace(/\uFE0F/g, '');
  if (NAMES[bare] !== undefined) return NAMES[bare];
  const chars = [...bare];
  const tone = chars.length === 2 ? SKIN_TONES[chars[1]!] : undefined;
  if (tone !== undefined && NAMES[chars[0]!] !== undefined) return `${NAMES[chars[0]!]}, ${tone}`;
  // A reaction that is no picture (the API takes any short text) reads as itself, as it is shown.
  if (!PICTURE.test(bare)) return bare;
  return [...emoji].map((char) => `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`).join(' ');
}

/** A reaction button's label: the emoji's name, how many reacted (when any), and whether the reader did. */
export function describeReaction(emoji: string, count: number, mine: boolean): string {
  return [nameOfEmoji(emoji), ...(count > 0 ? [String(count)] : []), ...(mine ? ['you reacted'] : [])].join(', ');
}
