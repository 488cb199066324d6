// Every GET route in JSON, XML and HTML over a real socket: the three agree, negotiation, 406, ETags, HEAD, escaping.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { Route } from '../../src/resources/context.ts';
import type { RunningServer } from '../../src/index.ts';
import { ALL_ROUTES } from '../../src/resources/all-routes.ts';
import { LIVE_SCRIPT } from '../../src/representations/live-script.ts';
import { call, startTestServer, registerAndLogIn, type LoggedIn, type TestResponse } from './client.ts';

const XSS = '<script>alert(1)</script>';
const BREAKOUT = '"><img src=x onerror=alert(1)>';
const HOSTILE = `${XSS} ${BREAKOUT} & 'quoted'`;
const JSON_TYPE = 'application/json';
const XML_TYPE = 'application/xml';
const HTML_TYPE = 'text/html';
// A 1x1 PNG, for the avatar fixtures.
const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
// Query strings a route needs to answer 200 at all.
const ROUTE_QUERY: Record<string, string> = { '/search': 'q=hello', '/events': 'after=0&wait=0' };
// The root element (single) or collection type (list) each known pattern answers; new routes are checked without it.
const EXPECTED_TYPE: Record<string, string> = {
  '/health': 'health',
  '/users': 'user',
  '/users/:userId': 'user',
  '/session': 'session',
  '/chats': 'chat',
  '/chats/:chatId': 'chat',
  '/chats/:chatId/members': 'member',
  '/chats/:chatId/members/:userId': 'member',
  '/chats/:chatId/messages': 'message',
  '/chats/:chatId/messages/:messageId': 'message',
  '/messages/:messageId': 'message',
  '/chats/:chatId/messages/:messageId/actions': 'action',
  '/messages/:messageId/actions': 'action',
  '/users/:userId/avatar': 'avatar',
  '/users/:userId/avatar/:avatarId': 'avatar',
  '/events': 'event',
  '/chats/:chatId/read': 'read-marker',
  '/chats/:chatId/messages/:messageId/reactions': 'reaction',
  '/chats/:chatId/messages/:messageId/reactions/:emoji': 'reaction',
  '/messages/:messageId/reactions': 'reaction',
  '/messages/:messageId/reactions/:emoji': 'reaction',
  '/chats/:chatId/messages/:messageId/revisions': 'revision',
  '/chats/:chatId/messages/:messageId/revisions/:revisionId': 'revision',
  '/messages/:messageId/revisions': 'revision',
  '/messages/:messageId/revisions/:revisionId': 'revision',
  '/audit': 'auditEntry',
  '/audit/:entryId': 'auditEntry',
  '/invites': 'invite',
  '/invites/:inviteId': 'invite',
  '/join/:code': 'invite-status',
  '/admin': 'admin',
  '/users/:userId/sessions': 'user-session',
  '/users/:userId/sessions/:sessionId': 'user-session',
  '/users/:userId/export': 'export',
  '/users/:userId/tokens': 'token',
  '/users/:userId/tokens/:tokenId': 'token',
  '/chats/:chatId/webhooks': 'webhook',
  '/chats/:chatId/webhooks/:hookId': 'webhook',
  '/chats/:chatId/webhooks/:hookId/deliveries': 'delivery',
  '/chats/:chatId/webhooks/:hookId/deliveries/:deliveryId': 'delivery',
};

/** Independent of the renderer's escapeHtml: what a user string must look like inside the page. */
function escapeForHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

const xmlParser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  ignoreDeclaration: true,
  // Every element is an array, so one shape fits every depth.
  isArray: (_name, _path, _leaf, isAttribute) => !isAttribute,
});

/** A well-formed document (by a real parser) as { rootName, root }. */
function parseXml(xml: string): { name: string; root: Record<string, any> } {
  assert.equal(XMLValidator.validate(xml), true, xml);
  assert.ok(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n'));
  const document = xmlParser.parse(xml) as Record<string, unknown[]>;
  const names = Object.keys(document);
  assert.equal(names.length, 1, `one root element: ${names.join(', ')}`);
  const name = names[0]!;
  const root = document[name]![0];
  return { name, root: typeof root === 'object' && root !== null ? (root as Record<string, any>) : {} };
}

function childNames(node: Record<string, unknown>): string[] {
  return Object.keys(node).filter((key) => !key.startsWith('@') && key !== '#text' && key !== 'atom:link').sort();
}

/** The docs/xml.md mapping, read back: the element holds the same values as the JSON, as text. */
function assertXmlMatchesJson(node: unknown, value: unknown, where: string): void {
  if (value === null) {
    assert.equal((node as Record<string, unknown>)['@nil'], 'true', `${where} is nil`);
  } else if (Array.isArray(value)) {
    if (value.length === 0) return assert.equal(node, '', `${where} is empty`);
    const items = (node as Record<string, unknown[]>)['item'] ?? [];
    assert.equal(items.length, value.length, `${where} entries`);
    value.forEach((entry, i) => assertXmlMatchesJson(items[i], entry, `${where}[${i}]`));
  } else if (typeof value === 'object') {
    const element = node as Record<string, unknown[]>;
    assert.deepEqual(childNames(element), Object.keys(value).sort(), `${where} fields`);
    for (const [key, child] of Object.entries(value)) assertXmlMatchesJson(element[key]![0], child, `${where}.${key}`);
  } else {
    assert.equal(node, String(value), where);
  }
}

function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(stringsIn);
  return [];
}

function atomLinks(root: Record<string, any>): { rel: string; href: string }[] {
  return ((root['atom:link'] ?? []) as Record<string, string>[]).map((link) => ({ rel: link['@rel']!, href: link['@href']! }));
}

function linkHeader(res: TestResponse): Record<string, string> {
  const links: Record<string, string> = {};
  for (const [, href = '', rel = ''] of String(res.headers['link'] ?? '').matchAll(/<([^>]*)>;\s*rel="([^"]*)"/g)) links[rel] = href;
  return links;
}

interface Fixture {
  server: RunningServer;
  owner: LoggedIn;
  params: Record<string, string>;
}

function hasRoute(method: string, pattern: string): boolean {
  return ALL_ROUTES.some((route) => route.method === method && route.pattern === pattern);
}

async function created(res: Promise<TestResponse>, what: string): Promise<any> {
  const answer = await res;
  assert.equal(answer.status, 201, `${what}: ${answer.text}`);
  return answer.body.data ?? answer.body;
}

/** Three of everything the route table can create, so every collection has a previous and a next page. */
async function buildFixture(): Promise<Fixture> {
  // Outgoing webhooks may target a closed loopback port: their deliveries fail, which is all the fixture needs.
  const server = await startTestServer({ webhookAllowPrivate: true, pushAllowInsecure: true });
  const owner = await registerAndLogIn(server);
  const others = [await registerAndLogIn(server), await registerAndLogIn(server)];
  const params: Record<string, string> = { userId: owner.userId };
  const post = (path: string, json: unknown) => call(server, 'POST', path, { token: owner.token, json });
  if (hasRoute('POST', '/chats')) {
    const titles = [`Team ${HOSTILE}`, 'hello chat two', 'hello chat three'];
    const members = others.map((other) => other.userId);
    const chats = [];
    for (const title of titles) chats.push(await created(post('/chats', { data: { title, members } }), 'chat'));
    params['chatId'] = chats[0].id;
    if (hasRoute('GET', '/mentions')) {
      // Three messages in another chat that mention the owner (docs/protocol.md §14.2), so GET /mentions pages.
      for (let i = 0; i < 3; i++) {
        const res = await call(server, 'POST', `/chats/${chats[1].id}/messages`, { token: others[0]!.token, json: { data: { text: `@${owner.login} look ${i} ${HOSTILE}` } } });
        assert.equal(res.status, 201, `mention: ${res.text}`);
      }
    }
  }
  if (params['chatId'] !== undefined && hasRoute('POST', '/chats/:chatId/messages')) {
    const texts = ['hello, first', `hello ${HOSTILE}`, 'hello\nthird line'];
    const messages = [];
    for (const text of texts) messages.push(await created(post(`/chats/${params['chatId']}/messages`, { data: { text } }), 'message'));
    params['messageId'] = messages[1].id;
    const messagePath = `/chats/${params['chatId']}/messages/${params['messageId']}`;
    if (hasRoute('PUT', '/chats/:chatId/messages/:messageId/reactions/:emoji')) {
      // Three reactions (one of them markup), so the collection pages; the owner's own is the single one.
      const reactions = [[owner, '👍'], [others[0]!, `"><b>&'`], [others[1]!, '👍']] as const;
      for (const [user, emoji] of reactions) {
        const res = await call(server, 'PUT', `${messagePath}/reactions/${encodeURIComponent(emoji)}`, { token: user.token });
        assert.equal(res.status, 201, `reaction: ${res.text}`);
      }
      params['emoji'] = '👍';
    }
    if (hasRoute('GET', '/chats/:chatId/messages/:messageId/revisions')) {
      // Two edits: three revisions, every one still holding the hostile text.
      for (const text of [`hello ${HOSTILE}, edited`, `hello ${HOSTILE}, edited twice`]) {
        const res = await call(server, 'PATCH', messagePath, { token: owner.token, json: { data: { text } } });
        assert.equal(res.status, 200, `edit: ${res.text}`);
      }
      params['revisionId'] = '2';
    }
    // Another member reads up to the first message, so the owner's chat list shows an unread count elsewhere.
    await call(server, 'PUT', `/chats/${params['chatId']}/read`, { token: others[0]!.token, json: { data: { lastReadId: messages[0].id } } });
  }
  if (hasRoute('POST', '/users/:userId/avatar')) {
    const avatars = [];
    for (let i = 0; i < 3; i++) {
      avatars.push(await created(post(`/users/${owner.userId}/avatar`, { avatar: PNG_BASE64, x: 0, y: 0, width: 1, height: 1 }), 'avatar'));
    }
    params['avatarId'] = avatars[0].id;
  }
  if (hasRoute('GET', '/audit')) {
    // The owner signed up first, so is the admin: three role changes make three entries.
    for (const [user, role] of [[others[0]!, 'admin'], [others[1]!, 'admin'], [others[1]!, 'member']] as const) {
      const res = await call(server, 'PATCH', `/users/${user.userId}`, { token: owner.token, json: { role } });
      assert.equal(res.status, 200, `role: ${res.text}`);
    }
    const log = await call(server, 'GET', '/audit', { token: owner.token });
    params['entryId'] = log.body.data[0].id;
  }
  if (hasRoute('POST', '/invites')) {
    // Three invites (the owner is the admin): the first one's code opens its join page.
    const invites = [];
    for (const maxUses of [1, 2, null]) invites.push(await created(post('/invites', { data: { maxUses } }), 'invite'));
    params['inviteId'] = invites[0].id;
    params['code'] = invites[0].code;
  }
  if (hasRoute('GET', '/users/:userId/sessions')) {
    // Two more logins (one by a client with a hostile User-Agent): three sessions.
    for (const agent of [HOSTILE, 'curl/8.5.0']) {
      const res = await call(server, 'POST', '/session', { json: { login: owner.login, password: owner.password }, headers: { 'user-agent': agent } });
      assert.equal(res.status, 201, `login: ${res.text}`);
    }
    const sessions = await call(server, 'GET', `/users/${owner.userId}/sessions`, { token: owner.token });
    params['sessionId'] = sessions.body.data[1].id;
  }
  if (hasRoute('POST', '/push-subscriptions')) {
    // Three browsers' subscriptions (no --push-subject: nothing is ever sent to them).
    const keys = { p256dh: Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 9)]).toString('base64url'), auth: Buffer.alloc(16, 3).toString('base64url') };
    const made = [];
    for (const n of [1, 2, 3]) made.push(await created(post('/push-subscriptions', { endpoint: `http://127.0.0.1:9/push/${n}?q=${encodeURIComponent(HOSTILE)}`, keys }), 'push subscription'));
    params['subscriptionId'] = made[0].id;
  }
  if (hasRoute('POST', '/users/:userId/tokens')) {
    // Three tokens, one of them named in markup.
    const tokens = [];
    for (const name of [`CI ${HOSTILE}`, 'backup', 'deploy']) tokens.push(await created(post(`/users/${owner.userId}/tokens`, { data: { name } }), 'token'));
    params['tokenId'] = tokens[0].id;
  }
  if (params['chatId'] !== undefined && hasRoute('POST', '/chats/:chatId/webhooks')) {
    // Three webhooks; the incoming one's deliveries are an empty collection, which is enough for the representations.
    const hooks = [];
    for (const name of [`Hook ${HOSTILE}`, 'two']) hooks.push(await created(post(`/chats/${params['chatId']}/webhooks`, { data: { name, direction: 'incoming' } }), 'webhook'));
    const outgoing = await created(post(`/chats/${params['chatId']}/webhooks`, { data: { name: 'out', direction: 'outgoing', url: 'http://127.0.0.1:9/hook' } }), 'webhook');
    params['hookId'] = outgoing.id;
    // Three deliveries, the first tried once (the others wait behind it); then the loop stops, so they hold still.
    for (const text of ['delivered one', 'delivered two', 'delivered three']) await created(post(`/chats/${params['chatId']}/messages`, { data: { text } }), 'message');
    const { storage, outbound } = server.app.services;
    const tried = async () => (await storage.outbound.listDeliveries('webhook', outgoing.id, { filters: [], sort: [], limit: 10, offset: 0, requestedLimit: 10, extra: new Map() })).rows.filter((row) => row.attempts > 0).length;
    while ((await tried()) < 1) await new Promise((resolve) => setTimeout(resolve, 20));
    outbound.loop.stop();
    await outbound.loop.idle();
    params['deliveryId'] = String((await storage.outbound.listDeliveries('webhook', outgoing.id, { filters: [], sort: [], limit: 10, offset: 0, requestedLimit: 10, extra: new Map() })).rows[0]!.id);
  }
  return { server, owner, params };
}

/** The path of a route with its parameters filled from the fixture; a parameter nobody created fails loudly. */
function pathOf(route: Route, params: Record<string, string>, extraQuery = ''): string {
  const path = route.pattern.replace(/:([a-zA-Z][a-zA-Z0-9]*)/g, (_, key: string) => {
    const value = params[key];
    assert.ok(value !== undefined, `no fixture for :${key} in ${route.pattern}: teach buildFixture to create one`);
    return encodeURIComponent(value);
  });
  const query = [ROUTE_QUERY[route.pattern], extraQuery].filter((part) => part).join('&');
  return query ? `${path}?${query}` : path;
}

/** Collections answer {data, meta} and page; the others are single resources with an ETag. */
function isCollection(pattern: string): boolean {
  return !/:[a-zA-Z]+$/.test(pattern) && !['/', '/health', '/session', '/chats/:chatId/read', '/admin', '/users/:userId/export', '/chats/:chatId/notifications', '/push/key'].includes(pattern);
}

/** Pages by limit and offset: every collection but the event log, which goes on by `after` (its own tests). */
function isPaged(pattern: string): boolean {
  return isCollection(pattern) && pattern !== '/events';
}

const GET_ROUTES = ALL_ROUTES.filter((route) => route.method === 'GET' && !route.raw);
let fixture: Fixture;

before(async () => {
  fixture = await buildFixture();
});

after(() => fixture.server.close());

function get(route: Route, accept?: string, options: { method?: string; query?: string; headers?: Record<string, string> } = {}): Promise<TestResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (accept !== undefined) headers['accept'] = accept;
  return call(fixture.server, options.method ?? 'GET', pathOf(route, fixture.params, options.query), { token: fixture.owner.token, headers });
}

test('the route table has GET routes to check', () => {
  assert.ok(GET_ROUTES.some((route) => route.pattern === '/users/:userId'));
});

for (const route of GET_ROUTES) {
  const name = `GET ${route.pattern}`;

  test(`${name}: JSON without Accept, for */* and for application/json, with Vary: Accept`, async () => {
    const answers = [await get(route), await get(route, '*/*'), await get(route, JSON_TYPE)];
    for (const res of answers) {
      assert.equal(res.status, 200, res.text);
      assert.equal(res.headers['content-type'], JSON_TYPE);
      assert.equal(res.headers['vary'], 'Accept');
      assert.deepEqual(res.body, answers[0]!.body);
    }
  });

  test(`${name}: XML holds the same values as JSON, under the documented root`, async () => {
    const json = (await get(route)).body;
    const res = await get(route, XML_TYPE);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.headers['content-type'], 'application/xml; charset=utf-8');
    assert.equal(res.headers['vary'], 'Accept');
    const { name: rootName, root } = parseXml(res.text);
    const expectedType = EXPECTED_TYPE[route.pattern];
    if (json.meta !== undefined) {
      assert.equal(rootName, 'collection');
      if (expectedType) assert.equal(root['@type'], expectedType);
      for (const key of Object.keys(json.meta)) assert.equal(root[`@${key}`], String(json.meta[key]), key);
      assert.deepEqual(childNames(root).filter((child) => child !== root['@type']), []);
      const items = (root[root['@type']] ?? []) as unknown[];
      assert.equal(items.length, json.data.length);
      json.data.forEach((item: unknown, i: number) => assertXmlMatchesJson(items[i], item, `item ${i}`));
    } else {
      if (expectedType) assert.equal(rootName, expectedType);
      const enveloped = Object.keys(json).length === 1 && typeof json.data === 'object';
      assertXmlMatchesJson(root, enveloped ? json.data : json, rootName);
    }
  });

  test(`${name}: HTML shows every value escaped, links related resources, under a CSP`, async () => {
    const json = (await get(route)).body;
    const related = atomLinks(parseXml((await get(route, XML_TYPE)).text).root);
    const res = await get(route, HTML_TYPE);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
    // A page writes dates in the reader's language: it varies on Accept-Language too, and goes gzipped when asked.
    assert.equal(res.headers['vary'], 'Accept, Accept-Language, Accept-Encoding');
    const csp = String(res.headers['content-security-policy']);
    assert.match(csp, /default-src 'none'/);
    assert.doesNotMatch(csp, /unsafe-/);
    assert.match(csp, /script-src 'sha256-[A-Za-z0-9+/]+=*';/, 'scripts only by hash');
    assert.ok(res.text.startsWith('<!doctype html>'));
    // The one script a page may hold is the live-update script of the newest page of a chat.
    assert.doesNotMatch(res.text.replace(`<script>${LIVE_SCRIPT}</script>`, ''), /<script|<img src=x/i);
    for (const value of stringsIn(json.data ?? json)) assert.ok(res.text.includes(escapeForHtml(value)), `shows ${value}`);
    for (const link of related) assert.ok(res.text.includes(`href="${escapeForHtml(link.href)}"`), `links ${link.rel}`);
    for (const item of json.meta === undefined ? [] : json.data) {
      // Each item of a list links to its own page (a path ending in its id, else its user's, else its first field), or to its href (an action).
      const id = String(item.id ?? item.userId ?? Object.values(item)[0]);
      // An event has no page of its own: it links to the log read from just before it.
      const linked = route.pattern === '/events'
        ? res.text.includes(`/events?after=${Number(id) - 1}">`)
        : typeof item.href === 'string'
        ? res.text.includes(`href="${escapeForHtml(item.href)}"`)
        : res.text.includes(`/${escapeForHtml(encodeURIComponent(id))}">`);
      assert.ok(linked, `item ${id} is linked`);
    }
  });

  test(`${name}: 406 for image/png, with a problem that lists the available types`, async () => {
    const res = await get(route, 'image/png');
    assert.equal(res.status, 406);
    assert.equal(res.headers['content-type'], 'application/problem+json');
    assert.equal(res.body.code, 'ERR_NOT_ACCEPTABLE');
    for (const type of [JSON_TYPE, XML_TYPE, HTML_TYPE]) assert.ok(res.body.detail.includes(type), `names ${type}`);
  });

  test(`${name}: HEAD has the status, headers and Content-Length of GET in every representation`, async () => {
    for (const accept of [undefined, JSON_TYPE, XML_TYPE, HTML_TYPE]) {
      const full = await get(route, accept);
      const head = await get(route, accept, { method: 'HEAD' });
      assert.equal(head.status, full.status, String(accept));
      assert.equal(head.raw.length, 0);
      assert.equal(head.headers['content-length'], String(full.raw.length), String(accept));
      for (const header of ['content-type', 'etag', 'vary', 'content-security-policy', 'link']) {
        assert.equal(head.headers[header], full.headers[header], `${header} for ${String(accept)}`);
      }
    }
  });

  if (isPaged(route.pattern)) test(`${name}: a page in the middle links the previous and next pages in every representation`, async () => {
    const json = (await get(route)).body;
    assert.ok(json.meta !== undefined, 'a collection answers meta');
    const query = 'limit=1&offset=1';
    assert.ok(json.meta.total >= 3, `the fixture makes at least 3 items (has ${json.meta.total})`);
    const page = await get(route, JSON_TYPE, { query });
    const { next, prev } = linkHeader(page);
    assert.ok(next !== undefined && prev !== undefined, String(page.headers['link']));
    assert.match(next, /[?&]limit=1&offset=2$/);
    assert.match(prev, /[?&]limit=1&offset=0$/);
    const xmlLinks = atomLinks(parseXml((await get(route, XML_TYPE, { query })).text).root);
    assert.deepEqual(xmlLinks.filter((link) => link.rel === 'next' || link.rel === 'prev'), [{ rel: 'next', href: next }, { rel: 'prev', href: prev }]);
    const html = (await get(route, HTML_TYPE, { query })).text;
    assert.ok(html.includes(`<a rel="next" href="${escapeForHtml(next)}">`), 'next page');
    assert.ok(html.includes(`<a rel="prev" href="${escapeForHtml(prev)}">`), 'previous page');
  });

  if (!isCollection(route.pattern)) test(`${name}: each representation has its own ETag, and If-None-Match with it answers 304`, async () => {
    const json = await get(route);
    assert.equal(json.body.meta, undefined, 'a single resource answers no meta');
    const tags = new Map<string | undefined, string>();
    for (const accept of [JSON_TYPE, XML_TYPE, HTML_TYPE]) tags.set(accept, String((await get(route, accept)).headers['etag']));
    assert.equal(new Set(tags.values()).size, 3, [...tags.values()].join(' '));
    for (const [accept, etag] of tags) {
      assert.match(etag, /^"[^"]+"$/, 'a strong ETag');
      const res = await get(route, accept, { headers: { 'if-none-match': etag } });
      assert.equal(res.status, 304, `${accept}: ${res.text}`);
      assert.equal(res.raw.length, 0);
      assert.equal(res.headers['etag'], etag);
      assert.equal(res.headers['vary'], accept === HTML_TYPE ? 'Accept, Accept-Language, Accept-Encoding' : 'Accept');
    }
  });
}

test('q-values choose among the representations; equal weights go to the server order', async () => {
  const route = GET_ROUTES.find((r) => r.pattern === '/users/:userId')!;
  const cases = [
    { accept: 'application/xml;q=0.9, text/html;q=0.8', type: 'application/xml; charset=utf-8' },
    { accept: 'application/xml;q=0.8, text/html;q=0.9', type: 'text/html; charset=utf-8' },
    { accept: 'text/html, application/xml', type: 'application/xml; charset=utf-8' },
    { accept: 'application/json;q=0, */*', type: 'application/xml; charset=utf-8' },
    { accept: 'text/*', type: 'text/html; charset=utf-8' },
    { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', type: 'text/html; charset=utf-8' },
    { accept: 'image/png, application/*;q=0.1', type: JSON_TYPE },
  ];
  for (const { accept, type } of cases) {
    const res = await get(route, accept);
    assert.equal(res.status, 200, accept);
    assert.equal(res.headers['content-type'], type, accept);
  }
  const none = await get(route, 'application/json;q=0, application/xml;q=0, text/html;q=0');
  assert.equal(none.status, 406);
});

test('errors asked for as XML are application/problem+xml (RFC 9457 Appendix B)', async () => {
  const { server, owner } = fixture;
  const missing = await call(server, 'GET', '/users/nobody', { token: owner.token, headers: { accept: XML_TYPE } });
  assert.equal(missing.status, 404);
  assert.equal(missing.headers['content-type'], 'application/problem+xml; charset=utf-8');
  const { name, root } = parseXml(missing.text);
  assert.equal(name, 'problem');
  assert.equal(root['@xmlns'], 'urn:ietf:rfc:7807');
  assert.deepEqual([root['status'][0], root['code'][0]], ['404', 'ERR_NOT_FOUND']);

  const anonymous = await call(server, 'GET', '/users', { headers: { accept: XML_TYPE } });
  assert.equal(anonymous.status, 401);
  assert.equal(anonymous.headers['content-type'], 'application/problem+xml; charset=utf-8');
  assert.equal(parseXml(anonymous.text).root['code'][0], 'ERR_UNAUTHENTICATED');

  const invalid = await call(server, 'POST', '/users', { json: { login: 'x', password: 'long enough' }, headers: { accept: XML_TYPE } });
  assert.equal(invalid.status, 400);
  const problem = parseXml(invalid.text).root;
  assert.equal(problem['errors'][0]['i'][0]['field'][0], 'login');
});

test('an HTML error page explains the problem; a 401 offers the login form', async () => {
  const res = await call(fixture.server, 'GET', '/users', { headers: { accept: HTML_TYPE } });
  assert.equal(res.status, 401);
  assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
  assert.ok(res.headers['content-security-policy']);
  assert.match(res.text, /<h1 dir="auto">401 Authentication required<\/h1>/);
  assert.match(res.text, /<a href="\/session">Log in<\/a>/);
});

test('GET /session as HTML without a session is the login form, posting to /session', async () => {
  const res = await call(fixture.server, 'GET', '/session', { headers: { accept: HTML_TYPE } });
  assert.equal(res.status, 200);
  assert.match(res.text, /<form method="post" action="\/session" enctype="application\/x-www-form-urlencoded">/);
  assert.match(res.text, /<input id="login" name="login"/);
  assert.match(res.text, /<input id="password" name="password" type="password"/);
  const json = await call(fixture.server, 'GET', '/session');
  assert.equal(json.status, 401);
});

test('a script in a chat title or message text is text in HTML and reads back unchanged from XML', async () => {
  const { server, owner, params } = fixture;
  assert.ok(params['messageId'] !== undefined && params['chatId'] !== undefined, 'the fixture has a chat with messages');
  const pages = [`/chats/${params['chatId']}`, '/chats', `/chats/${params['chatId']}/messages`, `/messages/${params['messageId']}`];
  for (const path of pages) {
    const html = await call(server, 'GET', path, { token: owner.token, headers: { accept: HTML_TYPE } });
    assert.equal(html.status, 200, path);
    assert.ok(!html.text.includes(XSS) && !html.text.includes(BREAKOUT), `${path}: no raw markup`);
    assert.ok(html.text.includes(escapeForHtml(HOSTILE)), `${path}: shown as text`);
    const xml = await call(server, 'GET', path, { token: owner.token, headers: { accept: XML_TYPE } });
    assert.ok(!xml.text.includes(XSS) && !xml.text.includes(BREAKOUT), `${path}: no raw markup in XML`);
    assert.ok(stringsIn(xmlParser.parse(xml.text)).some((text) => text.includes(HOSTILE)), `${path}: XML reads back`);
  }
});

test('a script in a path or a login comes back escaped in HTML and XML problems', async () => {
  const { server, owner } = fixture;
  const path = `/users/${encodeURIComponent(`${XSS}${BREAKOUT}`)}`;
  for (const accept of [HTML_TYPE, XML_TYPE]) {
    const res = await call(server, 'GET', path, { token: owner.token, headers: { accept } });
    assert.equal(res.status, 404);
    assert.ok(!res.text.includes(XSS) && !res.text.includes(BREAKOUT), accept);
    if (accept === XML_TYPE) assert.equal(parseXml(res.text).root['detail'][0], `No user ${XSS}${BREAKOUT}`);
    else assert.ok(res.text.includes(escapeForHtml(`No user ${XSS}${BREAKOUT}`)));
    const register = await call(server, 'POST', '/users', { json: { login: XSS, password: 'long enough' }, headers: { accept } });
    assert.equal(register.status, 400);
    assert.ok(!register.text.includes(XSS), `${accept}: the refused login is not echoed raw`);
  }
});

test('HTML and XML of the same resource are both 304 only for their own ETag', async () => {
  const route = GET_ROUTES.find((r) => r.pattern === '/users/:userId')!;
  const xmlTag = String((await get(route, XML_TYPE)).headers['etag']);
  const html = await get(route, HTML_TYPE, { headers: { 'if-none-match': xmlTag } });
  assert.equal(html.status, 200);
});

test('an unknown path and a wrong method answer in the negotiated representation too', async () => {
  for (const [method, path] of [['GET', '/nothing-here'], ['DELETE', '/health']] as const) {
    const res = await call(fixture.server, method, path, { headers: { accept: XML_TYPE } });
    assert.equal(res.headers['content-type'], 'application/problem+xml; charset=utf-8', `${method} ${path}`);
  }
});
