// The safe Markdown subset (src/representations/markdown.ts): examples of each rule, then properties over any text:
// well-formed, escaped HTML of a few known tags, and no link to any scheme but http, https and mailto.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { renderMarkdown } from '../../src/representations/markdown.ts';

const html = (text: string): string => renderMarkdown(text).html;

test('plain text stays itself, escaped, inline, line breaks and spaces kept', () => {
  assert.deepEqual(renderMarkdown('a <b> & "c"\n  d'), { html: 'a &lt;b&gt; &amp; &quot;c&quot;\n  d', inline: true });
  assert.deepEqual(renderMarkdown(''), { html: '', inline: false });
});

test('emphasis, strong, inline code and backslash escapes', () => {
  assert.equal(html('*one* _two_ **three** __four__'), '<em>one</em> <em>two</em> <strong>three</strong> <strong>four</strong>');
  assert.equal(html('**bold *and em***'), '<strong>bold <em>and em</em></strong>');
  assert.equal(html('`a *b* <c>` and ``x ` y``'), '<code>a *b* &lt;c&gt;</code> and <code>x ` y</code>');
  assert.equal(html('\\*not\\* snake_case_name 2 * 3 * 4'), '*not* snake_case_name 2 * 3 * 4');
  assert.equal(html('*unclosed and ` lone tick'), '*unclosed and ` lone tick');
});

test('bare http, https and mailto addresses become links; nothing else does', () => {
  assert.equal(html('see https://example.org/a?b=1&c=2.'),
    'see <a href="https://example.org/a?b=1&amp;c=2" rel="noopener nofollow ugc">https://example.org/a?b=1&amp;c=2</a>.');
  assert.equal(html('(http://x.org/wiki/A_(b))'), '(<a href="http://x.org/wiki/A_(b)" rel="noopener nofollow ugc">http://x.org/wiki/A_(b)</a>)');
  assert.equal(html('mailto:bob@example.org'), '<a href="mailto:bob@example.org" rel="noopener nofollow ugc">mailto:bob@example.org</a>');
  assert.equal(html('javascript:alert(1) data:text/html,x xhttps://a.b https://'), 'javascript:alert(1) data:text/html,x xhttps://a.b https://');
  assert.equal(html('`https://in.code`'), '<code>https://in.code</code>');
});

test('blocks: code, quotes, lists, paragraphs', () => {
  assert.deepEqual(renderMarkdown('```js\nlet a = 1 < 2;\n  *no*\n```\nafter'), {
    html: '<pre><code>js\nlet a = 1 &lt; 2;\n  *no*</code></pre><p>after</p>', inline: false,
  });
  assert.equal(html('> quoted *text*\n> more\n\nnext'), '<blockquote><p>quoted <em>text</em>\nmore</p></blockquote><p>next</p>');
  assert.equal(html('- one\n* two\n+ **three**'), '<ul><li>one</li><li>two</li><li><strong>three</strong></li></ul>');
  assert.equal(html('3. c\n4) d'), '<ol start="3"><li>c</li><li>d</li></ol>');
  assert.equal(html('first\n\n\nsecond'), '<p>first</p><p>second</p>');
  assert.equal(html('Best year:\n1984. Orwell\n1. one'), '<p>Best year:\n1984. Orwell</p><ol><li>one</li></ol>', 'only 1. starts a list inside a paragraph');
  assert.equal(html('~~~\nunclosed'), '<pre><code>unclosed</code></pre>');
  assert.equal(html('>>>>>> deep'), '<blockquote><blockquote><blockquote><blockquote><p>&gt;&gt; deep</p></blockquote></blockquote></blockquote></blockquote>');
});

test('plain runs go through the given renderer (mentions), never code or links', () => {
  const mark = (plain: string): string => plain.replace(/@bob/g, '<mark>@bob</mark>');
  assert.equal(renderMarkdown('hi @bob `@bob` https://x.org/@bob *@bob*', mark).html,
    'hi <mark>@bob</mark> <code>@bob</code> <a href="https://x.org/@bob" rel="noopener nofollow ugc">https://x.org/@bob</a> <em><mark>@bob</mark></em>');
});

const TAG = /<(\/?)([a-z]+)((?: [a-z]+="[^"<>]*")*)>/g;
const ALLOWED = new Set(['p', 'pre', 'code', 'blockquote', 'ul', 'ol', 'li', 'em', 'strong', 'a']);

/** Every tag known and closed in order, every attribute a known one, every & an entity, no < or > outside tags. */
function assertWellFormed(output: string): void {
  const open: string[] = [];
  for (const match of output.matchAll(TAG)) {
    const [, closing, name, attributes] = match;
    assert.ok(ALLOWED.has(name!), `unknown tag ${name} in ${output}`);
    if (closing === '/') {
      assert.equal(open.pop(), name, `</${name}> closes what it did not open in ${output}`);
      continue;
    }
    open.push(name!);
    for (const [, attribute, value] of attributes!.matchAll(/ ([a-z]+)="([^"]*)"/g)) {
      assert.ok(['href', 'rel', 'start'].includes(attribute!), `attribute ${attribute}`);
      if (attribute === 'href') assert.match(value!, /^(?:https?:\/\/|mailto:)/i, `href ${value}`);
    }
  }
  assert.deepEqual(open, [], `unclosed tags in ${output}`);
  const text = output.replace(TAG, '');
  assert.doesNotMatch(text, /[<>"]/, `unescaped markup in ${output}`);
  assert.doesNotMatch(text.replace(/&(?:amp|lt|gt|quot|#39);/g, ''), /&/, `a bare & in ${output}`);
}

// Texts made mostly of the characters that mean something, so the rules meet each other often.
const MARKDOWN_ISH = fc.array(fc.oneof(
  fc.constantFrom('*', '**', '_', '`', '```', '~~~', '>', '- ', '1. ', '\n', '\n\n', ' ', '\\', 'https://a.b/', 'mailto:a@b', 'javascript:', '<script>', '&', '"', "'", '(', ')', '@bob'),
  fc.string({ maxLength: 4 }),
), { maxLength: 60 }).map((parts) => parts.join(''));

test('any text gives well-formed, escaped HTML with only http(s) and mailto links', () => {
  fc.assert(fc.property(fc.oneof(MARKDOWN_ISH, fc.string({ unit: 'binary', maxLength: 200 })), (text) => {
    assertWellFormed(renderMarkdown(text).html);
  }), { numRuns: 400 });
});

// Digits may go: a list's numbers become its start (and the rest are counted, not shown).
test('every letter of the text is still there, in order', () => {
  fc.assert(fc.property(MARKDOWN_ISH, (text) => {
    const shown = renderMarkdown(text).html.replace(/<a [^>]*>/g, '').replace(TAG, '').replace(/&(?:amp|lt|gt|quot|#39);/g, '');
    const words = (value: string): string => value.replace(/[^A-Za-z]/g, '');
    assert.equal(words(shown), words(text));
  }), { numRuns: 300 });
});

test('a long text of openers renders in one pass', () => {
  const text = '*a _b `c '.repeat(500);
  assert.equal(renderMarkdown(text).html.length > text.length, true);
});
