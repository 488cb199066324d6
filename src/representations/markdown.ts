// The safe Markdown subset of message text (docs/html.md, Message text): paragraphs, fenced code blocks, quotes and
// flat lists, with the inline part's code, links, strong and emphasis. A small hand-written renderer, pure: any text
// gives well-formed HTML in which every character of the text is escaped; what the server stores stays the text.
import { escapeHtml } from './escape.ts';
import { renderInline, type PlainRenderer } from './markdown-inline.ts';

export type { PlainRenderer } from './markdown-inline.ts';

/** Quotes in quotes deeper than this are read as text: the work stays linear in the text's length. */
const MAX_QUOTE_DEPTH = 4;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const QUOTE = /^ {0,3}> ?/;
const BULLET = /^ {0,3}[-*+] +/;
const NUMBERED = /^ {0,3}(\d{1,9})[.)] +/;

export interface RenderedText {
  html: string;
  /** The text was one paragraph: `html` is inline content (no <p>), to go into the caller's own paragraph. */
  inline: boolean;
}

/** A line that ends a paragraph by starting a block; a numbered list only from 1 (CommonMark's rule: "1984. was"). */
function interruptsParagraph(line: string): boolean {
  return FENCE.test(line) || QUOTE.test(line) || BULLET.test(line) || NUMBERED.exec(line)?.[1] === '1';
}

/** Each block as HTML, from `lines` (the text split at line breaks); `renderPlain` renders plain runs (mentions). */
function renderBlocks(lines: readonly string[], renderPlain: PlainRenderer, depth: number): string[] {
  const blocks: string[] = [];
  let at = 0;
  const takeWhile = (pattern: RegExp): string[] => {
    const taken: string[] = [];
    while (at < lines.length && pattern.test(lines[at]!)) taken.push(lines[at++]!);
    return taken;
  };
  while (at < lines.length) {
    const line = lines[at]!;
    const fence = FENCE.exec(line);
    if (line.trim() === '') {
      at += 1;
    } else if (fence !== null) {
      // What follows the fence on its line (a language, say) is the code's first line: nothing typed is hidden. The
      // block ends at a fence as long, or at the text's end.
      const closing = new RegExp(`^ {0,3}${fence[1]![0] === '`' ? '`' : '~'}{${fence[1]!.length},}\\s*$`);
      const info = line.slice(fence[0].length).trim();
      const body: string[] = info === '' ? [] : [info];
      for (at += 1; at < lines.length && !closing.test(lines[at]!); at += 1) body.push(lines[at]!);
      at += 1;
      blocks.push(`<pre><code>${escapeHtml(body.join('\n'))}</code></pre>`);
    } else if (QUOTE.test(line) && depth < MAX_QUOTE_DEPTH) {
      const inner = takeWhile(QUOTE).map((quoted) => quoted.replace(QUOTE, ''));
      blocks.push(`<blockquote>${renderBlocks(inner, renderPlain, depth + 1).join('')}</blockquote>`);
    } else if (BULLET.test(line)) {
      const items = takeWhile(BULLET).map((item) => `<li>${renderInline(item.replace(BULLET, ''), renderPlain)}</li>`);
      blocks.push(`<ul>${items.join('')}</ul>`);
    } else if (NUMBERED.test(line)) {
      const first = Number(NUMBERED.exec(line)![1]);
      const items = takeWhile(NUMBERED).map((item) => `<li>${renderInline(item.replace(NUMBERED, ''), renderPlain)}</li>`);
      blocks.push(`<ol${first === 1 ? '' : ` start="${first}"`}>${items.join('')}</ol>`);
    } else {
      // A paragraph runs to a blank line or the start of another block; its line breaks stay (white-space: pre-wrap).
      const paragraph = [line];
      for (at += 1; at < lines.length && lines[at]!.trim() !== '' && !interruptsParagraph(lines[at]!); at += 1) paragraph.push(lines[at]!);
      blocks.push(`<p>${renderInline(paragraph.join('\n'), renderPlain)}</p>`);
    }
  }
  return blocks;
}

/**
 * Message text as HTML. A text of one paragraph comes back inline (for a `<p>` of the caller's); anything else as
 * blocks, with nothing between them (the text's own blank lines are the blocks' margins).
 */
export function renderMarkdown(text: string, renderPlain: PlainRenderer = escapeHtml): RenderedText {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const blocks = renderBlocks(lines, renderPlain, 0);
  const only = blocks.length === 1 ? /^<p>([\s\S]*)<\/p>$/.exec(blocks[0]!) : null;
  if (only !== null) return { html: only[1]!, inline: true };
  return { html: blocks.join(''), inline: false };
}
