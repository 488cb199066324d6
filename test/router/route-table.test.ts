// The route table: patterns, matching, 405 sets, HEAD and OPTIONS, bad encodings, and start-up checks.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildPath, compilePattern } from '../../src/router/compile-pattern.ts';
import { RouteTable } from '../../src/router/route-table.ts';

const table = new RouteTable([
  { method: 'GET', pattern: '/chats', handler: 'list' },
  { method: 'POST', pattern: '/chats', handler: 'create' },
  { method: 'GET', pattern: '/chats/:chatId', handler: 'read' },
  { method: 'DELETE', pattern: '/chats/:chatId/messages/:messageId', handler: 'delete' },
  { method: 'GET', pattern: '/openapi.json', handler: 'doc' },
]);

test('match finds the handler and decodes parameters', () => {
  const rows = [
    { what: 'static', method: 'GET', path: '/chats', expected: { kind: 'found', handler: 'list', params: {} } },
    { what: 'param', method: 'GET', path: '/chats/a%20b', expected: { kind: 'found', handler: 'read', params: { chatId: 'a b' } } },
    { what: 'two params', method: 'DELETE', path: '/chats/c/messages/m', expected: { kind: 'found', handler: 'delete', params: { chatId: 'c', messageId: 'm' } } },
    { what: 'HEAD falls back to GET', method: 'HEAD', path: '/chats/x', expected: { kind: 'found', handler: 'read', params: { chatId: 'x' } } },
    { what: 'dot is literal', method: 'GET', path: '/openapi.json', expected: { kind: 'found', handler: 'doc', params: {} } },
  ];
  for (const { what, method, path, expected } of rows) {
    const match = table.match(method, path);
    assert.equal(match.kind, 'found', what);
    if (match.kind === 'found') assert.deepEqual({ kind: match.kind, handler: match.route.handler, params: match.params }, expected, what);
  }
});

test('match says 405 with the allowed set, or not found', () => {
  // The pattern names the path's resource (metrics and logs label a 405 with it).
  assert.deepEqual(table.match('PUT', '/chats'), { kind: 'method-not-allowed', allowed: ['OPTIONS', 'GET', 'HEAD', 'POST'], pattern: '/chats' });
  assert.deepEqual(table.match('GET', '/chats/c/messages/m'), { kind: 'method-not-allowed', allowed: ['OPTIONS', 'DELETE'], pattern: '/chats/:chatId/messages/:messageId' });
  assert.deepEqual(table.match('GET', '/openapiXjson'), { kind: 'not-found' });
  assert.deepEqual(table.match('GET', '/chats/'), { kind: 'not-found' });
  assert.deepEqual(table.match('GET', '/chats/a/b'), { kind: 'not-found' });
  const options = table.match('OPTIONS', '/chats/x');
  assert.equal(options.kind, 'found');
  if (options.kind === 'found') assert.deepEqual(options.allowed, ['OPTIONS', 'GET', 'HEAD']);
});

test('a bad percent-encoding in a parameter is a 400', () => {
  assert.throws(() => table.match('GET', '/chats/%E0%A4%A'), (error: any) => error.status === 400 && error.code === 'ERR_BAD_PATH');
  assert.throws(() => table.match('GET', '/chats/%zz'), (error: any) => error.status === 400);
});

test('malformed and duplicate patterns throw at start', () => {
  for (const pattern of ['chats', '/chats/', '/chats/:', '/chats/:1x', '/a b', '/chats/:id/x/:id']) {
    assert.throws(() => compilePattern(pattern), Error, pattern);
  }
  assert.throws(() => new RouteTable([
    { method: 'GET', pattern: '/chats/:a', handler: 1 },
    { method: 'GET', pattern: '/chats/:b', handler: 2 },
  ]), /duplicate route/);
});

test('buildPath fills and encodes parameters', () => {
  assert.equal(buildPath('/chats/:chatId/messages/:messageId', { chatId: 'a/b', messageId: 'é' }), '/chats/a%2Fb/messages/%C3%A9');
  assert.throws(() => buildPath('/chats/:chatId', {}), /no value for :chatId/);
});
