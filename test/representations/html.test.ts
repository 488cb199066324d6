// The HTML renderer: hostile strings stay inert everywhere, the CSP matches, links and the login form work.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { HTML_CONTENT_SECURITY_POLICY, renderHtml, type HtmlOptions } from '../../src/representations/html.ts';
import type { Representation } from '../../src/representations/representation.ts';
import { LIVE_SCRIPT } from '../../src/representations/live-script.ts';

const TAGS = new Set(
  ('html head meta title style body nav main h1 p a dl dt dd ul ol li table thead tbody tr th td ' +
    'code span strong time form label input button img div bdi header section h2 textarea article br ' +
    // The head's icons and manifest; message text's Markdown subset (pre, blockquote, em) and mentions (mark).
    'link pre blockquote em mark').split(' '),
);
const ATTRIBUTES = new Set(
  ('lang charset name content aria-label rel href class scope datetime role method action enctype ' +
    'for id type autocomplete autocapitalize spellcheck required value src alt dir tabindex aria-labelledby ' +
    'aria-hidden aria-invalid aria-describedby aria-pressed title minlength maxlength rows sizes start').split(' '),
);
const URL_ATTRIBUTES = new Set(['href', 'src', 'action']);
const OPEN_TAG = /^<([a-z0-9]+)((?:\s+[a-z-]+(?:="[^"<>]*")?)*)\s*>/;
const ATTRIBUTE = /\s+([a-z-]+)(?:="([^"]*)")?/g;

/**
 * Every '<' in the page starts one of the renderer's own tags, with only its own attributes,
 * and every URL in an attribute is a same-origin path: so no user string became markup.
 */
function assertOnlyOwnMarkup(html: string): void {
  assert.ok(html.startsWith('<!doctype html>\n<html lang="en">'));
  const body = html.slice('<!doctype html>'.length);
  assert.doesNotMatch(body, /<script/i);
  for (let at = body.indexOf('<'); at >= 0; at = body.indexOf('<', at + 1)) {
    const rest = body.slice(at);
    const close = /^<\/([a-z0-9]+)>/.exec(rest);
    if (close !== null) {
      assert.ok(TAGS.has(close[1] ?? ''), `closing tag ${close[0]}`);
      continue;
    }
    const open = OPEN_TAG.exec(rest);
    assert.ok(open !== null, `stray '<' at ${rest.slice(0, 40)}`);
    assert.ok(TAGS.has(open[1] ?? ''), `tag ${open[0]}`);
    for (const [, name = '', value = ''] of (open[2] ?? '').matchAll(ATTRIBUTE)) {
      assert.ok(ATTRIBUTES.has(name), `attribute ${name} in ${open[0]}`);
      // A same-origin path, or the skip link's fragment of this very page; a link a message's text holds (rel ugc)
      // goes only to http(s) or mailto.
      const external = name === 'href' && open[0].includes(' rel="noopener nofollow ugc"');
      if (URL_ATTRIBUTES.has(name)) assert.match(value, external ? /^(?:https?:\/\/|mailto:)/i : /^(?:\/(?![/\\])|#main$)/, `${name}="${value}"`);
    }
  }
}

const XSS = '<script>alert(1)</script>';
const BREAKOUT = '"><img src=x onerror=alert(1)>';
const JS_HREF = 'javascript:alert(1)';
const options: HtmlOptions = { basePath: '', status: 200 };

const hostilePages: { what: string; input: Representation; options?: HtmlOptions }[] = [
  {
    what: 'field values, names and nested values of a single resource',
    input: {
      kind: 'single',
      type: 'chat',
      enveloped: true,
      data: { id: XSS, title: BREAKOUT, [XSS]: BREAKOUT, members: [XSS, { [BREAKOUT]: [XSS] }], createdAt: BREAKOUT },
    },
  },
  {
    what: 'link hrefs, rels and titles',
    input: {
      kind: 'single',
      type: 'user',
      enveloped: false,
      data: { id: 'u1' },
      links: [
        { rel: 'avatar', href: JS_HREF, title: XSS },
        { rel: BREAKOUT, href: `/users/${BREAKOUT}`, title: BREAKOUT },
        { rel: 'next', href: '//evil.example/x' },
        { rel: 'prev', href: '/\\evil.example/x' },
        { rel: 'related', href: '/\t/evil.example' },
        { rel: 'related', href: ' /x' },
      ],
    },
  },
  {
    what: 'action hrefs',
    input: { kind: 'single', type: 'action', enveloped: true, data: { id: 'edit', method: XSS, href: JS_HREF } },
  },
  {
    what: 'an avatar image path',
    input: { kind: 'single', type: 'avatar', enveloped: false, data: { id: 'a1', avatar: 'javascript:alert(1)//.png' } },
  },
  {
    what: 'collection cells, column names and item links',
    input: {
      kind: 'collection',
      type: 'user',
      data: [{ id: XSS, login: BREAKOUT }, { [BREAKOUT]: XSS, id: 'u2' }],
      meta: { total: 2, limit: 20, offset: 0 },
    },
    options: { ...options, itemHref: (item) => (item['id'] === 'u2' ? JS_HREF : `/users/${String(item['id'])}`) },
  },
  {
    what: 'messages: author, time, reply and text',
    input: {
      kind: 'collection',
      type: 'message',
      data: [{ id: XSS, authorId: BREAKOUT, createdAt: BREAKOUT, replyTo: XSS, text: `${XSS}\n${BREAKOUT}` }],
      meta: { total: 1, limit: 20, offset: 0 },
      links: [{ rel: 'next', href: JS_HREF }],
    },
    options: { ...options, itemHref: () => JS_HREF },
  },
  {
    what: 'a problem with field errors',
    input: {
      kind: 'problem',
      data: {
        type: XSS,
        title: BREAKOUT,
        status: 400,
        detail: XSS,
        code: BREAKOUT,
        errors: [{ field: XSS, message: BREAKOUT }],
      },
    },
  },
  {
    what: 'fields and rels named after Object.prototype members',
    input: {
      kind: 'single',
      type: 'chat',
      enveloped: true,
      data: { toString: XSS, constructor: [BREAKOUT] },
      links: [{ rel: 'toString', href: '/x' }, { rel: 'hasOwnProperty', href: '/y' }],
    },
  },
  {
    what: 'the login form error and login',
    input: { kind: 'single', type: 'login-form', enveloped: false, data: { error: XSS, login: BREAKOUT } },
  },
  {
    what: 'session fields',
    input: { kind: 'single', type: 'session', enveloped: false, data: { userId: XSS, expiresAt: BREAKOUT } },
  },
];

for (const { what, input, options: given } of hostilePages) {
  test(`renderHtml escapes ${what}`, () => {
    const html = renderHtml(input, given ?? options);
    assertOnlyOwnMarkup(html);
    assert.doesNotMatch(html, /<img src=x/);
    assert.doesNotMatch(html, /javascript:alert\(1\)"/);
    assert.ok(!html.includes(XSS) && !html.includes(BREAKOUT), 'a payload left unescaped');
  });
}

test('renderHtml: any text in any place leaves only the renderer’s own markup', () => {
  const text = fc.oneof(
    fc.string({ unit: 'binary' }),
    fc.constantFrom(XSS, BREAKOUT, JS_HREF, '/ok', '//x', '</style>', '&lt;'),
  );
  const meta = { total: 1, limit: 1, offset: 0 };
  fc.assert(
    fc.property(text, text, text, (a, b, c) => {
      const links = [{ rel: a, href: b, title: c }];
      assertOnlyOwnMarkup(renderHtml({ kind: 'single', type: 'chat', enveloped: true, data: { [a]: b, href: c }, links }, options));
      const messages: Representation = { kind: 'collection', type: 'message', data: [{ id: a, authorId: b, text: c }], meta };
      assertOnlyOwnMarkup(renderHtml(messages, { ...options, basePath: '/api', itemHref: () => c }));
      const users: Representation = { kind: 'collection', type: 'user', data: [{ id: a, [b]: c }], meta, links };
      assertOnlyOwnMarkup(renderHtml(users, { ...options, itemHref: () => b }));
    }),
    { numRuns: 500 },
  );
});

test('HTML_CONTENT_SECURITY_POLICY allows the exact inline stylesheet and only the live-update script', () => {
  const html = renderHtml({ kind: 'single', type: 'user', enveloped: false, data: {} }, options);
  const styles = [...html.matchAll(/<style>([^<]*)<\/style>/g)];
  assert.equal(styles.length, 1);
  const hash = createHash('sha256').update(styles[0]?.[1] ?? '', 'utf8').digest('base64');
  assert.ok(HTML_CONTENT_SECURITY_POLICY.includes(`style-src 'sha256-${hash}'`), HTML_CONTENT_SECURITY_POLICY);
  assert.match(HTML_CONTENT_SECURITY_POLICY, /^default-src 'none';/);
  assert.doesNotMatch(HTML_CONTENT_SECURITY_POLICY, /unsafe-/);
  // One script may run: the live-update script, by its hash, and it may only talk to this origin.
  const scripts = HTML_CONTENT_SECURITY_POLICY.match(/script-src [^;]*/g) ?? [];
  assert.deepEqual(scripts, [`script-src 'sha256-${createHash('sha256').update(LIVE_SCRIPT, 'utf8').digest('base64')}'`]);
  assert.match(HTML_CONTENT_SECURITY_POLICY, /connect-src 'self'/);
  assert.match(HTML_CONTENT_SECURITY_POLICY, /frame-ancestors 'none'/);
  assert.doesNotMatch(html, /\sstyle=/, 'a style attribute would need unsafe-inline');
});

const pages: { what: string; input: Representation; options: HtmlOptions; expected: string[] }[] = [
  {
    what: 'next and previous page links, labelled',
    input: {
      kind: 'collection',
      type: 'chat',
      data: [{ id: 'c3', title: 'Third' }],
      meta: { total: 5, limit: 1, offset: 2 },
      links: [
        { rel: 'next', href: '/api/chats?limit=1&offset=3' },
        { rel: 'prev', href: '/api/chats?limit=1&offset=1' },
      ],
    },
    options: { basePath: '/api', status: 200, itemHref: (item) => `/api/chats/${String(item['id'])}` },
    expected: [
      '<a rel="next" href="/api/chats?limit=1&amp;offset=3">Next page</a>',
      '<a rel="prev" href="/api/chats?limit=1&amp;offset=1">Previous page</a>',
      'Items 3 to 3 of 5.',
      '<td><bdi><a href="/api/chats/c3">c3</a></bdi></td>',
      '<th scope="col">title</th><th scope="col">id</th>',
      '<td><bdi><a href="/api/chats/c3">Third</a></bdi></td>',
      '<a href="/api/chats">Chats</a>',
      '<a href="/api/users">Users</a>',
      '<a href="/api/session">Session</a>',
    ],
  },
  {
    what: 'ids of other resources link to their pages; previous comes before next',
    input: {
      kind: 'single',
      type: 'chat',
      enveloped: true,
      data: { id: 'c1', title: 'Team', ownerId: 'u1', members: ['u1', 'u 2'], replyTo: null },
      links: [
        { rel: 'next', href: '/n' },
        { rel: 'messages', href: '/api/chats/c1/messages' },
        { rel: 'prev', href: '/p' },
      ],
    },
    options: { basePath: '/api', status: 200 },
    expected: [
      '<h1 dir="auto">Chat Team</h1>',
      '<dt>ownerId</dt><dd><a href="/api/users/u1">u1</a></dd>',
      '<ul><li><a href="/api/users/u1">u1</a></li><li><a href="/api/users/u%202">u 2</a></li></ul>',
      '<ul class="related"><li><a rel="prev" href="/p">Previous page</a></li><li><a rel="next" href="/n">Next page</a></li>' +
        '<li><a rel="messages" href="/api/chats/c1/messages">Messages</a></li></ul>',
    ],
  },
  {
    what: 'the login form',
    input: { kind: 'single', type: 'login-form', enveloped: false, data: {} },
    options: { basePath: '/api', status: 200 },
    expected: [
      '<form method="post" action="/api/session" enctype="application/x-www-form-urlencoded">',
      '<input id="login" name="login" type="text" autocomplete="username"',
      '<input id="password" name="password" type="password" autocomplete="current-password" required>',
      '<button type="submit">Log in</button>',
    ],
  },
  {
    what: 'a 401 problem links to the login form',
    input: {
      kind: 'problem',
      data: {
        type: 'about:blank',
        title: 'Authentication required',
        status: 401,
        detail: 'Log in first.',
        code: 'ERR_UNAUTHENTICATED',
      },
    },
    options: { basePath: '', status: 401 },
    expected: ['<h1 dir="auto">401 Authentication required</h1>', '<p>Log in first.</p>', '<a href="/session">Log in</a>'],
  },
  {
    what: 'the session page says how to log out',
    input: { kind: 'single', type: 'session', enveloped: false, data: { userId: 'u1', expiresAt: '2026-11-22T09:30:00.000Z' } },
    options: { basePath: '', status: 200 },
    expected: ['<h1 dir="auto">Your session</h1>', '<dt>userId</dt><dd><a href="/users/u1">u1</a></dd>', 'To log out, send <code>DELETE /session</code>.'],
  },
  {
    what: 'messages keep their whitespace; the time links to the message',
    input: {
      kind: 'collection',
      type: 'message',
      data: [{ id: 'm1', authorId: 'u1', createdAt: '2026-11-21T09:30:00.000Z', text: 'line 1\n  line 2' }],
      meta: { total: 1, limit: 20, offset: 0 },
    },
    options: { basePath: '', status: 200, itemHref: (item) => `/chats/c1/messages/${String(item['id'])}` },
    expected: [
      '<p class="text" dir="auto">line 1\n  line 2</p>',
      '.text{white-space:pre-wrap',
      '<strong><a href="/users/u1">u1</a></strong>',
      '<a href="/chats/c1/messages/m1"><time datetime="2026-11-21T09:30:00.000Z"><span>2026-11-21</span> <span>09:30:00 UTC</span></time></a>',
    ],
  },
];

pages.push({
  what: 'a reply names the message it answers by its top-level path',
  input: { kind: 'single', type: 'message', enveloped: true, data: { id: 'm2', replyTo: 'm 1' } },
  options: { basePath: '/api', status: 200 },
  expected: ['<dt>replyTo</dt><dd><a href="/api/messages/m%201">m 1</a></dd>'],
});

for (const { what, input, options: given, expected } of pages) {
  test(`renderHtml: ${what}`, () => {
    const html = renderHtml(input, given);
    assertOnlyOwnMarkup(html);
    for (const fragment of expected) assert.ok(html.includes(fragment), `missing ${fragment}`);
  });
}

test('renderHtml: a non-401 problem has no login link', () => {
  const data = { type: 'about:blank', title: 'Not Found', status: 404, detail: 'No such chat.', code: 'ERR_NOT_FOUND' };
  const html = renderHtml({ kind: 'problem', data }, options);
  assert.doesNotMatch(html, />Log in</);
});

test('renderHtml: the avatars page finds whose avatars it shows in its own path, under the base path and percent-encoded', () => {
  const html = renderHtml({
    kind: 'collection',
    type: 'avatar',
    data: [],
    meta: { total: 0, limit: 5, offset: 0 },
    page: { basePath: '/api', users: { 'u 1': { id: 'u 1', login: 'ann' } }, replied: {}, self: '/api/users/u%201/avatar?limit=5' },
  }, { basePath: '/api', status: 200 });
  for (const fragment of ['<h1 dir="auto">Avatars of ann</h1>', '<p><a class="user" href="/api/users/u%201"><bdi>ann</bdi></a></p>', 'No avatars yet.']) {
    assert.ok(html.includes(fragment), `missing ${fragment}`);
  }
});
