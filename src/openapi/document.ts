// The OpenAPI 3.1 document, generated from the route table and the resource schemas, so it cannot drift.
import { PATHS } from '../paths.ts';
import type { Route } from '../resources/context.ts';
import { PAGE_META, PROBLEM_FIELD, SEARCH_RESULT } from '../representations/schemas.ts';
import { RESOURCES } from '../representations/resource-kinds.ts';
import { operation, tagOf, toOpenApiPath, type Components } from './operation.ts';
import { PROBLEM, problemResponses, problemStatuses } from './problems.ts';
import type { JsonSchema } from './schema.ts';

const TAG_DESCRIPTIONS: Record<string, string> = {
  service: 'Health, this document and its readable form',
  users: 'Registration and users',
  avatars: 'Avatar images and their zones',
  session: 'Logging in and out',
  search: 'Full-text search over messages, chats and logins',
  chats: 'Chats the caller is a member of',
  members: 'Members of a chat',
  messages: 'Messages of a chat and their history',
  actions: 'What the caller may do to a message now',
  reactions: 'Reactions to messages',
  revisions: 'Edit history of messages',
  read: 'Read markers and unread counts',
  events: 'Changes in real time: Server-Sent Events and long-poll',
};

const INFO_DESCRIPTION = [
  'Users, login sessions, avatars, chats, messages, message actions and search, over HTTP.',
  `A readable form of this document is served at \`${PATHS.docs}\`.`,
  '',
  'Every path also answers `OPTIONS` (204 with `Allow`, and `Accept-Patch` where PATCH is supported) and `HEAD` wherever it answers `GET` (same status and headers, no body). A method the path does not support answers 405 with `Allow`; an unknown path 404.',
  'Answers are JSON by default, and XML (`Accept: application/xml`) or HTML (`Accept: text/html`) on request; problems are RFC 9457 `application/problem+json`.',
  'Every collection takes the same query language: `limit`, `offset`, `filter=<field>|<op>|<value>`, `filter[<field>][]=`, `sort[<field>]=ASC|DESC`, `sort=<field>&order=`, `<field>=<value>`, `<field>=<low>-<high>`, `<field>=><value>`, `<field>=<<value>`, `<field>>=<value>`, `<field><=<value>`; each collection lists its own fields.',
].join('\n');

export function buildOpenApiDocument(routes: readonly Route[], basePath: string, version: string): JsonSchema {
  const schemas: Components = {
    ...Object.fromEntries(Object.entries(RESOURCES).map(([name, kind]) => [name, kind.schema])),
    PageMeta: PAGE_META, Problem: PROBLEM, ProblemField: PROBLEM_FIELD, SearchResult: SEARCH_RESULT,
  };
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = toOpenApiPath(route.pattern);
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = operation(route, schemas);
  }
  const tags = [...new Set(routes.map(tagOf))].map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? name }));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Chat API', version, description: INFO_DESCRIPTION,
      license: { name: 'MIT', identifier: 'MIT' },
    },
    externalDocs: { description: 'This document as a readable page', url: `${basePath}${PATHS.docs}` },
    servers: [{ url: basePath || '/' }],
    tags,
    paths,
    components: {
      schemas,
      responses: problemResponses(new Set(routes.flatMap(problemStatuses))),
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'The token from POST /session' },
        cookie: { type: 'apiKey', in: 'cookie', name: 'session', description: 'Set by POST /session; writes also need Origin of this server' },
      },
    },
    security: [{ bearer: [] }, { cookie: [] }],
  };
}
