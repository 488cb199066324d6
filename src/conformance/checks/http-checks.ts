// docs/protocol.md §7.1 to §7.6 and §7.9: methods, bodies, representations, errors, the service's own resources.
import { PATHS } from '../../paths.ts';
import { expectEqual, expectHeader, expectMatch, expectProblem, expectStatus, expectTrue, readHeader, hasListItem } from '../expect.ts';
import { check } from './define.ts';

const HOSTILE = '<b>"Tom" & \'Jerry\'</b>';

export const HTTP_CHECKS = [
  check('core.methods.options', '§7.1', 'OPTIONS on every known path: 204 with Allow, and Accept-Patch where PATCH is allowed; no session needed', async (ctx) => {
    const reply = await ctx.call('OPTIONS', ctx.at(PATHS.chat, { chatId: ctx.unique('any') }));
    expectStatus(reply, 204);
    for (const method of ['GET', 'HEAD', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) expectTrue(hasListItem(reply, 'allow', method), `Allow names ${method}: ${readHeader(reply, 'allow')}`);
    expectMatch(readHeader(reply, 'accept-patch'), /application\/json/, 'Accept-Patch');
  }),
  check('core.methods.405', '§7.1', 'A method the path does not support: 405 ERR_METHOD_NOT_ALLOWED with the same Allow', async (ctx) => {
    const alice = await ctx.user('alice');
    const path = ctx.at(PATHS.chat, { chatId: ctx.unique('any') });
    const reply = await ctx.call('POST', path, { token: alice.token, json: { data: {} } });
    expectProblem(reply, 405, 'ERR_METHOD_NOT_ALLOWED');
    expectEqual(readHeader(reply, 'allow'), readHeader(await ctx.call('OPTIONS', path), 'allow'), 'Allow of the 405 and of OPTIONS');
  }),
  check('core.methods.unknown-path-404', '§7.1', 'A path that matches no route: 404', async (ctx) => {
    const alice = await ctx.user('alice');
    expectProblem(await ctx.call('GET', `${PATHS.chats}/a/b/c/d/e`, { token: alice.token }), 404);
  }),
  check('core.methods.head', '§7.1', 'HEAD wherever GET is allowed: the same status and headers, Content-Length of the GET included, and no body', async (ctx) => {
    const alice = await ctx.user('alice');
    const chat = await ctx.chat(alice);
    const path = ctx.at(PATHS.chat, { chatId: chat.id });
    const [get, head] = [await ctx.call('GET', path, { token: alice.token }), await ctx.call('HEAD', path, { token: alice.token })];
    expectStatus(head, 200);
    for (const name of ['content-type', 'content-length', 'etag']) expectEqual(readHeader(head, name), readHeader(get, name), `HEAD's ${name}`);
    expectEqual(head.raw.length, 0, 'bytes of the HEAD body');
  }),
  check('core.bodies.media-type-415', '§7.2', 'A JSON body MUST come with Content-Type: application/json; another type: 415 with Accept-Post', async (ctx) => {
    const alice = await ctx.user('alice');
    const reply = await ctx.call('POST', PATHS.chats, { token: alice.token, body: JSON.stringify({ data: { title: 'x' } }), headers: { 'Content-Type': 'text/plain' } });
    expectProblem(reply, 415, 'ERR_UNSUPPORTED_MEDIA_TYPE');
    expectMatch(readHeader(reply, 'accept-post'), /application\/json/, 'Accept-Post');
  }),
  check('core.bodies.merge-patch', '§7.2', 'PATCH also takes application/merge-patch+json', async (ctx) => {
    const alice = await ctx.user('alice');
    const chat = await ctx.chat(alice);
    const reply = await ctx.call('PATCH', ctx.at(PATHS.chat, { chatId: chat.id }), { token: alice.token, body: JSON.stringify({ data: { title: 'merged' } }), headers: { 'Content-Type': 'application/merge-patch+json' } });
    expectStatus(reply, 200);
    expectEqual(reply.json.data.title, 'merged', 'title');
  }),
  check('core.bodies.bad-json-400', '§7.2', 'Unparseable JSON or a body that is not an object: 400 ERR_BAD_JSON', async (ctx) => {
    const alice = await ctx.user('alice');
    for (const body of ['{"data": {"title": "x"', '[1, 2]', '"text"']) {
      expectProblem(await ctx.call('POST', PATHS.chats, { token: alice.token, body, headers: { 'Content-Type': 'application/json' } }), 400, 'ERR_BAD_JSON');
    }
  }),
  check('core.forms.no-override', '§7.3', '_method MUST be honoured nowhere else (not in JSON, the query string or any header)', async (ctx) => {
    const alice = await ctx.user('alice');
    const chat = await ctx.chat(alice);
    const path = ctx.at(PATHS.chat, { chatId: chat.id });
    expectProblem(await ctx.call('POST', `${path}?_method=DELETE`, { token: alice.token, json: { data: {} } }), 405);
    expectProblem(await ctx.call('POST', path, { token: alice.token, json: { _method: 'DELETE', data: {} }, headers: { 'X-HTTP-Method-Override': 'DELETE' } }), 405);
    expectStatus(await ctx.call('GET', path, { token: alice.token }), 200);
  }),
  check('core.representations.json-default', '§7.4', 'JSON is the default, also for no Accept and for */*', async (ctx) => {
    const alice = await ctx.user('alice');
    for (const accept of [undefined, '*/*', 'application/*']) {
      const reply = await ctx.call('GET', PATHS.session, { token: alice.token, headers: accept === undefined ? {} : { Accept: accept } });
      expectMatch(readHeader(reply, 'content-type'), /^application\/json\b/, `Content-Type for Accept ${accept ?? '(none)'}`);
    }
  }),
  check('core.representations.xml', '§7.4', 'XML (application/xml), chosen by Accept', async (ctx) => {
    const alice = await ctx.user('alice');
    const chat = await ctx.chat(alice);
    const reply = await ctx.call('GET', ctx.at(PATHS.chat, { chatId: chat.id }), { token: alice.token, headers: { Accept: 'application/xml' } });
    expectStatus(reply, 200);
    expectMatch(readHeader(reply, 'content-type'), /^application\/xml\b/, 'Content-Type');
    expectMatch(reply.text, /^(<\?xml[^>]*\?>\s*)?<[A-Za-z]/, 'the XML body');
    expectTrue(reply.text.includes(chat.id), 'the XML names the chat\'s id');
  }),
  check('core.representations.html', '§7.4', 'HTML (text/html) is a readable page; every HTML answer carries a Content-Security-Policy', async (ctx) => {
    const alice = await ctx.user('alice');
    const chat = await ctx.chat(alice);
    const reply = await ctx.call('GET', ctx.at(PATHS.chat, { chatId: chat.id }), { token: alice.token, headers: { Accept: 'text/html' } });
    expectStatus(reply, 200);
    expectMatch(readHeader(reply, 'content-type'), /^text\/html\b/, 'Content-Type');
    expectMatch(reply.text, /<html[\s>]/i, 'the page');
    expectMatch(readHeader(reply, 'content-security-policy'), /default-src/, 'Content-Security-Policy');
  }),
  check('core.representations.weights', '§7.4', 'The most specific matching range gives each type its weight; equal weights go to JSON, then XML, then HTML', async (ctx) => {
    const alice = await ctx.user('alice');
    const cases: [string, RegExp][] = [
      ['text/html;q=0.5, application/xml', /^application\/xml/], ['text/html, application/xml', /^application\/xml/],
      ['text/*, application/json;q=0.1', /^text\/html/], ['application/*;q=0.2, application/xml;q=0.9', /^application\/xml/],
      ['bogus, text/html', /^text\/html/],
    ];
    for (const [accept, expected] of cases) {
      expectMatch(readHeader(await ctx.call('GET', PATHS.session, { token: alice.token, headers: { Accept: accept } }), 'content-type'), expected, `Content-Type for Accept: ${accept}`);
    }
  }),
  check('core.representations.406', '§7.4', 'An Accept that excludes all three answers 406 ERR_NOT_ACCEPTABLE as application/problem+json, before authentication, without Vary', async (ctx) => {
    const reply = await ctx.call('GET', PATHS.chats, { headers: { Accept: 'image/png' } });
    expectProblem(reply, 406, 'ERR_NOT_ACCEPTABLE');
    expectTrue(!hasListItem(reply, 'vary', 'accept'), 'the 406 carries no Vary: Accept');
  }),
  check('core.representations.vary', '§7.4', 'Negotiated answers, errors included, carry Vary: Accept; /openapi.json and OPTIONS do not', async (ctx) => {
    const alice = await ctx.user('alice');
    expectTrue(hasListItem(await ctx.call('GET', PATHS.session, { token: alice.token }), 'vary', 'accept'), 'GET /session has Vary: Accept');
    expectTrue(hasListItem(await ctx.call('GET', PATHS.chats), 'vary', 'accept'), 'a 401 has Vary: Accept');
    expectTrue(!hasListItem(await ctx.call('GET', PATHS.openApi), 'vary', 'accept'), '/openapi.json has no Vary: Accept');
    expectTrue(!hasListItem(await ctx.call('OPTIONS', PATHS.chats), 'vary', 'accept'), 'OPTIONS has no Vary: Accept');
  }),
  check('core.representations.escaping', '§7.4', 'Every user-supplied string MUST be escaped in XML and HTML', async (ctx) => {
    const alice = await ctx.user('alice');
    const chat = await ctx.chat(alice, [], HOSTILE);
    const path = ctx.at(PATHS.chat, { chatId: chat.id });
    for (const accept of ['text/html', 'application/xml']) {
      const reply = await ctx.call('GET', path, { token: alice.token, headers: { Accept: accept } });
      expectStatus(reply, 200);
      expectTrue(!reply.text.includes('<b>"Tom"'), `the ${accept} answer holds the title unescaped`);
      expectMatch(reply.text, /&lt;b&gt;/, `the escaped title in ${accept}`);
    }
  }),
  check('core.errors.problem-json', '§7.5', 'Every error is a problem document: application/problem+json with type, title, status, detail and code', async (ctx) => {
    const alice = await ctx.user('alice');
    const reply = await ctx.call('GET', ctx.at(PATHS.chat, { chatId: ctx.unique('missing') }), { token: alice.token });
    expectProblem(reply, 404, 'ERR_NOT_FOUND');
    for (const field of ['type', 'title', 'detail', 'code']) expectEqual(typeof reply.json[field], 'string', `the type of ${field}`);
    expectEqual(reply.json.status, 404, 'status');
  }),
  check('core.errors.problem-xml', '§7.5', 'application/problem+xml or an HTML page when that representation was negotiated', async (ctx) => {
    const alice = await ctx.user('alice');
    const path = ctx.at(PATHS.chat, { chatId: ctx.unique('missing') });
    const xml = await ctx.call('GET', path, { token: alice.token, headers: { Accept: 'application/xml' } });
    expectStatus(xml, 404);
    expectMatch(readHeader(xml, 'content-type'), /^application\/problem\+xml\b/, 'Content-Type');
    const html = await ctx.call('GET', path, { token: alice.token, headers: { Accept: 'text/html' } });
    expectStatus(html, 404);
    expectMatch(readHeader(html, 'content-type'), /^text\/html\b/, 'Content-Type');
  }),
  check('core.status.field-errors', '§7.6', '400: malformed request or broken rule; errors name the field', async (ctx) => {
    const alice = await ctx.user('alice');
    const reply = await ctx.call('POST', PATHS.chats, { token: alice.token, json: { data: { title: 7 } } });
    expectProblem(reply, 400, 'ERR_VALIDATION', 'data.title');
    expectEqual(typeof reply.json.errors[0].message, 'string', 'the type of errors[0].message');
  }),
  check('core.service.index', '§7.9', 'GET /: {"name", "version", "links": {...}}', async (ctx) => {
    const reply = await ctx.call('GET', PATHS.index);
    expectStatus(reply, 200);
    expectEqual([typeof reply.json.name, typeof reply.json.version, typeof reply.json.links], ['string', 'string', 'object'], 'the types of name, version, links');
  }),
  check('core.service.health', '§7.9', 'GET /health: 200 {"status": "ok"}', async (ctx) => {
    const reply = await ctx.call('GET', PATHS.health);
    expectStatus(reply, 200);
    expectEqual(reply.json, { status: 'ok' }, 'the body');
  }),
  check('core.service.openapi', '§7.9', 'GET /openapi.json: an OpenAPI 3.1 document with an ETag; /docs the same as one HTML page', async (ctx) => {
    const reply = await ctx.call('GET', PATHS.openApi, { headers: { Accept: 'application/xml' } });
    expectStatus(reply, 200);
    expectMatch(reply.json?.openapi, /^3\.1\./, 'openapi');
    expectMatch(readHeader(reply, 'etag'), /^"[^"]+"$/, 'ETag');
    expectTrue(typeof reply.json.paths === 'object' && Object.keys(reply.json.paths).length > 0, 'the document has paths');
    const docs = await ctx.call('GET', PATHS.docs);
    expectStatus(docs, 200);
    expectMatch(readHeader(docs, 'content-type'), /^text\/html\b/, 'Content-Type of /docs');
    expectMatch(readHeader(docs, 'etag'), /^"[^"]+"$/, 'ETag of /docs');
  }),
  check('core.headers.common', '§7.8', 'Every answer carries X-Request-Id, X-Content-Type-Options: nosniff and Referrer-Policy: same-origin', async (ctx) => {
    const alice = await ctx.user('alice');
    for (const reply of [await ctx.call('GET', PATHS.session, { token: alice.token }), await ctx.call('GET', PATHS.chats), await ctx.call('OPTIONS', PATHS.users)]) {
      expectMatch(readHeader(reply, 'x-request-id'), /\S/, 'X-Request-Id');
      expectHeader(reply, 'x-content-type-options', 'nosniff');
      expectHeader(reply, 'referrer-policy', 'same-origin');
    }
  }),
  check('core.status.no-body', '§7.1', '204 and 304 answers have no body', async (ctx) => {
    const alice = await ctx.user('alice');
    const options = await ctx.call('OPTIONS', PATHS.chats);
    expectEqual(options.raw.length, 0, 'bytes of a 204');
    const chat = await ctx.chat(alice);
    const get = await ctx.call('GET', ctx.at(PATHS.chat, { chatId: chat.id }), { token: alice.token });
    const again = await ctx.call('GET', ctx.at(PATHS.chat, { chatId: chat.id }), { token: alice.token, headers: { 'If-None-Match': readHeader(get, 'etag') ?? '"none"' } });
    expectStatus(again, 304);
    expectEqual(again.raw.length, 0, 'bytes of a 304');
  }),
];
