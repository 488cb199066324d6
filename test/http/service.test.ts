// Service endpoints: /health, and /openapi.json checked by a real OpenAPI validator against the route table.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { ERROR_CATALOGUE } from '../../src/http/error-catalogue.ts';
import { ALL_ROUTES } from '../../src/resources/all-routes.ts';
import { call, withServer } from './client.ts';
import { DOCUMENT } from './openapi-check.ts';

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
  const operationIds = new Set<string>();
  for (const route of ALL_ROUTES) {
    const path = route.pattern.replace(/:([a-zA-Z0-9]+)/g, '{$1}');
    const operation = res.body.paths[path]?.[route.method.toLowerCase()];
    const name = `${route.method} ${route.pattern}`;
    assert.ok(operation, `${name} is documented`);
    assert.equal(operation.summary, route.summary);
    const security: Record<string, unknown> = { public: [], optional: [{}, { bearer: [] }, { cookie: [] }], required: undefined };
    assert.deepEqual(operation.security, security[route.auth ?? 'required'], `${name} security`);
    assert.equal(operation.tags.length, 1, `${name} has a tag`);
    assert.ok(!operationIds.has(operation.operationId), `${name}: operationId ${operation.operationId} is unique`);
    operationIds.add(operation.operationId);
    const success = Object.keys(operation.responses).filter((status) => status < '400');
    assert.ok(success.length > 0, `${name} documents a success answer`);
    for (const status of success) {
      const answer = operation.responses[status];
      // RFC 9110 §15.3.2: a POST's 201 says where the new resource is; a PUT's is its own target.
      if (status === '201' && route.method === 'POST') assert.deepEqual([answer.headers.Location.required, answer.headers.ETag.required], [true, true], `${name} 201 has Location and ETag`);
      if (status === '200' || status === '201') assert.ok(Object.values(answer.content).some((media: any) => media.schema), `${name} ${status} has a schema`);
    }
    for (const media of Object.values(operation.requestBody?.content ?? {})) assert.ok((media as any).schema.type, `${name} body has a schema`);
    if (route.query?.fields) {
      const names = new Set(operation.parameters.map((parameter: { name: string }) => parameter.name));
      for (const parameter of ['limit', 'offset', 'filter', 'sort', 'order']) assert.ok(names.has(parameter), `${name} documents ${parameter}`);
      const queryable = route.query.fields.fields.filter((field) => field.hidden !== true);
      for (const field of queryable) assert.ok(names.has(field.name) && names.has(`filter[${field.name}][]`), `${name} documents the field ${field.name}`);
      // The fields one may query are fields of the resource the page holds.
      const page = route.responses[200]?.body;
      if (page && 'resource' in page) {
        const properties = Object.keys(res.body.components.schemas[page.resource].properties);
        for (const field of queryable) assert.ok(properties.includes(field.name), `${name}: ${field.name} is a field of ${page.resource}`);
      }
    }
  }
  const documented = Object.values(res.body.paths as Record<string, object>).reduce((n, ops) => n + Object.keys(ops).length, 0);
  assert.equal(documented, ALL_ROUTES.length);
  const putChat = res.body.paths['/chats/{chatId}'].put.responses;
  assert.ok(putChat['200'] && putChat['201'], 'PUT create-or-replace documents 200 and 201');
  for (const name of ['User', 'Session', 'NewSession', 'Avatar', 'Chat', 'Member', 'Message', 'Action', 'Reaction', 'ReactionCount', 'Revision', 'ReadMarker', 'Event', 'PageMeta', 'Problem', 'ChatEnvelope', 'ChatPage', 'SearchResult']) {
    assert.ok(res.body.components.schemas[name], `components.schemas.${name}`);
  }
  assert.deepEqual(res.body.components.schemas.Problem.properties.code.enum, Object.keys(ERROR_CATALOGUE));
});

test('the document the tests check answers against is the one the server serves', async (t) => {
  const server = await withServer(t);
  const res = await call(server, 'GET', '/openapi.json');
  assert.deepEqual(res.body, DOCUMENT);
});
