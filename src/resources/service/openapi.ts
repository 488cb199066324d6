// The OpenAPI 3.1 document, generated from the route table so that it cannot drift from it.
import type { Route } from '../../http/context.ts';
import { ERROR_CATALOGUE } from '../../http/error-catalogue.ts';

const PROBLEM_SCHEMA = {
  type: 'object',
  required: ['type', 'title', 'status', 'detail', 'code'],
  properties: {
    type: { type: 'string' },
    title: { type: 'string' },
    status: { type: 'integer' },
    detail: { type: 'string' },
    code: { type: 'string', enum: Object.keys(ERROR_CATALOGUE) },
    errors: { type: 'array', items: { type: 'object', required: ['field', 'message'], properties: { field: { type: 'string' }, message: { type: 'string' } } } },
  },
};

const SUCCESS: Record<string, [string, string]> = {
  GET: ['200', 'The resource or a page of the collection'],
  POST: ['201', 'Created'],
  PUT: ['200', 'Replaced (201 when created)'],
  PATCH: ['200', 'Updated'],
  DELETE: ['204', 'Deleted'],
};

/** The schema of a {"data": {...}} request body (CONTRACT §1), for chats, messages and actions. */
export function envelopeSchema(properties: Record<string, unknown>): Record<string, unknown> {
  return { type: 'object', required: ['data'], properties: { data: { type: 'object', properties } } };
}

function toOpenApiPath(pattern: string): string {
  return pattern.replace(/:([a-zA-Z][a-zA-Z0-9]*)/g, '{$1}');
}

function operation(route: Route): Record<string, unknown> {
  const [status, description] = SUCCESS[route.method]!;
  const parameters = [...route.pattern.matchAll(/:([a-zA-Z][a-zA-Z0-9]*)/g)].map((match) => ({
    name: match[1], in: 'path', required: true, schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' },
  }));
  const op: Record<string, unknown> = {
    summary: route.summary,
    operationId: `${route.method.toLowerCase()}${route.pattern.replace(/[/:]+([a-zA-Z])/g, (_, c: string) => c.toUpperCase())}`,
    responses: {
      [status]: { description },
      default: { description: 'A problem (RFC 9457)', content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } } },
    },
  };
  if (parameters.length > 0) op['parameters'] = parameters;
  if (route.auth === 'public') op['security'] = [];
  if (route.requestBody) {
    const schema = route.requestBody.schema ?? { type: 'object' };
    op['requestBody'] = { required: true, content: Object.fromEntries(route.requestBody.contentTypes.map((type) => [type, { schema }])) };
  }
  return op;
}

export function buildOpenApiDocument(routes: readonly Route[], basePath: string, version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = toOpenApiPath(route.pattern);
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = operation(route);
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Chat API', version, description: 'Users, login sessions, avatars, chats, messages and message actions.' },
    servers: [{ url: basePath || '/' }],
    paths,
    components: {
      schemas: { Problem: PROBLEM_SCHEMA },
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' }, cookie: { type: 'apiKey', in: 'cookie', name: 'session' } },
    },
    security: [{ bearer: [] }, { cookie: [] }],
  };
}
