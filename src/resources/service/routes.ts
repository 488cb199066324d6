// Service endpoints: the index, health and the OpenAPI document.
import type { Reply, RequestContext, Route } from '../../http/context.ts';
import { serverVersion } from '../../version.ts';
import { getIndex } from './index-page.ts';
import { buildOpenApiDocument } from './openapi.ts';

function health(): Reply {
  return { status: 200, headers: { 'Cache-Control': 'no-store' }, representation: { kind: 'single', type: 'health', enveloped: false, data: { status: 'ok' } } };
}

/** Built lazily from the full table (imported late to avoid an import cycle). */
async function openApi(ctx: RequestContext): Promise<Reply> {
  const { ALL_ROUTES } = await import('../all-routes.ts');
  const document = buildOpenApiDocument(ALL_ROUTES, ctx.services.config.basePath, serverVersion());
  return { status: 200, bytes: { data: Buffer.from(JSON.stringify(document)), contentType: 'application/json' } };
}

export const SERVICE_ROUTES: Route[] = [
  { method: 'GET', pattern: '/', handler: getIndex, auth: 'optional', summary: 'The index: links to the collections and service documents (as HTML, the landing page)' },
  { method: 'GET', pattern: '/health', handler: health, auth: 'public', summary: 'Health check' },
  { method: 'GET', pattern: '/openapi.json', handler: openApi, auth: 'public', raw: true, summary: 'This OpenAPI 3.1 document' },
];
