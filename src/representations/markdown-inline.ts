// The inline part of the safe Markdown subset (docs/html.md, Message text): code spans, bare links, strong and
// emphasis, backslash escapes. Pure: text in, escaped HTML out, every tag it opens closed, no scheme but
// http, https and mailto in any href.
import { escapeHtml } from './escape.ts';

/** Renders a run of plain text (already free of markup) as HTML: escapes it, and may mark words (mentions). */
export type PlainRenderer = (plain: string) => string;

/** Nested strong and emphasis deeper than this stay as typed: the output's size and the work stay linear. */
const MAX_DEPTH = 6;
/** The characters a backslash makes literal (CommonMark's ASCII punctuation). */
const ESCAPABLE = new Set('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~');
/** A bare link: only these schemes ever become a link; the address ends at a space, a quote or an angle bracket. */
const LINK = /(?:https?:\/\/[^\s<>"'`]+|mailto:[^\s<>"'`@]+@[^\s<>"'`]+)/iy;
/** What a sentence puts after an address, which is not part of it. */
const TRAILING = /[.,:;!?*_~'"]$/;
const WORD = /[\p{L}\p{N}]/u;

/** The address a bare link really holds: without the sentence's punctuation, and a ")" only when one was opened. */
function trimLink(link: string): string {
  let end = link;
  for (;;) {
    if (TRAILING.test(end)) end = end.slice(0, -1);
    else if (end.endsWith(')') && end.split('(').length < end.split(')').length) end = end.slice(0, -1);
    else return end;
  }
}

function renderLink(address: string): string {
  const href = escapeHtml(address);
  return `<a href="${href}" rel="noopener nofollow ugc">${href}</a>`;
}

function runLength(text: string, at: number, char: string): number {
  let end = at;
  while (text[end] === char) end += 1;
  return end - at;
}

/**
 * Where the delimiter that closes one opened at `from` is: not after a space, and for "_" not inside a word; -1 if
 * none. `closerless` remembers delimiters with no closer left, so a text full of openers is still read in one pass.
 */
function findCloser(text: string, from: number, delimiter: string, closerless: Set<string>): number {
  if (closerless.has(delimiter)) return -1;
  for (let at = text.indexOf(delimiter, from); at !== -1; at = text.indexOf(delimiter, at + 1)) {
    if (at === from || /\s/.test(text[at - 1]!)) continue;
    if (delimiter.length === 1 && (text[at + 1] === delimiter || text[at - 1] === delimiter)) continue;
    // "**" closes at the end of a longer run ("***"), so an emphasis inside it closes first.
    const end = at + runLength(text, at, delimiter[0]!);
    const close = delimiter.length === 2 ? end - 2 : at;
    if (delimiter[0] === '_' && WORD.test(text[end] ?? '')) continue;
    return close;
  }
  closerless.add(delimiter);
  return -1;
}

/** Inline Markdown as HTML; `renderPlain` renders the runs of plain text between the markup (escaping them). */
export function renderInline(text: string, renderPlain: PlainRenderer = escapeHtml, depth = 0): string {
  let html = '';
  let plain = '';
  const flush = (markup: string): void => {
    html += (plain === '' ? '' : renderPlain(plain)) + markup;
    plain = '';
  };
  const closerless = new Set<string>();
  let at = 0;
  while (at < text.length) {
    const char = text[at]!;
    if (char === '\\' && ESCAPABLE.has(text[at + 1] ?? '')) {
      plain += text[at + 1];
      at += 2;
    } else if (char === '`') {
      const ticks = runLength(text, at, '`');
      const fence = '`'.repeat(ticks);
      let close = text.indexOf(fence, at + ticks);
      while (close !== -1 && runLength(text, close, '`') !== ticks) close = text.indexOf(fence, close + runLength(text, close, '`'));
      if (close === -1) {
        plain += fence;
      } else {
        flush(`<code>${escapeHtml(text.slice(at + ticks, close))}</code>`);
      }
      at = close === -1 ? at + ticks : close + ticks;
    } else if ((char === 'h' || char === 'H' || char === 'm' || char === 'M') && !WORD.test(text[at - 1] ?? '')) {
      LINK.lastIndex = at;
      const found = LINK.exec(text);
      const link = found === null ? '' : trimLink(found[0]);
      if (/^(?:https?:\/\/.|mailto:.+@.)/i.test(link)) {
        flush(renderLink(link));
        at += link.length;
      } else {
        plain += char;
        at += 1;
      }
    } else if ((char === '*' || char === '_') && depth < MAX_DEPTH) {
      const run = runLength(text, at, char);
      const opensWord = !/\s/.test(text[at + run] ?? ' ') && (char === '*' || !WORD.test(text[at - 1] ?? ''));
      const size = !opensWord ? 0 : run >= 2 ? 2 : 1;
      const delimiter = char.repeat(size);
      const close = size === 0 ? -1 : findCloser(text, at + size, delimiter, closerless);
      if (close === -1) {
        plain += char.repeat(run);
        at += run;
      } else {
        const tag = size === 2 ? 'strong' : 'em';
        flush(`<${tag}>${renderInline(text.slice(at + size, close), renderPlain, depth + 1)}</${tag}>`);
        at = close + size;
      }
    } else {
      plain += char;
      at += 1;
    }
  }
  flush('');
  return html;
}
