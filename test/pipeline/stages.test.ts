// The request pipeline's stages one by one (src/pipeline/), each called directly with the smallest request it reads.
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { test } from 'node:test';
import { HttpError } from '../../src/http/http-error.ts';
import type { ExchangeLabels } from '../../src/http/observe-exchange.ts';
import { answerOptions } from '../../src/pipeline/answer-options.ts';
import { checkFraming } from '../../src/pipeline/check-framing.ts';
import { findRoute } from '../../src/pipeline/find-route.ts';
import { locateTarget } from '../../src/pipeline/locate-target.ts';
import { negotiateAnyRoute, negotiateRepresentation } from '../../src/pipeline/negotiate-representation.ts';
import type { Route } from '../../src/resources/context.ts';
import { RouteTable } from '../../src/router/route-table.ts';

function request(headers: Record<string, string | string[]> = {}, rawHeaders: string[] = []): IncomingMessage {
  return { headers, rawHeaders } as unknown as IncomingMessage;
}

const route = (method: Route['method'], pattern: string, extra: Partial<Route> = {}): Route =>
  ({ method, pattern, handler: () => ({ status: 204 }), summary: '', responses: {}, ...extra }) as Route;

const ROUTES = [
  route('GET', '/chats'),
  route('POST', '/chats'),
  route('GET', '/chats/:chatId'),
  route('PATCH', '/chats/:chatId', { acceptPatch: ['application/json', 'application/merge-patch+json'] }),
];
const TABLE = new RouteTable<Route>(ROUTES.map((r) => ({ method: r.method, pattern: r.pattern, handler: r })));

function code(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return (error as HttpError).code;
  }
  return undefined;
}

test('framing: one Host passes, two are a 400 whatever their case', () => {
  assert.equal(code(() => checkFraming(request({}, ['Host', 'a']))), undefined);
  assert.equal(code(() => checkFraming(request({}, ['Host', 'a', 'Accept', '*/*', 'HOST', 'b']))), 'ERR_BAD_REQUEST');
  assert.equal(code(() => checkFraming(request({}, ['X-Host', 'a', 'Hosts', 'b']))), undefined);
});

test('base path: the path under it and the raw query; a path outside it is a 404 naming the whole path', () => {
  assert.deepEqual(locateTarget('/chats?limit=2&q=a%20b', ''), { fullPath: '/chats', path: '/chats', rawQuery: 'limit=2&q=a%20b' });
  assert.deepEqual(locateTarget('/api', '/api'), { fullPath: '/api', path: '/', rawQuery: '' });
  assert.deepEqual(locateTarget('/api/chats?', '/api'), { fullPath: '/api/chats', path: '/chats', rawQuery: '' });
  assert.throws(() => locateTarget('/apichats', '/api'), (error: HttpError) => error.code === 'ERR_NOT_FOUND' && error.detail === 'No resource at /apichats');
  assert.throws(() => locateTarget('/chats', '/api'), (error: HttpError) => error.status === 404);
});

test('routing: the route and its params; 405 with Allow and the pattern as label; 404 with no label', () => {
  const labels: ExchangeLabels = { route: 'unmatched', userId: undefined };
  const found = findRoute(TABLE, 'GET', '/chats/c%201', '/api/chats/c%201', labels);
  assert.equal(found.route, ROUTES[2]);
  assert.deepEqual(found.params, { chatId: 'c 1' });
  assert.deepEqual(found.allowed, ['OPTIONS', 'GET', 'HEAD', 'PATCH']);
  assert.equal(labels.route, '/chats/:chatId');
  const refused = { route: 'unmatched', userId: undefined };
  assert.throws(() => findRoute(TABLE, 'DELETE', '/chats', '/chats', refused),
    (error: HttpError) => error.status === 405 && error.headers['Allow'] === 'OPTIONS, GET, HEAD, POST' && error.detail === 'DELETE is not allowed on /chats');
  assert.equal(refused.route, '/chats');
  const missing = { route: 'unmatched', userId: undefined };
  assert.throws(() => findRoute(TABLE, 'GET', '/users', '/users', missing), (error: HttpError) => error.status === 404);
  assert.equal(missing.route, 'unmatched');
});

test('OPTIONS: Allow from the table, and Accept-Patch where the path takes a PATCH', () => {
  assert.deepEqual(answerOptions(TABLE, '/chats/1', ['OPTIONS', 'GET', 'HEAD', 'PATCH']),
    { status: 204, headers: { Allow: 'OPTIONS, GET, HEAD, PATCH', 'Accept-Patch': 'application/json, application/merge-patch+json' } });
  assert.deepEqual(answerOptions(TABLE, '/chats', ['OPTIONS', 'GET', 'HEAD', 'POST']), { status: 204, headers: { Allow: 'OPTIONS, GET, HEAD, POST' } });
});

test('negotiation: JSON by default, what Accept prefers, the route\'s extra types only by name, 406 when nothing fits', () => {
  const plain = route('GET', '/chats');
  const stream = route('GET', '/events', { extraMediaTypes: ['text/event-stream'] });
  const raw = route('GET', '/bytes', { raw: true });
  assert.deepEqual(negotiateRepresentation(request(), plain), { mediaType: 'application/json', negotiated: true });
  assert.deepEqual(negotiateRepresentation(request({ accept: 'text/html' }), plain), { mediaType: 'text/html', negotiated: true });
  assert.deepEqual(negotiateRepresentation(request({ accept: '*/*' }), stream), { mediaType: 'application/json', negotiated: true });
  assert.deepEqual(negotiateRepresentation(request({ accept: 'text/event-stream' }), stream), { mediaType: 'text/event-stream', negotiated: true });
  assert.throws(() => negotiateRepresentation(request({ accept: 'text/event-stream' }), plain),
    (error: HttpError) => error.status === 406 && error.detail === 'Available representations: application/json, application/xml, text/html');
  assert.throws(() => negotiateRepresentation(request({ accept: 'image/png' }), stream),
    (error: HttpError) => error.status === 406 && error.detail.endsWith('text/html, text/event-stream'));
  // A raw route answers bytes; only its errors are rendered, in what Accept prefers, and nothing varies.
  assert.deepEqual(negotiateRepresentation(request({ accept: 'application/xml' }), raw), { mediaType: 'application/xml', negotiated: false });
  assert.deepEqual(negotiateRepresentation(request({ accept: 'image/png' }), raw), { mediaType: 'application/json', negotiated: false });
  assert.deepEqual(negotiateAnyRoute(request({ accept: 'text/html;q=0.5, application/xml' })), { mediaType: 'application/xml', negotiated: false });
});
