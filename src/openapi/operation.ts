// One operation of the OpenAPI document, from one route: parameters, request body, answers by status.
import type { Route } from '../resources/context.ts';
import { RESOURCES, type ResourceName } from '../representations/resource-kinds.ts';
import { responseHeaders, withHeaders } from './headers.ts';
import { problemStatuses } from './problems.ts';
import { queryParameters, toOpenApiParameters } from './query-parameters.ts';
import type { ResponseDoc } from './route-doc.ts';
import { ID_REGEX, type JsonSchema } from './schema.ts';

/** components.schemas, which the bodies of operations add their envelopes and pages to. */
export type Components = Record<string, JsonSchema>;

const NEGOTIATED_EXTRA = {
  'application/xml': { schema: { type: 'string', description: 'The same fields as XML elements' } },
  'text/html': { schema: { type: 'string', description: 'A readable page of the resource, with links' } },
};

export function toOpenApiPath(pattern: string): string {
  return pattern.replace(/:([a-zA-Z][a-zA-Z0-9]*)/g, '{$1}');
}

export function operationIdOf(route: Pick<Route, 'method' | 'pattern'>): string {
  // getChatsChatIdMessages, getOpenapiJson: every run of other characters starts a new word.
  return `${route.method.toLowerCase()}${route.pattern.replace(/[^a-zA-Z0-9]+([a-zA-Z0-9])/g, (_, c: string) => c.toUpperCase())}`;
}

// Literal segments that are not the name of their resource.
const TAG_OF_SEGMENT: Record<string, string> = { avatar: 'avatars', image: 'avatars', health: 'service', 'openapi.json': 'service', docs: 'service' };

/**
 * The resource a path is about, as its tag: the last literal segment (`/chats/:chatId/messages/:messageId`
 * is messages, `/messages/:messageId/actions` actions), so a new route finds its group by itself.
 */
export function tagOf(route: Pick<Route, 'tag' | 'pattern'>): string {
  if (route.tag !== undefined) return route.tag;
  const last = route.pattern.split('/').filter((segment) => segment !== '' && !segment.startsWith(':')).at(-1) ?? 'service';
  return TAG_OF_SEGMENT[last] ?? last;
}

function refTo(name: string): JsonSchema {
  return { $ref: `#/components/schemas/${name}` };
}

/** The named schema of a body, added to components: Chat, ChatEnvelope, ChatPage, ... */
function bodySchema(body: NonNullable<ResponseDoc['body']>, schemas: Components): JsonSchema {
  if ('schema' in body) {
    if (body.name === undefined) return body.schema;
    schemas[body.name] = body.schema;
    return refTo(body.name);
  }
  const name: ResourceName = body.resource;
  if (body.as === 'page') {
    schemas[`${name}Page`] = {
      type: 'object', required: ['data', 'meta'], additionalProperties: false,
      properties: { data: { type: 'array', items: refTo(name) }, meta: refTo('PageMeta') },
    };
    return refTo(`${name}Page`);
  }
  if (!RESOURCES[name].enveloped) return refTo(name);
  schemas[`${name}Envelope`] = { type: 'object', required: ['data'], additionalProperties: false, properties: { data: refTo(name) } };
  return refTo(`${name}Envelope`);
}

function response(route: Route, doc: ResponseDoc, schemas: Components): JsonSchema {
  // Writes are rate-limited (registration and login by their own limits): RateLimit fields may come (docs/protocol.md §11.1).
  const limited = route.method !== 'GET';
  const headers = responseHeaders(doc.headers, [...(doc.optionalHeaders ?? []), ...(limited ? ['RateLimit', 'RateLimit-Policy'] as const : [])]);
  // A negotiated body (JSON, XML, HTML), bytes sent as they are, or both (the event stream beside long-poll).
  const content: JsonSchema = {
    ...(doc.body ? { 'application/json': { schema: bodySchema(doc.body, schemas) }, ...NEGOTIATED_EXTRA } : {}),
    ...Object.fromEntries((doc.raw ?? []).map((type) => [type, { schema: type.endsWith('json') ? { type: 'object' } : { type: 'string', contentMediaType: type } }])),
  };
  return { description: doc.description, ...withHeaders(headers), ...(Object.keys(content).length > 0 ? { content } : {}) };
}

export function operation(route: Route, schemas: Components): JsonSchema {
  const responses: JsonSchema = {};
  for (const [status, doc] of Object.entries(route.responses)) responses[status] = response(route, doc, schemas);
  const ok = route.responses[200];
  if (route.method === 'GET' && ok?.headers?.includes('ETag') && !route.responses[304]) {
    responses['304'] = { description: 'Not Modified: If-None-Match matched (no body)', ...withHeaders(responseHeaders(['ETag'])) };
  }
  // docs/protocol.md §7.3: an HTML form's write that succeeds answers 303 to the page to show next.
  if (route.requestBody?.contentTypes.includes('application/x-www-form-urlencoded') && !route.responses[303]) {
    responses['303'] = { description: 'An HTML form\'s write succeeded: see the page to show next', ...withHeaders(responseHeaders(['Location'])) };
  }
  for (const status of problemStatuses(route)) responses[String(status)] = { $ref: `#/components/responses/Problem${status}` };
  // A path parameter is an id unless the route describes it (an emoji): docs/protocol.md §1.2.
  const declared = route.query?.parameters ?? [];
  const pathParameters = [...route.pattern.matchAll(/:([a-zA-Z][a-zA-Z0-9]*)/g)].map((match) => {
    const own = declared.find((parameter) => parameter.in === 'path' && parameter.name === match[1]);
    return { name: match[1], in: 'path', required: true, ...(own ? { description: own.description, schema: own.schema } : { schema: { type: 'string', pattern: ID_REGEX } }) };
  });
  const others = queryParameters(route.query ?? {}).filter((parameter) => parameter.in !== 'path');
  const parameters = [...pathParameters, ...toOpenApiParameters(others)];
  const op: JsonSchema = { tags: [tagOf(route)], summary: route.summary, operationId: operationIdOf(route) };
  if (parameters.length > 0) op['parameters'] = parameters;
  if (route.requestBody) {
    const body = route.requestBody;
    op['requestBody'] = {
      required: body.required ?? true,
      content: Object.fromEntries(body.contentTypes.map((type) => [type, {
        schema: body.schemaByType?.[type] ?? body.schema ?? { type: 'object' },
        // The example is of the JSON form; other forms (multipart text parts) spell values differently.
        ...(body.example === undefined || !type.includes('json') ? {} : { example: body.example }),
      }])),
    };
  }
  op['responses'] = responses;
  if (route.auth === 'public') op['security'] = [];
  // An optional session: the same schemes, or none.
  if (route.auth === 'optional') op['security'] = [{}, { bearer: [] }, { cookie: [] }];
  return op;
}
