// GET /docs: the OpenAPI document as one readable, self-contained page: every operation and schema, no script.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { call, withServer } from './client.ts';

test('GET /docs lists every operation, its parameters and every schema, without a token, script or other origin', async (t) => {
  const server = await withServer(t, { basePath: '/api' });
  const [docs, document] = await Promise.all([call(server, 'GET', '/api/docs'), call(server, 'GET', '/api/openapi.json')]);
  assert.equal(docs.status, 200);
  assert.equal(docs.headers['content-type'], 'text/html; charset=utf-8');
  assert.match(String(docs.headers['content-security-policy']), /^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'/);
  const html = docs.text;
  assert.match(html, /^<!doctype html>/);
  assert.doesNotMatch(html, /<script|<link|<img|<iframe|\bon[a-z]+=/i, 'no script and nothing loaded');
  assert.doesNotMatch(html, /(src|href)="(https?:)?\/\//i, 'no other origin');
  assert.match(html, /<a href="\/api\/openapi\.json">/);
  assert.equal(document.body.externalDocs.url, '/api/docs', 'the document links its readable form');
  let operations = 0;
  for (const [path, item] of Object.entries(document.body.paths as Record<string, Record<string, any>>)) {
    for (const [method, operation] of Object.entries(item)) {
      operations++;
      const section = html.slice(html.indexOf(`<section class="op" id="${operation.operationId}">`));
      assert.ok(section.length < html.length, `${operation.operationId} has its section`);
      const own = section.slice(0, section.indexOf('</section>'));
      assert.ok(own.includes(`${method.toUpperCase()}</span> <code>${path}</code>`), `${method} ${path} is shown`);
      for (const parameter of operation.parameters ?? []) {
        const escaped = String(parameter.name).replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
        assert.ok(own.includes(`<code>${escaped}</code>`), `${operation.operationId} shows the parameter ${parameter.name}`);
      }
      for (const status of Object.keys(operation.responses)) assert.ok(own.includes(`<td>${status}</td>`), `${operation.operationId} shows ${status}`);
    }
  }
  assert.ok(operations >= 30);
  for (const name of Object.keys(document.body.components.schemas)) assert.ok(html.includes(`id="schema-${name}"`), `schema ${name}`);
  // Text from the document is escaped: the query language's <field> is shown, not parsed as a tag.
  assert.ok(html.includes('&lt;field&gt;|&lt;op&gt;|&lt;value&gt;'));
  assert.doesNotMatch(html, /<field>/);
});

test('GET /docs answers HEAD, needs no token even with a bad one, answers 304 to its ETag, and refuses other methods', async (t) => {
  const server = await withServer(t);
  const head = await call(server, 'HEAD', '/docs');
  assert.equal(head.status, 200);
  assert.equal(head.text, '');
  const withBadToken = await call(server, 'GET', '/docs', { token: 'not-a-token' });
  assert.equal(withBadToken.status, 200);
  // Both the page and the document can be cached and asked for again.
  for (const path of ['/docs', '/openapi.json']) {
    const first = await call(server, 'GET', path);
    assert.match(String(first.headers['etag']), /^"[A-Za-z0-9_-]{27}"$/);
    const again = await call(server, 'GET', path, { headers: { 'if-none-match': String(first.headers['etag']) } });
    assert.equal(again.status, 304);
    assert.equal(again.text, '');
  }
  const post = await call(server, 'POST', '/docs');
  assert.equal(post.status, 405);
  assert.equal(post.headers['allow'], 'OPTIONS, GET, HEAD');
});
