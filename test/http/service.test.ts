// Service endpoints: /health, and /openapi.json checked by a real OpenAPI validator against the route table.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { ALL_ROUTES } from '../../src/resources/all-routes.ts';
import { call, withServer } from './client.ts';

test('GET /health answers {"status":"ok"} without a token', async (t) => {
  const server = await withServer(t);
  const res = await call(server, 'GET', '/health');
  assert.equal(res.status, 200);
  assert.equal(res.headers['content-type'], 'application/json');
  assert.deepEqual(res.body, { status: 'ok' });
  assert.equal(res.headers['content-length'], String(res.raw.length));
});

test('GET /openapi.json is a valid OpenAPI 3.1 document of every route', async (t) => {
  const server = await withServer(t, { basePath: '/api' });
  const res = await call(server, 'GET', '/api/openapi.json');
  assert.equal(res.status, 200);
  assert.equal(res.headers['content-type'], 'application/json');
  const validator = new Validator();
  const result = await validator.validate(res.body);
  assert.deepEqual(result.errors, undefined);
  assert.equal(result.valid, true);
  assert.equal(res.body.openapi, '3.1.0');
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  assert.equal(res.body.info.version, pkg.version, 'the same version as --version');
  assert.deepEqual(res.body.servers, [{ url: '/api' }]);
  for (const route of ALL_ROUTES) {
    const path = route.pattern.replace(/:([a-zA-Z0-9]+)/g, '{$1}');
    const operation = res.body.paths[path]?.[route.method.toLowerCase()];
    assert.ok(operation, `${route.method} ${route.pattern} is documented`);
    assert.equal(operation.summary, route.summary);
    assert.equal(operation.security !== undefined, route.auth === 'public', `${route.method} ${route.pattern} security`);
  }
  const documented = Object.values(res.body.paths as Record<string, object>).reduce((n, ops) => n + Object.keys(ops).length, 0);
  assert.equal(documented, ALL_ROUTES.length);
});
